import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  networkError,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
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

  it('Mailchimp: says it is not connected, and saves sync_all_customers with its toast', async () => {
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
    expect(await screen.findByText('Mailchimp settings saved')).toBeInTheDocument();
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
    expect(await screen.findByText('Zoom settings saved')).toBeInTheDocument();
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
});
