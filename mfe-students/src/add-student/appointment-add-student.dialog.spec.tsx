import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  errorBody,
  freezeToday,
  mockFetch,
  noContent,
  okBody,
  renderWithProviders,
  type MockAnswer,
  type OkBodyOf,
} from '@studio/ui/testing';
import {
  APPOINTMENT_MESSAGES,
  APPOINTMENT_UI_MESSAGES,
  SCHEDULING_MESSAGES,
  STUDENT_SEARCH_LIMIT,
  type AppointmentOut,
} from '@studio/contracts';
import { AddStudentDialog } from './add-student.dialog';

const COURSE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const APPOINTMENT = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const ADA: OkBodyOf<'/api/admin/student', 'get'>['students'][number] = {
  student_id: '55555555-5555-4555-8555-555555555555',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  user_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const STUDENTS = okBody<'/api/admin/student', 'get'>({
  students: [ADA],
  totalCount: 1,
  currentPage: 1,
  itemsPerPage: STUDENT_SEARCH_LIMIT,
  next_cursor: null,
});

// Tue Nov 24 in New York: 10:00 AM and 11:00 AM free; Wed Nov 25: 9:00 AM.
const TEN = '2026-11-24T15:00:00Z';
const ELEVEN = '2026-11-24T16:00:00Z';
const slots = (tuesday: string[]) =>
  okBody<'/api/admin/activities/{activity_id}/slots', 'get'>({
    zone: 'America/New_York',
    display_zone: 'America/New_York',
    slots: [...tuesday, '2026-11-25T14:00:00Z'].map((s) => ({ starts_at: s, ends_at: s })),
    days: [
      ...(tuesday.length ? [{ date: '2026-11-24', slots: tuesday }] : []),
      { date: '2026-11-25', slots: ['2026-11-25T14:00:00Z'] },
    ],
  });

const held: AppointmentOut = {
  id: APPOINTMENT,
  activity_id: COURSE,
  course_name: 'Portrait session',
  instructor_id: '66666666-6666-4666-8666-666666666666',
  instructor_name: 'Ines Instructor',
  location_id: '77777777-7777-4777-8777-777777777777',
  location_name: 'Studio',
  time_zone: 'America/New_York',
  student: { id: ADA.student_id, first_name: 'Ada', last_name: 'Lovelace', email: ADA.email },
  guest_count: 2,
  status: 'held',
  starts_at: TEN,
  ends_at: ELEVEN,
  hold_expires_at: '2026-11-22T12:15:00Z',
  order: null,
  meeting_url: null,
  checked_in_at: null,
  attendance: 'not_checked_in',
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
beforeEach(() => freezeToday('2026-11-22T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

const SLOTS_PATH = `GET /api/admin/activities/${COURSE}/slots`;
const HOLD_PATH = `POST /api/admin/activities/${COURSE}/appointments`;

function renderDialog(routes: Record<string, MockAnswer | (() => MockAnswer)>) {
  const calls = mockFetch({
    'GET /api/admin/student': STUDENTS,
    [SLOTS_PATH]: slots([TEN, ELEVEN]),
    ...routes,
  });
  const onDone = jest.fn();
  const close = jest.fn();
  renderWithProviders(
    <AddStudentDialog
      data={{ appointment: { activity_id: COURSE, zone: 'America/New_York', window_days: 60 }, onDone }}
      close={close}
    />,
  );
  return { calls, onDone, close };
}

async function pickAda() {
  const picker = screen.getByRole('combobox', { name: 'Student' });
  fireEvent.mouseDown(picker);
  fireEvent.change(picker, { target: { value: 'ada' } });
  fireEvent.click(await screen.findByText('Ada Lovelace (ada@example.com)'));
}

describe('Add student on an appointment course', () => {
  it("offers the first free day's times in the location's zone and asks the month's slots", async () => {
    const { calls } = renderDialog({});
    expect(await screen.findByRole('radio', { name: '10:00 AM' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '11:00 AM' })).toBeInTheDocument();
    // The first day with a free time is picked: Tuesday, Nov 24 (the time zone is named).
    // (the picker's input takes its text in an effect after the times render)
    await waitFor(() => expect(screen.getByLabelText('Day')).toHaveValue('Tue, Nov 24, 2026'));
    expect(screen.getByText('Times in America/New_York (EST).')).toBeInTheDocument();
    // From now to the first midnight of December in New York.
    const asked = new URL(calls.find((c) => c.url.includes('/slots'))!.url, 'http://x');
    expect(asked.searchParams.get('from')).toBe('2026-11-22T12:00:00.000Z');
    expect(asked.searchParams.get('to')).toBe('2026-12-01T05:00:00.000Z');

    // Another day: its own times; a day with none left, or past the booking window, cannot be picked.
    fireEvent.mouseDown(screen.getByLabelText('Day'));
    fireEvent.click(screen.getByLabelText('Day'));
    const cell = (date: string) => document.querySelector(`td[title="${date}"]`)!;
    await waitFor(() => expect(cell('2026-11-25')).not.toBeNull());
    expect(cell('2026-11-26')).toHaveClass('ant-picker-cell-disabled');
    expect(cell('2026-11-21')).toHaveClass('ant-picker-cell-disabled');
    fireEvent.click(cell('2026-11-25').querySelector('div')!);
    expect(await screen.findByRole('radio', { name: '9:00 AM' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: '10:00 AM' })).toBeNull();
  });

  it("says 'Please select a student.' and 'Pick a time.' when neither is chosen, and calls nothing", async () => {
    const { calls } = renderDialog({});
    await screen.findByRole('radio', { name: '10:00 AM' });
    fireEvent.click(screen.getByRole('button', { name: 'Enroll directly' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.selectStudent)).toBeInTheDocument();
    expect(screen.getByText(APPOINTMENT_UI_MESSAGES.pickTime)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('holds the time with the guests, then sends the payment link for the held appointment', async () => {
    const { calls, onDone, close } = renderDialog({
      [HOLD_PATH]: okBody<'/api/admin/activities/{activity_id}/appointments', 'post'>(held),
      [`POST /api/admin/orders/invoice/${ADA.student_id}`]: okBody<
        '/api/admin/orders/invoice/{student_id}',
        'post'
      >({
        order_id: 'o1',
        order_number: 12,
        url: 'http://localhost/api/pay/demo/x',
        expires_at: '2026-11-29T12:00:00Z',
      }),
    });
    await pickAda();
    fireEvent.click(await screen.findByRole('radio', { name: '10:00 AM' }));
    fireEvent.change(screen.getByLabelText('Guests'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send payment link' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.paymentLinkSent)).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.url, c.body])).toEqual([
      [
        `/api/admin/activities/${COURSE}/appointments`,
        { student_id: ADA.student_id, starts_at: TEN, guest_count: 2 },
      ],
      [`/api/admin/orders/invoice/${ADA.student_id}`, { appointment_id: APPOINTMENT }],
    ]);
    expect(onDone).toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
  });

  it("shows the API's refusal of a time taken meanwhile and reloads the times without it", async () => {
    let taken = false;
    const { calls, close } = renderDialog({
      [SLOTS_PATH]: () => slots(taken ? [ELEVEN] : [TEN, ELEVEN]),
      [HOLD_PATH]: () => {
        taken = true;
        return errorBody(409, APPOINTMENT_MESSAGES.taken);
      },
    });
    await pickAda();
    fireEvent.click(await screen.findByRole('radio', { name: '10:00 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Enroll directly' }));
    expect(await screen.findByText(APPOINTMENT_MESSAGES.taken)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('radio', { name: '10:00 AM' })).toBeNull());
    expect(screen.getByRole('radio', { name: '11:00 AM' })).not.toBeChecked();
    expect(calls.filter((c) => c.url.includes('/slots')).length).toBeGreaterThanOrEqual(2);
    expect(calls.some((c) => c.url.includes('/orders/enroll'))).toBe(false);
    expect(close).not.toHaveBeenCalled();
  });

  it('releases the held time when enrolling is refused, and shows why', async () => {
    const { calls, close } = renderDialog({
      [HOLD_PATH]: okBody<'/api/admin/activities/{activity_id}/appointments', 'post'>(held),
      [`POST /api/admin/orders/enroll/${ADA.student_id}`]: errorBody(
        409,
        APPOINTMENT_MESSAGES.alreadyOrdered,
      ),
      [`DELETE /api/admin/appointments/${APPOINTMENT}`]: noContent(),
    });
    await pickAda();
    fireEvent.click(await screen.findByRole('radio', { name: '11:00 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Enroll directly' }));
    expect(await screen.findByText(APPOINTMENT_MESSAGES.alreadyOrdered)).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
        url: `/api/admin/appointments/${APPOINTMENT}`,
        body: { notify: false },
      }),
    );
    expect(close).not.toHaveBeenCalled();
  });

  it("offers 'Book on …' for the party (a membership its member alone, a pack a credit per person) and enrolls the held time on the one chosen", async () => {
    const PACK = '99999999-9999-4999-8999-999999999999';
    const MEMBERSHIP = '88888888-8888-4888-8888-888888888888';
    const { calls, close } = renderDialog({
      [`GET /api/admin/student/${ADA.student_id}/wallet/covering`]: okBody<'/api/admin/student/{student_id}/wallet/covering', 'get'>({
        holdings: [
          { holding_id: MEMBERSHIP, kind: 'membership', label: 'Four a month', unit: 'bookings', balance: 4, unlimited: false, expires_at: null },
          { holding_id: PACK, kind: 'pack', label: '2-class pack', unit: 'credits', balance: 2, unlimited: false, expires_at: null },
        ],
      }),
      [HOLD_PATH]: okBody<'/api/admin/activities/{activity_id}/appointments', 'post'>(held),
      [`POST /api/admin/orders/enroll/${ADA.student_id}`]: okBody<'/api/admin/orders/enroll/{student_id}', 'post'>({
        enrollment_id: null,
        appointment_id: APPOINTMENT,
        order_id: 'o1',
        order_number: 12,
        total: 0,
        source: 'workbench',
      }),
    });
    await pickAda();
    fireEvent.click(await screen.findByRole('radio', { name: '10:00 AM' }));
    expect(await screen.findByRole('button', { name: 'Book on 2-class pack (2 credits left)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book on Four a month (4 bookings left)' })).toBeInTheDocument();
    // A party of 3: the pack's 2 credits are not enough, and a membership books its member only.
    fireEvent.change(screen.getByLabelText('Guests'), { target: { value: '2' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: /2-class pack/ })).toBeNull());
    expect(screen.queryByRole('button', { name: /Four a month/ })).toBeNull();
    // A party of 2: the pack's 2 credits book it.
    fireEvent.change(screen.getByLabelText('Guests'), { target: { value: '1' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Book on 2-class pack (2 credits left)' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.studentAdded)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([
      [`/api/admin/activities/${COURSE}/appointments`, { student_id: ADA.student_id, starts_at: TEN, guest_count: 1 }],
      [`/api/admin/orders/enroll/${ADA.student_id}`, { appointment_id: APPOINTMENT, holding_id: PACK }],
    ]);
    expect(close).toHaveBeenCalled();
  });
});
