import { webcrypto, createHash } from 'node:crypto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { syncPkceStorageKey } from '@studio/contracts';
import {
  errorBody,
  mockFetch,
  noContent,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { navigation } from './sync-connection';
import { KlaviyoDrawer, ZoomDrawer, EventbriteDrawer } from './sync-provider.drawer';

type ProviderBody = OkBodyOf<'/api/admin/sync/providers/{provider}', 'get'>;
type AuthorizeBody = OkBodyOf<'/api/admin/sync/providers/{provider}/authorize', 'post'>;

const KLAVIYO_OFF: ProviderBody = {
  provider: {
    name: 'klaviyo',
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: true,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: ['KLAVIYO_CLIENT_ID', 'KLAVIYO_CLIENT_SECRET'],
    config_schema: { list_id: null, sync_all_customers: false },
  },
  lists: [],
};
const KLAVIYO_ON: ProviderBody = {
  ...KLAVIYO_OFF,
  provider: {
    ...KLAVIYO_OFF.provider,
    connected: true,
    account_name: 'Clay Studio',
    connected_at: '2026-11-01T10:00:00.000Z',
  },
};
const ZOOM_UNCONFIGURED: ProviderBody = {
  provider: {
    name: 'zoom',
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: false,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET'],
    config_schema: { meeting_summary: false },
  },
};
const EVENTBRITE_OFF: ProviderBody = {
  provider: {
    name: 'eventbrite',
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: true,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: ['EVENTBRITE_CLIENT_ID', 'EVENTBRITE_CLIENT_SECRET'],
    config_schema: { organization_id: null, sync_all_courses: false, sync_all_enrollments: true },
  },
  organizations: [],
};
const GET = (p: string) => `GET /api/admin/sync/providers/${p}`;
const close = jest.fn();

beforeAll(() => {
  // jsdom has no SubtleCrypto: Node's stands in, its answers copied into this realm's ArrayBuffer.
  const subtle = {
    digest: async (algorithm: string, data: BufferSource) => {
      const out = new Uint8Array(await webcrypto.subtle.digest(algorithm, data));
      const copy = new ArrayBuffer(out.byteLength);
      new Uint8Array(copy).set(out);
      return copy;
    },
  };
  const getRandomValues = <T extends ArrayBufferView>(array: T) =>
    webcrypto.getRandomValues(array as never) as T;
  Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues, subtle }, configurable: true });
});
beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  window.localStorage.clear();
});
afterEach(() => jest.restoreAllMocks());

describe('sync drawers: Connect and Disconnect', () => {
  it('Klaviyo Connect keeps a PKCE verifier in local storage, sends only its S256 challenge, and goes to the authorize page', async () => {
    const assign = jest.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    const calls = mockFetch({
      [GET('klaviyo')]: okBody<'/api/admin/sync/providers/{provider}', 'get'>(KLAVIYO_OFF),
      'POST /api/admin/sync/providers/klaviyo/authorize': okBody<
        '/api/admin/sync/providers/{provider}/authorize',
        'post'
      >({
        authorize_url: 'https://www.klaviyo.com/oauth/authorize?state=s',
      } satisfies AuthorizeBody),
    });
    renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
    expect(await screen.findByText('Klaviyo is not connected.', {}, { timeout: 3000 })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://www.klaviyo.com/oauth/authorize?state=s'),
    );
    const verifier = window.localStorage.getItem(syncPkceStorageKey('klaviyo'))!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = calls.find((c) => c.method === 'POST')!.body as { code_challenge: string };
    expect(sent).toEqual({ code_challenge: createHash('sha256').update(verifier).digest('base64url') });
    expect(JSON.stringify(sent)).not.toContain(verifier);
  });

  it('Eventbrite Connect sends no challenge; a refusal shows the error with Retry, which tries again', async () => {
    const assign = jest.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    let attempts = 0;
    const calls = mockFetch({
      [GET('eventbrite')]: okBody<'/api/admin/sync/providers/{provider}', 'get'>(EVENTBRITE_OFF),
      'POST /api/admin/sync/providers/eventbrite/authorize': () =>
        ++attempts === 1
          ? errorBody(
              502,
              "Eventbrite could not be reached or refused this server's credentials. Try again later.",
            )
          : okBody<'/api/admin/sync/providers/{provider}/authorize', 'post'>({
              authorize_url: 'https://www.eventbrite.com/oauth/authorize',
            }),
    });
    renderWithProviders(<EventbriteDrawer data={{}} close={close} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }, { timeout: 3000 }));
    expect(await screen.findByText(/Eventbrite could not be reached/)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({});
    expect(window.localStorage.length).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://www.eventbrite.com/oauth/authorize'));
  });

  it('Disconnect asks first, then calls DELETE and shows the provider not connected', async () => {
    let connected = true;
    const calls = mockFetch({
      [GET('klaviyo')]: () =>
        okBody<'/api/admin/sync/providers/{provider}', 'get'>(connected ? KLAVIYO_ON : KLAVIYO_OFF),
      'DELETE /api/admin/sync/providers/klaviyo/connection': () => {
        connected = false;
        return noContent();
      },
    });
    renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
    expect(await screen.findByText('Klaviyo is connected.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('Account: Clay Studio')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    expect(screen.getByText('Disconnect Klaviyo?')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Keep connected' }));
    expect(screen.queryByText('Disconnect Klaviyo?')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, disconnect' }));
    expect(await screen.findByText('Klaviyo is disconnected.')).toBeInTheDocument();
    expect(await screen.findByText('Klaviyo is not connected.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('a failed Disconnect shows the error with Retry and stays connected', async () => {
    mockFetch({
      [GET('klaviyo')]: okBody<'/api/admin/sync/providers/{provider}', 'get'>(KLAVIYO_ON),
      'DELETE /api/admin/sync/providers/klaviyo/connection': errorBody(500, 'Internal server error'),
    });
    renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }, { timeout: 3000 }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, disconnect' }));
    expect(await screen.findByText('Internal server error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByText('Klaviyo is connected.')).toBeInTheDocument();
  });

  it('without OAuth client credentials, names the env vars instead of Connect; the settings stay usable', async () => {
    mockFetch({ [GET('zoom')]: okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM_UNCONFIGURED) });
    renderWithProviders(<ZoomDrawer data={{}} close={close} />);
    expect(await screen.findByText('Zoom is not connected.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(
      screen.getByText(/Zoom is not set up on this server: set ZOOM_CLIENT_ID and ZOOM_CLIENT_SECRET\./),
    ).toBeInTheDocument();
    expect(screen.getByText('ZOOM_CLIENT_ID', { selector: 'code' })).toBeInTheDocument();
    expect(screen.getByText('ZOOM_CLIENT_SECRET', { selector: 'code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
    expect(screen.getByRole('switch', { name: 'Attach meeting summaries' })).toBeEnabled();
  });
});
