import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  networkError,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { SYNC_MESSAGES } from '@studio/contracts';
import { EventbriteDrawer, KlaviyoDrawer, MailchimpDrawer, ZoomDrawer } from './sync-provider.drawer';

type ProviderBody = OkBodyOf<'/api/admin/sync/providers/{provider}', 'get'>;
const PUT = 'PUT /api/admin/sync/providers/config_schema';

const EVENTBRITE: ProviderBody = {
  provider: {
    name: 'eventbrite',
    connected: true,
    account_name: 'Clay Studio Tickets',
    connected_at: '2026-11-01T10:00:00.000Z',
    oauth_configured: true,
    env_vars: ['EVENTBRITE_CLIENT_ID', 'EVENTBRITE_CLIENT_SECRET'],
    config_schema: { organization_id: '111', sync_all_courses: false, sync_all_enrollments: true },
    last_synced_at: null,
    failures: [],
    failures_total: 0,
  },
  organizations: [
    { id: '111', name: 'Clay Studio' },
    { id: '222', name: 'Clay Studio East' },
  ],
};
const MAILCHIMP_OFF: ProviderBody = {
  provider: {
    name: 'mailchimp',
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: true,
    env_vars: ['MAILCHIMP_CLIENT_ID', 'MAILCHIMP_CLIENT_SECRET'],
    config_schema: { list_id: null, sync_all_customers: false },
    last_synced_at: null,
    failures: [],
    failures_total: 0,
  },
  lists: [],
};
const KLAVIYO: ProviderBody = {
  provider: {
    name: 'klaviyo',
    connected: true,
    account_name: 'Clay Studio',
    connected_at: '2026-11-01T10:00:00.000Z',
    oauth_configured: true,
    env_vars: ['KLAVIYO_CLIENT_ID', 'KLAVIYO_CLIENT_SECRET'],
    config_schema: { list_id: null, sync_all_customers: false },
    last_synced_at: null,
    failures: [],
    failures_total: 0,
  },
  lists: [{ id: 'XyZ123', name: 'Newsletter' }],
};
const ZOOM: ProviderBody = {
  provider: {
    name: 'zoom',
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: true,
    env_vars: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET'],
    config_schema: { meeting_summary: false },
    last_synced_at: null,
    failures: [],
    failures_total: 0,
  },
};

const close = jest.fn();
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function chooseOption(text: string) {
  fireEvent.mouseDown(await screen.findByRole('combobox', {}, { timeout: 3000 }));
  await waitFor(() => expect(document.querySelector('.ant-select-dropdown')).not.toBeNull());
  fireEvent.click(within(document.querySelector('.ant-select-dropdown') as HTMLElement).getByText(text));
}

