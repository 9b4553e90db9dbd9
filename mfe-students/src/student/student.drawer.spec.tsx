import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderWithProviders, type MockAnswer } from '@studio/ui/testing';
import type { StudentDetail } from '@studio/ui';
import { StudentDrawer } from './student.drawer';

const STUDENT: StudentDetail = {
  student_id: 's1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  user_id: 'u1',
  created_at: '2025-01-05T15:00:00Z',
  User: { phone: '+1 555 0100' },
  LoyaltyBalance: [{ balance: 1234.2 }],
  Organization: { timezone: 'America/New_York', LoyaltyProgram: [{ status: 'active' }] },
  Submission: [
    {
      submission_id: 'w1',
      status: 'completed',
      completed_at: '2025-02-01T15:00:00Z',
      created_at: '2025-01-30T15:00:00Z',
      submission_url: 'https://sign.example/w1',
      DocusealTemplate: { name: 'Studio safety waiver' },
    },
  ],
  new_orders: [
    {
      order_id: 'o1',
      order_number: 1042,
      created_at: '2025-03-14T23:30:00Z',
      total: 4599,
      subDescription: 'Wheel throwing',
    },
  ],
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function routes(student: StudentDetail = STUDENT, extra: Record<string, MockAnswer> = {}) {
  return mockFetch({ 'GET /api/admin/student/s1': { body: student }, ...extra });
}

async function renderDrawer() {
  renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />);
  await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 3000 });
}

async function openEditPoints() {
  fireEvent.click(screen.getByRole('button', { name: 'Student actions' }));
  fireEvent.click(await screen.findByText('Edit points'));
}

describe('StudentDrawer', () => {
  it('shows name, badge, email, phone, first seen, points and the sections', async () => {
    routes();
    await renderDrawer();
    expect(screen.getByText('Signed up')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('+1 555 0100')).toBeInTheDocument();
    expect(screen.getByText('05 Jan, 2025')).toBeInTheDocument();
    expect(screen.getByText('1,235')).toBeInTheDocument();
    // Orders open by default, Waivers closed.
    expect(screen.getByText('Order #1042')).toBeInTheDocument();
    expect(screen.getByText('Mar 14, 7:30 PM')).toBeInTheDocument();
    expect(screen.getByText('$45.99')).toBeInTheDocument();
    expect(screen.queryByText('Studio safety waiver')).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('Waivers'));
    expect(await screen.findByText('Studio safety waiver')).toBeInTheDocument();
    expect(screen.getByText('Signed on Feb 1, 2025')).toBeInTheDocument();
    expect(screen.getByText('Completed')).toBeInTheDocument();
  });

  it("says 'Not signed up' and hides the phone for a student without an account", async () => {
    routes({ ...STUDENT, user_id: null, User: null });
    await renderDrawer();
    expect(screen.getByText('Not signed up')).toBeInTheDocument();
    expect(screen.queryByText('Phone')).not.toBeInTheDocument();
  });

  it('shows an error inside the drawer when the student cannot be loaded', async () => {
    mockFetch({});
    renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />);
    expect(await screen.findByText('Could not load this student', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('edits the name with PUT {first_name, last_name}', async () => {
    const calls = routes(STUDENT, { 'PUT /api/admin/student/s1': { body: {} } });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      first_name: 'Augusta',
      last_name: 'Lovelace',
    });
    expect(screen.getByRole('heading', { name: 'Augusta Lovelace' })).toBeInTheDocument();
  });

  it("toasts 'Failed to update name' when the rename fails", async () => {
    routes(STUDENT, {
      'PUT /api/admin/student/s1': { status: 500, body: { statusCode: 500, message: 'x' } },
    });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update name')).toBeInTheDocument();
  });

  it("refuses 'Edit points' when the loyalty program is not active", async () => {
    routes({ ...STUDENT, Organization: { timezone: 'UTC', LoyaltyProgram: [{ status: 'disabled' }] } });
    await renderDrawer();
    await openEditPoints();
    expect(await screen.findByText('Loyalty program is not active')).toBeInTheDocument();
    expect(screen.queryByText('Adjust loyalty points')).not.toBeInTheDocument();
  });

  it('the loyalty dialog accepts only digits with two decimals and posts an integer amount', async () => {
    const calls = routes(STUDENT, { 'POST /api/admin/student/s1/loyalty-balance/set': { body: {} } });
    await renderDrawer();
    await openEditPoints();
    const dialog = await screen.findByRole('dialog', { name: 'Adjust loyalty points' });
    const input = within(dialog).getByLabelText('New points balance');
    expect(within(dialog).getByText('Points')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: '' } });
    expect(input).toHaveValue('');
    fireEvent.change(input, { target: { value: '12a' } });
    expect(input).toHaveValue('');
    fireEvent.change(input, { target: { value: '250.55' } });
    expect(input).toHaveValue('250.55');
    fireEvent.change(input, { target: { value: '250.555' } });
    expect(input).toHaveValue('250.55');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ amount: 250 }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Adjust loyalty points' })).not.toBeInTheDocument(),
    );
  });

  it("keeps the dialog open with 'Failed to refund order:' when saving fails, showing 'Loading...' meanwhile", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    routes(STUDENT);
    const base = global.fetch;
    global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/loyalty-balance/set')) {
        await gate;
        return { ok: false, status: 500, text: async () => '{"statusCode":500,"message":"x"}' } as Response;
      }
      return base(input, init);
    }) as typeof fetch;
    await renderDrawer();
    await openEditPoints();
    const dialog = await screen.findByRole('dialog', { name: 'Adjust loyalty points' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByRole('button', { name: 'Loading...' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('Failed to refund order:')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Adjust loyalty points' })).toBeInTheDocument();
  });
});
