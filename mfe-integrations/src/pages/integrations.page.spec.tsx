import { fireEvent, screen, within } from '@testing-library/react';
import {
  TEST_SESSION,
  errorBody,
  mockFetch,
  networkError,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { IntegrationsPage } from './integrations.page';

type ProviderBody = OkBodyOf<'/api/admin/sync/providers/{provider}', 'get'>;
const notConnected = (name: 'mailchimp' | 'klaviyo'): ProviderBody => ({
  provider: {
    name,
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: true,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: [`${name.toUpperCase()}_CLIENT_ID`, `${name.toUpperCase()}_CLIENT_SECRET`],
    config_schema: { list_id: null, sync_all_customers: false },
  },
  lists: [],
});
const EVENTBRITE: ProviderBody = {
  provider: {
    name: 'eventbrite',
    connected: true,
    account_name: 'Clay Studio Tickets',
    connected_at: '2026-11-01T10:00:00.000Z',
    oauth_configured: true,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: ['EVENTBRITE_CLIENT_ID', 'EVENTBRITE_CLIENT_SECRET'],
    config_schema: { organization_id: '111', sync_all_courses: true, sync_all_enrollments: true },
  },
  organizations: [],
};
const ZOOM: ProviderBody = {
  provider: {
    name: 'zoom',
    connected: false,
    account_name: null,
    connected_at: null,
    oauth_configured: true,
    last_synced_at: null,
    failures: [],
    failures_total: 0,
    env_vars: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET'],
    config_schema: { meeting_summary: false },
  },
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function OpenDrawer() {
  const { current } = useDrawer();
  return <output aria-label="open drawer">{current ? current.type : ''}</output>;
}

describe('IntegrationsPage', () => {
  it('lists the four providers with their state and opens one', async () => {
    mockFetch({
      'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        EVENTBRITE,
      ),
      'GET /api/admin/sync/providers/mailchimp': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('mailchimp'),
      ),
      'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('klaviyo'),
      ),
      'GET /api/admin/sync/providers/zoom': okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
    });
    renderWithProviders(
      <>
        <OpenDrawer />
        <IntegrationsPage />
      </>,
    );
    const eventbrite = await screen.findByRole('region', { name: 'Eventbrite' }, { timeout: 3000 });
    expect(await within(eventbrite).findByText('Connected')).toBeInTheDocument();
    expect(within(eventbrite).getByText('Clay Studio Tickets')).toBeInTheDocument();
    for (const name of ['Mailchimp', 'Klaviyo', 'Zoom']) {
      expect(
        await within(screen.getByRole('region', { name })).findByText('Not connected'),
      ).toBeInTheDocument();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Klaviyo settings' }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent('klaviyo');
  });

  it('a provider that fails to load shows an error with Retry, and the others still show', async () => {
    let down = true;
    mockFetch({
      'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        EVENTBRITE,
      ),
      'GET /api/admin/sync/providers/mailchimp': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('mailchimp'),
      ),
      'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('klaviyo'),
      ),
      'GET /api/admin/sync/providers/zoom': () =>
        down ? networkError() : okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
    });
    renderWithProviders(<IntegrationsPage />);
    const zoom = await screen.findByRole('region', { name: 'Zoom' }, { timeout: 3000 });
    expect(
      await within(zoom).findByText('Failed to load Zoom settings', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(
      await within(screen.getByRole('region', { name: 'Eventbrite' })).findByText('Connected'),
    ).toBeInTheDocument();
    down = false;
    fireEvent.click(within(zoom).getByRole('button', { name: /retry/i }));
    expect(await within(zoom).findByText('Not connected', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it('offers super admins the queue dashboard, and says why it cannot open; owners do not see it', async () => {
    const providers = {
      'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        EVENTBRITE,
      ),
      'GET /api/admin/sync/providers/mailchimp': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('mailchimp'),
      ),
      'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('klaviyo'),
      ),
      'GET /api/admin/sync/providers/zoom': okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
    };
    const calls = mockFetch({
      ...providers,
      'POST /api/admin/queue-dashboard/link': errorBody(
        503,
        'Jobs run in this process (no Redis): there is no queue dashboard.',
      ),
    });
    const superAdmin = { ...TEST_SESSION, user: { ...TEST_SESSION.user, role: 'super_admin' as const } };
    const view = renderWithProviders(<IntegrationsPage />, superAdmin);
    fireEvent.click(await screen.findByRole('button', { name: 'Queue dashboard' }));
    expect(
      await screen.findByText(
        'Jobs run in this process (no Redis): there is no queue dashboard.',
        {},
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
    expect(
      calls.filter((c) => c.method === 'POST' && c.url === '/api/admin/queue-dashboard/link'),
    ).toHaveLength(1);
    view.unmount();

    renderWithProviders(<IntegrationsPage />);
    await screen.findByRole('region', { name: 'Zoom' });
    expect(screen.queryByRole('button', { name: 'Queue dashboard' })).toBeNull();
  });

  it("a card's main switch saves that one setting with the generic toast, and says when saving failed", async () => {
    let failing = false;
    const calls = mockFetch({
      'GET /api/admin/sync/providers/eventbrite': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        EVENTBRITE,
      ),
      'GET /api/admin/sync/providers/mailchimp': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('mailchimp'),
      ),
      'GET /api/admin/sync/providers/klaviyo': okBody<'/api/admin/sync/providers/{provider}', 'get'>(
        notConnected('klaviyo'),
      ),
      'GET /api/admin/sync/providers/zoom': okBody<'/api/admin/sync/providers/{provider}', 'get'>(ZOOM),
      'PUT /api/admin/sync/providers/config_schema': () =>
        failing
          ? errorBody(500, 'Internal server error')
          : okBody<'/api/admin/sync/providers/config_schema', 'put'>({
              ...ZOOM,
              provider: { ...ZOOM.provider, config_schema: { meeting_summary: true } },
            }),
    });
    renderWithProviders(<IntegrationsPage />);
    const toggle = await screen.findByRole(
      'switch',
      { name: 'Zoom: Attach meeting summaries' },
      { timeout: 3000 },
    );
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    // Eventbrite's saved "sync all courses" shows on its card.
    expect(screen.getByRole('switch', { name: 'Eventbrite: Sync all courses' })).toHaveAttribute(
      'aria-checked',
      'true',
    );

    fireEvent.click(toggle);
    expect(await screen.findByText('Settings saved', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].body).toEqual({ provider_name: 'zoom', meeting_summary: true });

    failing = true;
    fireEvent.click(toggle);
    expect(await screen.findByText('Error saving settings', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
  });
});
