import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders, type MockRoute } from '@studio/ui/testing';
import { useDrawer, type StudentDetail } from '@studio/ui';
import { StudentDrawer } from './student.drawer';

/** What GET /api/admin/student/{student_id} answers: an invented field fails the typecheck. */
const STUDENT: StudentDetail = {
  student_id: 's1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
  user_id: 'u1',
  created_at: '2025-01-05T15:00:00Z',
  User: { first_name: 'Ada', last_name: 'Lovelace', phone: '+1 555 0100' },
  LoyaltyBalance: [
    {
      entry_id: 'l2',
      balance: 1250,
      points: 250,
      reason: 'adjusted',
      order_id: null,
      actor: 'Olive Owner',
      created_at: '2026-03-06T15:00:00Z',
    },
    {
      entry_id: 'l1',
      balance: 1000,
      points: 1000,
      reason: 'earned',
      order_id: 'o2',
      actor: null,
      created_at: '2026-03-05T23:30:00Z',
    },
  ],
  Organization: { timezone: 'America/New_York', LoyaltyProgram: [{ status: 'active' }] },
  new_orders: [
    {
      order_id: 'o2',
      order_number: 1043,
      created_at: '2026-03-05T23:30:00Z',
      total: 6000,
      status: 'paid',
      image: '/media/wheel.jpg',
      subDescription: 'Intro to Wheel Throwing',
    },
    {
      order_id: 'o1',
      order_number: 1042,
      created_at: '2026-01-02T14:05:00Z',
      total: 0,
      status: 'paid',
      image: null,
      subDescription: 'Glaze kit',
    },
  ],
  sessions: [
    {
      enrollment_id: 'e2',
      event_id: 'ev2',
      name: 'Glaze night',
      starts_at: '2026-03-20T23:00:00Z',
      ends_at: '2026-03-21T01:00:00Z',
      timezone: 'America/New_York',
      checked_in_at: null,
      attendance: 'not_checked_in',
    },
    {
      enrollment_id: 'e1',
      event_id: 'ev1',
      name: 'Intro to Wheel Throwing',
      starts_at: '2026-03-01T23:00:00Z',
      ends_at: '2026-03-02T01:00:00Z',
      timezone: 'America/New_York',
      checked_in_at: '2026-03-01T22:55:00Z',
      attendance: 'checked_in',
    },
    {
      enrollment_id: 'e0',
      event_id: 'ev0',
      name: 'Handbuilding',
      starts_at: '2026-02-01T23:00:00Z',
      ends_at: '2026-02-02T01:00:00Z',
      timezone: 'America/New_York',
      checked_in_at: null,
      attendance: 'no_show',
    },
  ],
  Submission: [
    {
      submission_id: 'w2',
      status: 'pending',
      completed_at: null,
      created_at: '2026-03-07T15:00:00Z',
      submission_url: null,
      sign_url: 'https://sign.example/s/abc',
      DocusealTemplate: { name: 'Kiln safety waiver' },
    },
    {
      submission_id: 'w1',
      status: 'completed',
      completed_at: '2026-03-06T02:30:00Z',
      created_at: '2026-03-01T15:00:00Z',
      submission_url: 'https://sign.example/signed/w1.pdf',
      sign_url: 'https://sign.example/s/def',
      DocusealTemplate: { name: 'Studio safety waiver' },
    },
  ],
};

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

const answerStudent = (student: StudentDetail = STUDENT) =>
  okBody<'/api/admin/student/{student_id}', 'get'>(student);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function routes(student: StudentDetail = STUDENT, extra: Record<string, MockRoute> = {}) {
  return mockFetch({ 'GET /api/admin/student/s1': answerStudent(student), ...extra });
}

async function renderDrawer(options: { signOut?: () => Promise<void> } = {}) {
  renderWithProviders(
    <>
      <OpenDrawer />
      <StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />
    </>,
    undefined,
    options,
  );
  await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 3000 });
}

