import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REMINDER_MESSAGES } from '@studio/contracts';
import { TEST_SESSION, errorBody, mockFetch, okBody, renderWithProviders, type OkBodyOf } from '@studio/ui/testing';
import { OrganizationPage } from './organization.page';

type Org = OkBodyOf<'/api/admin/org', 'get'>;
const ORG: Org = {
  name: 'Demo Studio',
  timezone: 'America/New_York',
  listed_course: true,
  slug: 'demo-studio',
  public_url: null,
  store_url: 'http://localhost:3000/s/demo-studio',
  app_store_url: 'http://localhost:3000/s/demo-studio',
  reminder_offsets_mins: [1440],
  waitlist_claim_hours: 12,
};
const GET_ORG = 'GET /api/admin/org';
const PUT_REMINDERS = 'PUT /api/admin/org/reminders';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const section = async () => within(await screen.findByRole('form', { name: 'Reminder settings' }));
const picker = () => screen.getByRole('combobox', { name: 'Reminder emails before a class or appointment' });
const choose = async (label: string) => {
  fireEvent.mouseDown(picker());
  fireEvent.click(await screen.findByTitle(label));
};

describe('Settings → Organization → Reminders', () => {
  it('shows the saved times; adding 2 hours sends both, largest first as the API answers, and says so', async () => {
    const calls = mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG),
      [PUT_REMINDERS]: okBody<'/api/admin/org/reminders', 'put'>({ ...ORG, reminder_offsets_mins: [1440, 120] }),
    });
    renderWithProviders(<OrganizationPage />);
    const form = await section();
    expect(form.getByText('24 hours before')).toBeInTheDocument();
    expect(form.getByText('Up to 3 times. Bookings made or moved from now on follow them.')).toBeInTheDocument();
    await choose('2 hours before');
    fireEvent.click(form.getByRole('button', { name: 'Save reminder times' }));
    expect(await screen.findByText('Reminder times saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ reminder_offsets_mins: [1440, 120] });
    expect(form.getByText('2 hours before')).toBeInTheDocument();
  });

  it('emptied: says reminders are off and saves an empty list', async () => {
    const calls = mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG),
      [PUT_REMINDERS]: okBody<'/api/admin/org/reminders', 'put'>({ ...ORG, reminder_offsets_mins: [] }),
    });
    renderWithProviders(<OrganizationPage />);
    const form = await section();
    fireEvent.click(form.getByLabelText('close'));
    expect(await form.findByText('Reminders are off: students get no reminder emails.')).toBeInTheDocument();
    fireEvent.click(form.getByRole('button', { name: 'Save reminder times' }));
    expect(await screen.findByText('Reminder times saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ reminder_offsets_mins: [] });
  });

  it('offers a time saved outside the list, and shows the API message when the save is refused', async () => {
    mockFetch({
      [GET_ORG]: okBody<'/api/admin/org', 'get'>({ ...ORG, reminder_offsets_mins: [90] }),
      [PUT_REMINDERS]: errorBody(400, REMINDER_MESSAGES.offsetRange),
    });
    renderWithProviders(<OrganizationPage />);
    const form = await section();
    expect(form.getByText('90 minutes before')).toBeInTheDocument();
    fireEvent.click(form.getByRole('button', { name: 'Save reminder times' }));
    expect(await screen.findByText(REMINDER_MESSAGES.offsetRange)).toBeInTheDocument();
    expect(screen.queryByText('Reminder times saved')).not.toBeInTheDocument();
  });

  it('takes at most 3 times', async () => {
    mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>({ ...ORG, reminder_offsets_mins: [1440, 120, 30] }) });
    renderWithProviders(<OrganizationPage />);
    await section();
    fireEvent.mouseDown(picker());
    const option = await screen.findByTitle('1 hour before');
    await waitFor(() => expect(option).toHaveClass('ant-select-item-option-disabled'));
  });

  it('shows staff the times, disabled, with no save button', async () => {
    mockFetch({ [GET_ORG]: okBody<'/api/admin/org', 'get'>(ORG) });
    renderWithProviders(<OrganizationPage />, { ...TEST_SESSION, user: { ...TEST_SESSION.user, role: 'staff' } });
    const form = await section();
    expect(form.getByText('24 hours before')).toBeInTheDocument();
    expect(picker()).toBeDisabled();
    expect(form.queryByRole('button', { name: 'Save reminder times' })).not.toBeInTheDocument();
  });
});
