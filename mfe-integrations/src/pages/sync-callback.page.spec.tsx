import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SYNC_MESSAGES as M, syncPkceStorageKey } from '@studio/contracts';
import { useDrawer } from '@studio/ui';
import { errorBody, mockFetch, okBody, renderWithProviders, type OkBodyOf } from '@studio/ui/testing';
import { SyncCallbackPage } from './sync-callback.page';

type ProviderBody = OkBodyOf<'/api/admin/sync/providers/{provider}/callback', 'post'>;
const KLAVIYO_ON: ProviderBody = {
  provider: {
    name: 'klaviyo',
    connected: true,
    account_name: 'Clay Studio',
    connected_at: '2026-11-22T20:00:00.000Z',
    oauth_configured: true,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: ['KLAVIYO_CLIENT_ID', 'KLAVIYO_CLIENT_SECRET'],
    config_schema: { list_id: null, sync_all_customers: false },
  },
  lists: [],
};
const CALLBACK = 'POST /api/admin/sync/providers/klaviyo/callback';
const VERIFIER = 'v'.repeat(43);

function OpenDrawer() {
  const { current } = useDrawer();
  return <output aria-label="open drawer">{current ? current.type : ''}</output>;
}

const renderAt = (url: string) =>
  renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <OpenDrawer />
      <Routes>
        <Route path="/admin/integrations/:provider/callback" element={<SyncCallbackPage />} />
      </Routes>
    </MemoryRouter>,
  );

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  window.localStorage.clear();
});
afterEach(() => jest.restoreAllMocks());

describe('SyncCallbackPage', () => {
  it('posts the code, the state and the kept verifier once, removes the verifier, says connected and opens the drawer', async () => {
    window.localStorage.setItem(syncPkceStorageKey('klaviyo'), VERIFIER);
    const calls = mockFetch({
      [CALLBACK]: okBody<'/api/admin/sync/providers/{provider}/callback', 'post'>(KLAVIYO_ON),
    });
    renderAt('/admin/integrations/klaviyo/callback?code=abc&state=xyz');
    expect(await screen.findByText(M.connected('klaviyo'), {}, { timeout: 3000 })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(calls[0].body).toEqual({ code: 'abc', state: 'xyz', code_verifier: VERIFIER });
    expect(window.localStorage.getItem(syncPkceStorageKey('klaviyo'))).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent('klaviyo'),
    );
    expect(screen.getByRole('link', { name: 'Back to Integrations' })).toHaveAttribute(
      'href',
      '/admin/settings/integrations',
    );
  });

  it("shows the API's refusal (a reused state) with a way back", async () => {
    mockFetch({ [CALLBACK]: errorBody(409, M.stateUsed) });
    renderAt('/admin/integrations/klaviyo/callback?code=abc&state=xyz');
    expect(await screen.findByText(M.stateUsed, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('Klaviyo is not connected.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Integrations' })).toBeInTheDocument();
  });

  it('shows a denial from the provider without calling the API', async () => {
    const calls = mockFetch({});
    renderAt(
      '/admin/integrations/zoom/callback?error=access_denied&error_description=The+user+denied&state=xyz',
    );
    expect(
      await screen.findByText('Zoom did not connect: The user denied.', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('an unknown provider says so', async () => {
    mockFetch({});
    renderAt('/admin/integrations/hubspot/callback?code=a&state=b');
    expect(await screen.findByText(M.unknownProvider, {}, { timeout: 3000 })).toBeInTheDocument();
  });
});