describe('StudentDrawer', () => {
  it("lists the student's sessions with their attendance: Checked in, Not checked in, and No-show after the session (issue 23)", async () => {
    routes();
    await renderDrawer();
    fireEvent.click(screen.getByText('Sessions'));
    const rows = within(await screen.findByRole('list', { name: 'Sessions' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Glaze night'),
      expect.stringContaining('Intro to Wheel Throwing'),
      expect.stringContaining('Handbuilding'),
    ]);
    expect(rows[0]).toHaveTextContent('Not checked in');
    expect(rows[1]).toHaveTextContent('Checked in');
    expect(rows[1]).not.toHaveTextContent('Not checked in');
    expect(rows[2]).toHaveTextContent('No-show');
    // 23:00 UTC on Mar 1 is 6:00 PM in New York.
    expect(rows[1]).toHaveTextContent(/6:00\s?PM/i);
  });

  it("lists the reminder mails from the log when Reminders is opened: course and start in the location's zone, how long before, to whom, the outcome and why (issue 23)", async () => {
    const calls = routes(STUDENT, {
      'GET /api/admin/student/s1/reminders': okBody<'/api/admin/student/{student_id}/reminders', 'get'>({
        reminders: [
          {
            id: 'r2',
            booking_kind: 'enrollment',
            booking_id: 'e2',
            course_name: 'Glaze night',
            time_zone: 'America/Los_Angeles',
            offset_mins: 120,
            starts_at: '2026-03-10T02:00:00Z',
            sent_at: '2026-03-10T00:00:05Z',
            to: null,
            outcome: 'skipped',
            detail: 'The student was removed from the session',
          },
          {
            id: 'r1',
            booking_kind: 'appointment',
            booking_id: 'a1',
            course_name: 'Portrait session',
            time_zone: 'America/New_York',
            offset_mins: 1440,
            starts_at: '2026-03-02T23:00:00Z',
            sent_at: '2026-03-01T23:00:02Z',
            to: 'ada@example.com',
            outcome: 'sent',
            detail: null,
          },
        ],
      }),
    });
    await renderDrawer();
    expect(calls.some((c) => c.url.includes('/reminders'))).toBe(false);
    fireEvent.click(screen.getByText('Reminders'));
    const rows = within(await screen.findByRole('list', { name: 'Reminders' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Glaze night');
    expect(rows[0]).toHaveTextContent('2 hours before');
    expect(rows[0]).toHaveTextContent('Skipped');
    expect(rows[0]).toHaveTextContent('The student was removed from the session');
    // 02:00 UTC on Mar 10 is 7:00 PM on Mar 9 in Los Angeles (the session's zone, summer time by then).
    expect(rows[0]).toHaveTextContent(/Mar 9 7:00\s?PM PDT/i);
    expect(rows[1]).toHaveTextContent('Portrait session');
    expect(rows[1]).toHaveTextContent('24 hours before');
    expect(rows[1]).toHaveTextContent('to ada@example.com');
    expect(rows[1]).toHaveTextContent('Sent');
  });

  it("says 'No reminders sent yet' when the log has none", async () => {
    routes(STUDENT, {
      'GET /api/admin/student/s1/reminders': okBody<'/api/admin/student/{student_id}/reminders', 'get'>({ reminders: [] }),
    });
    await renderDrawer();
    fireEvent.click(screen.getByText('Reminders'));
    expect(await screen.findByText('No reminders sent yet')).toBeInTheDocument();
  });

  it("says 'No sessions' for a student enrolled in none", async () => {
    routes({ ...STUDENT, sessions: [] });
    await renderDrawer();
    fireEvent.click(screen.getByText('Sessions'));
    expect(await screen.findByText('No sessions')).toBeInTheDocument();
  });

  it('shows what the API answers: name, badge, email, phone and first seen', async () => {
    routes();
    await renderDrawer();
    expect(screen.getByText('Signed up')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('+1 555 0100')).toBeInTheDocument();
    expect(screen.getByText('05 Jan, 2025')).toBeInTheDocument();
  });

  it('lists the waivers, closed by default: name, Signed on / Sent on in the zone, badge, and a link opening in a new tab', async () => {
    const calls = routes();
    await renderDrawer();
    expect(screen.queryByRole('list', { name: 'Waivers' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('Waivers'));
    const rows = within(await screen.findByRole('list', { name: 'Waivers' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Kiln safety waiver');
    expect(rows[0]).toHaveTextContent(/Sent on Sat, Mar 7(, 2026)?(?!\d)/);
    expect(rows[0]).toHaveTextContent('Pending');
    // Completed at 02:30 UTC on Mar 6 is Mar 5 in New York.
    expect(rows[1]).toHaveTextContent(/Signed on Thu, Mar 5(, 2026)?(?!\d)/);
    expect(rows[1]).toHaveTextContent('Completed');
    const pending = within(rows[0]).getByRole('link', { name: 'Kiln safety waiver' });
    expect(pending).toHaveAttribute('href', 'https://sign.example/s/abc');
    expect(pending).toHaveAttribute('target', '_blank');
    expect(within(rows[1]).getByRole('link', { name: 'Studio safety waiver' })).toHaveAttribute(
      'href',
      'https://sign.example/signed/w1.pdf',
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/admin/student/s1']);
  });

  it('an expired waiver is Pending in the drawer', async () => {
    routes({ ...STUDENT, Submission: [{ ...STUDENT.Submission[0], status: 'expired' }] });
    await renderDrawer();
    fireEvent.click(screen.getByText('Waivers'));
    const [row] = within(await screen.findByRole('list', { name: 'Waivers' })).getAllByRole('listitem');
    expect(row).toHaveTextContent('Pending');
  });

  it("says 'No waivers' for a student without any", async () => {
    routes({ ...STUDENT, Submission: [] });
    await renderDrawer();
    fireEvent.click(screen.getByText('Waivers'));
    expect(await screen.findByText('No waivers')).toBeInTheDocument();
  });

  it("'Send reminder' calls the remind API and toasts 'Reminder sent'", async () => {
    const calls = routes(STUDENT, {
      'GET /api/admin/submission/remind/w2': okBody<'/api/admin/submission/remind/{submission_id}', 'get'>({
        submission_id: 'w2',
        status: 'pending',
        last_reminded_at: '2026-03-08T15:00:00Z',
        message: 'Reminder sent',
      }),
    });
    await renderDrawer();
    fireEvent.click(screen.getByText('Waivers'));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Kiln safety waiver' }));
    expect(await screen.findByText('View submission url')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Send reminder'));
    expect(await screen.findByText('Reminder sent')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain('GET /api/admin/submission/remind/w2');
  });

  it("a refused reminder toasts the API's message", async () => {
    routes(STUDENT, {
      'GET /api/admin/submission/remind/w2': errorBody(
        429,
        'A reminder was sent less than an hour ago. Try again later.',
      ),
    });
    await renderDrawer();
    fireEvent.click(screen.getByText('Waivers'));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Kiln safety waiver' }));
    fireEvent.click(await screen.findByText('Send reminder'));
    expect(
      await screen.findByText('A reminder was sent less than an hour ago. Try again later.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Reminder sent')).not.toBeInTheDocument();
  });

  it("a completed waiver's menu says 'View signed waiver' and opens the signed document in a new tab", async () => {
    routes();
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    await renderDrawer();
    fireEvent.click(screen.getByText('Waivers'));
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Studio safety waiver' }));
    fireEvent.click(await screen.findByText('View signed waiver'));
    expect(open).toHaveBeenCalledWith('https://sign.example/signed/w1.pdf', '_blank', 'noopener,noreferrer');
  });

  it('shows the points balance from the first ledger entry in en-US format, with the latest entries under it', async () => {
    routes();
    await renderDrawer();
    expect(screen.getByLabelText('Points balance')).toHaveTextContent('1,250');
    const history = within(screen.getByRole('list', { name: 'Points history' })).getAllByRole('listitem');
    expect(history[0]).toHaveTextContent(/^\+250 · Adjusted by an admin by Olive Owner · Fri, Mar 6(, 2026)?$/);
    expect(history[1]).toHaveTextContent(/^\+1,000 · Earned on an order · Thu, Mar 5(, 2026)?$/);
  });

  it('shows 0 points for a student with an empty ledger', async () => {
    routes({ ...STUDENT, LoyaltyBalance: [] });
    await renderDrawer();
    expect(screen.getByLabelText('Points balance')).toHaveTextContent('0');
  });

  const openPoints = async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Student actions' }));
    fireEvent.click(await screen.findByText('Edit points'));
  };

  it("Edit points says 'Loyalty program is not active' when the programme is disabled, and opens no dialog", async () => {
    routes({
      ...STUDENT,
      Organization: { timezone: 'America/New_York', LoyaltyProgram: [{ status: 'disabled' }] },
    });
    await renderDrawer();
    await openPoints();
    expect(await screen.findByText('Loyalty program is not active')).toBeInTheDocument();
    expect(screen.queryByText('Adjust loyalty points')).not.toBeInTheDocument();
  });

  it('the dialog takes only digits with at most 2 decimals and sends the integer parsed from the text', async () => {
    let stored = STUDENT;
    let release: () => void = () => undefined;
    const calls = routes(STUDENT, {
      'GET /api/admin/student/s1': () => answerStudent(stored),
      'POST /api/admin/student/s1/loyalty-balance/set': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        const entry = { ...STUDENT.LoyaltyBalance[0], entry_id: 'l3', balance: 12, points: -1238 };
        stored = { ...STUDENT, LoyaltyBalance: [entry, ...STUDENT.LoyaltyBalance] };
        return okBody<'/api/admin/student/{student_id}/loyalty-balance/set', 'post'>({
          LoyaltyBalance: stored.LoyaltyBalance,
        });
      },
    });
    await renderDrawer();
    await openPoints();
    const dialog = await screen.findByRole('dialog', { name: 'Adjust loyalty points' });
    const field = within(dialog).getByLabelText('New points balance');
    expect(field).toHaveValue('1250');
    expect(within(dialog).getByText('Points')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '12.755' } });
    expect(field).toHaveValue('1250');
    fireEvent.change(field, { target: { value: '12a' } });
    expect(field).toHaveValue('1250');
    fireEvent.change(field, { target: { value: '' } });
    expect(within(dialog).getByRole('button', { name: 'Refund' })).toBeDisabled();
    fireEvent.change(field, { target: { value: '12.75' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByRole('button', { name: /Loading\.\.\./ })).toBeInTheDocument();
    release();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Adjust loyalty points' })).not.toBeInTheDocument(),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ amount: 12 });
    await waitFor(() => expect(screen.getByLabelText('Points balance')).toHaveTextContent('12'));
  });

  it("a failed save toasts 'Failed to refund order:' (sic), logs it, and keeps the dialog open", async () => {
    routes(STUDENT, {
      'POST /api/admin/student/s1/loyalty-balance/set': errorBody(409, 'Loyalty program is not active'),
    });
    await renderDrawer();
    await openPoints();
    const dialog = await screen.findByRole('dialog', { name: 'Adjust loyalty points' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Failed to refund order:')).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('Failed to refund order:', expect.anything());
    expect(screen.getByRole('dialog', { name: 'Adjust loyalty points' })).toBeInTheDocument();
  });

  it("lists the student's orders, open by default: number, date in the organization's zone, description and total", async () => {
    routes();
    await renderDrawer();
    const rows = within(screen.getByRole('list', { name: 'Orders' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    // 23:30 UTC is 6:30 PM in New York (the default zone).
    expect(rows[0]).toHaveTextContent('#1043');
    expect(rows[0]).toHaveTextContent('Mar 5, 6:30 PM');
    expect(rows[0]).toHaveTextContent('Intro to Wheel Throwing');
    expect(rows[0]).toHaveTextContent('$60.00');
    expect(rows[1]).toHaveTextContent('Jan 2, 9:05 AM');
    expect(rows[1]).toHaveTextContent('$0.00');
  });

  it('a click on an order opens the order drawer with its order_id', async () => {
    routes();
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Order #1043' }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent('order {"order_id":"o2"}');
  });

  it("says 'No orders' for a student without any", async () => {
    routes({ ...STUDENT, new_orders: [] });
    await renderDrawer();
    expect(screen.getByText('No orders')).toBeInTheDocument();
  });

  it("says 'Not signed up' and hides the phone for a student without an account", async () => {
    routes({ ...STUDENT, user_id: null, phone: null });
    await renderDrawer();
    expect(screen.getByText('Not signed up')).toBeInTheDocument();
    expect(screen.queryByText('Phone')).not.toBeInTheDocument();
  });

  it('a failed load shows the error state, and Retry loads the student', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/student/s1': () =>
        fail ? errorBody(500, 'Something went wrong on our side') : answerStudent(),
    });
    renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />);
    expect(await screen.findByText('Could not load this student')).toBeInTheDocument();
    expect(screen.queryByText('No data')).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('a 401 signs the user out', async () => {
    mockFetch({ 'GET /api/admin/student/s1': errorBody(401, 'You must be signed in') });
    const signOut = jest.fn(async () => undefined);
    renderWithProviders(<StudentDrawer data={{ student_id: 's1' }} close={jest.fn()} />, undefined, {
      signOut,
    });
    await waitFor(() => expect(signOut).toHaveBeenCalled());
  });

  it('edits the name with PUT {first_name, last_name}', async () => {
    // The server keeps the new name: the drawer's reload after the save reads it back.
    let stored = STUDENT;
    const calls = mockFetch({
      'GET /api/admin/student/s1': () => answerStudent(stored),
      'PUT /api/admin/student/s1': (call) => {
        stored = { ...stored, ...(call.body as Pick<StudentDetail, 'first_name' | 'last_name'>) };
        return okBody<'/api/admin/student/{student_id}', 'put'>(stored);
      },
    });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      first_name: 'Augusta',
      last_name: 'Lovelace',
    });
    expect(await screen.findByRole('heading', { name: 'Augusta Lovelace' })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it("toasts 'Failed to update name' when the rename fails", async () => {
    routes(STUDENT, { 'PUT /api/admin/student/s1': errorBody(500, 'x') });
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update name')).toBeInTheDocument();
  });

  it("a name the API would refuse (empty) is not sent: 'Failed to update name', and the reason is logged", async () => {
    const calls = routes();
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Edit name' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update name')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Failed to update name', expect.any(String));
  });
});