describe('sync provider drawers', () => {
  it('Eventbrite: shows the account, the organization and the toggles; saves the chosen organization and toasts', async () => {
    const calls = mockFetch({
      'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        EVENTBRITE,
      ),
      [PUT]: okBody<'/api/admin/sync/providers/config_schema', 'put'>({
        ...EVENTBRITE,
        provider: {
          ...EVENTBRITE.provider,
          config_schema: { organization_id: '222', sync_all_courses: true, sync_all_enrollments: true },
        },
      }),
    });
    renderWithProviders(<EventbriteDrawer data={{}} close={close} />);
    expect(await screen.findByText('Eventbrite is connected.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('Account: Clay Studio Tickets')).toBeInTheDocument();
    expect(screen.getByText('Clay Studio')).toBeInTheDocument();
    const enrollments = screen.getByRole('switch', { name: 'Sync all enrollments' });
    expect(enrollments).toBeChecked();
    expect(enrollments).toBeDisabled();
    await chooseOption('Clay Studio East');
    fireEvent.click(screen.getByRole('switch', { name: 'Sync all courses' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Eventbrite settings saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      provider_name: 'eventbrite',
      organization_id: '222',
      sync_all_courses: true,
      sync_all_enrollments: true,
    });
  });

  it("Eventbrite: toasts 'Error saving Eventbrite settings' when the save fails", async () => {
    mockFetch({
      'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        EVENTBRITE,
      ),
      [PUT]: errorBody(400, 'Validation failed'),
    });
    renderWithProviders(<EventbriteDrawer data={{}} close={close} />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Sync all courses' }, { timeout: 3000 }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error saving Eventbrite settings')).toBeInTheDocument();
  });

  it('Mailchimp: says it is not connected, and saves sync_all_customers, warning that nothing syncs until connected', async () => {
    const calls = mockFetch({
      'GET /api/admin/sync/providers/mailchimp': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        MAILCHIMP_OFF,
      ),
      [PUT]: okBody<'/api/admin/sync/providers/config_schema', 'put'>({
        ...MAILCHIMP_OFF,
        provider: { ...MAILCHIMP_OFF.provider, config_schema: { list_id: null, sync_all_customers: true } },
      }),
    });
    renderWithProviders(<MailchimpDrawer data={{}} close={close} />);
    expect(await screen.findByText('Mailchimp is not connected.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch', { name: 'Sync all customers' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // Not "saved" alone (issue 25): an owner would think it syncs.
    expect(
      await screen.findByText('Mailchimp settings saved, but Mailchimp is not connected: nothing syncs until you connect it.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      provider_name: 'mailchimp',
      list_id: null,
      sync_all_customers: true,
    });
  });

  it('Klaviyo: picks a list and saves with its toast; a failure toasts its error', async () => {
    let fail = false;
    const calls = mockFetch({
      'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(KLAVIYO),
      [PUT]: () =>
        fail
          ? errorBody(500, 'Internal server error')
          : okBody<'/api/admin/sync/providers/config_schema', 'put'>({
              ...KLAVIYO,
              provider: {
                ...KLAVIYO.provider,
                config_schema: { list_id: 'XyZ123', sync_all_customers: false },
              },
            }),
    });
    renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
    await chooseOption('Newsletter');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Klaviyo settings saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      provider_name: 'klaviyo',
      list_id: 'XyZ123',
      sync_all_customers: false,
    });
    fail = true;
    fireEvent.click(screen.getByRole('switch', { name: 'Sync all customers' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error saving Klaviyo settings')).toBeInTheDocument();
  });

  it('Zoom: shows only meeting_summary, and saves it with its toast', async () => {
    const calls = mockFetch({
      'GET /api/admin/sync/providers/zoom': okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
      [PUT]: okBody<'/api/admin/sync/providers/config_schema', 'put'>({
        provider: { ...ZOOM.provider, config_schema: { meeting_summary: true } },
      }),
    });
    renderWithProviders(<ZoomDrawer data={{}} close={close} />);
    fireEvent.click(
      await screen.findByRole('switch', { name: 'Attach meeting summaries' }, { timeout: 3000 }),
    );
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getAllByRole('switch')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Zoom settings saved, but Zoom is not connected: nothing syncs until you connect it.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      provider_name: 'zoom',
      meeting_summary: true,
    });
  });

  it('a failed load is an error state; Retry loads the settings', async () => {
    let down = true;
    mockFetch({
      'GET /api/admin/sync/providers/zoom': () =>
        down ? networkError() : okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
    });
    renderWithProviders(<ZoomDrawer data={{}} close={close} />);
    expect(
      await screen.findByText('Failed to load Zoom settings', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    down = false;
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(
      await screen.findByRole('switch', { name: 'Attach meeting summaries' }, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  describe('sync activity: the last sync and the failures, with Retry', () => {
    const FAILURE: ProviderBody['provider']['failures'][number] = {
      id: '5b0c8f0e-3f7c-4a53-9a4b-0d1c2e3f4a5b',
      local_type: 'student',
      local_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
      label: 'Ada Lovelace',
      action: 'student.upsert',
      last_error: 'Klaviyo answered 503',
      attempts: 6,
      updated_at: '2026-11-20T15:00:00.000Z',
    };
    const FAILING: ProviderBody = {
      ...KLAVIYO,
      provider: {
        ...KLAVIYO.provider,
        last_synced_at: '2026-11-20T14:00:00.000Z',
        failures: [FAILURE],
        failures_total: 3,
      },
    };
    const RETRY = `POST /api/admin/sync/mappings/${FAILURE.id}/retry`;

    it('lists the failures with their error and retries one with a toast; the list follows the answer', async () => {
      const calls = mockFetch({
        'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
          FAILING,
        ),
        [RETRY]: okBody<'/api/admin/sync/mappings/{mapping_id}/retry', 'post'>({
          ...FAILING,
          provider: { ...FAILING.provider, failures: [], failures_total: 2 },
        }),
      });
      renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
      expect(await screen.findByText('Klaviyo answered 503', {}, { timeout: 3000 })).toBeInTheDocument();
      expect(screen.getByText(/^Last sync: (?!not synced)/)).toBeInTheDocument();
      expect(screen.getByText('3 failed syncs (the 1 most recent shown)')).toBeInTheDocument();
      expect(screen.getByText('Student Ada Lovelace')).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Retry Student Ada Lovelace' }));
      expect(await screen.findByText('Sync queued again')).toBeInTheDocument();
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith(`/mappings/${FAILURE.id}/retry`))).toBe(
        true,
      );
      expect(await screen.findByText('No failed syncs')).toBeInTheDocument();
    });

    it("toasts 'Error retrying the sync' and keeps the failure when Retry fails", async () => {
      mockFetch({
        'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
          FAILING,
        ),
        [RETRY]: errorBody(409, 'Only a failed sync can be retried.'),
      });
      renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
      fireEvent.click(
        await screen.findByRole('button', { name: 'Retry Student Ada Lovelace' }, { timeout: 3000 }),
      );
      expect(await screen.findByText('Error retrying the sync')).toBeInTheDocument();
      expect(screen.getByText('Klaviyo answered 503')).toBeInTheDocument();
    });

    it('says when nothing synced yet and nothing failed', async () => {
      mockFetch({
        'GET /api/admin/sync/providers/zoom': okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
      });
      renderWithProviders(<ZoomDrawer data={{}} close={close} />);
      expect(await screen.findByText('Last sync: not synced yet', {}, { timeout: 3000 })).toBeInTheDocument();
      expect(screen.getByText('No failed syncs')).toBeInTheDocument();
    });
  });

  describe('Eventbrite sale conflicts, with Mark resolved', () => {
    const CONFLICT: NonNullable<ProviderBody['conflicts']>[number] = {
      id: '7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
      remote_order_id: '9000123',
      event_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      seats: 2,
      buyer_email: 'wren@buyer.test',
      message: SYNC_MESSAGES.overbooked(2, 1),
      created_at: '2026-11-20T15:00:00.000Z',
    };
    const WITH_CONFLICT: ProviderBody = { ...EVENTBRITE, conflicts: [CONFLICT], conflicts_total: 4 };
    const RESOLVE = `POST /api/admin/sync/conflicts/${CONFLICT.id}/resolve`;

    it('lists the conflict with its message; Mark resolved toasts and the list follows the answer', async () => {
      const calls = mockFetch({
        'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
          WITH_CONFLICT,
        ),
        [RESOLVE]: okBody<'/api/admin/sync/conflicts/{conflict_id}/resolve', 'post'>({
          ...EVENTBRITE,
          conflicts: [],
          conflicts_total: 0,
        }),
      });
      renderWithProviders(<EventbriteDrawer data={{}} close={close} />);
      expect(
        await screen.findByText(
          'Sold on Eventbrite for 2 seats with 1 left: not enrolled. Refund it on Eventbrite or raise the capacity.',
          {},
          { timeout: 3000 },
        ),
      ).toBeInTheDocument();
      expect(screen.getByText('4 sales to resolve (the 1 most recent shown)')).toBeInTheDocument();
      expect(screen.getByText(/Eventbrite order 9000123 · wren@buyer\.test · 2 seats/)).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Mark order 9000123 resolved' }));
      expect(await screen.findByText('Conflict marked resolved')).toBeInTheDocument();
      expect(
        calls.some((c) => c.method === 'POST' && c.url.endsWith(`/conflicts/${CONFLICT.id}/resolve`)),
      ).toBe(true);
      expect(await screen.findByText('No sale conflicts')).toBeInTheDocument();
    });

    it("toasts 'Error resolving the conflict' and keeps it when the call fails", async () => {
      mockFetch({
        'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
          WITH_CONFLICT,
        ),
        [RESOLVE]: errorBody(404, 'Sale conflict not found.'),
      });
      renderWithProviders(<EventbriteDrawer data={{}} close={close} />);
      fireEvent.click(
        await screen.findByRole('button', { name: 'Mark order 9000123 resolved' }, { timeout: 3000 }),
      );
      expect(await screen.findByText('Error resolving the conflict')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Mark order 9000123 resolved' })).toBeInTheDocument();
    });

    it('the mailing lists show no conflicts section', async () => {
      mockFetch({
        'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
          KLAVIYO,
        ),
      });
      renderWithProviders(<KlaviyoDrawer data={{}} close={close} />);
      expect(await screen.findByText('Klaviyo is connected.', {}, { timeout: 3000 })).toBeInTheDocument();
      expect(screen.queryByText('Sale conflicts')).toBeNull();
    });
  });
});
