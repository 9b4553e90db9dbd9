import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  courseDetail,
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
  type AppointmentOut,
} from '@studio/contracts';
import { MoveAppointmentDialog } from './move-appointment.dialog';
import { RemoveStudentDialog } from './remove-student.dialog';

const COURSE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const TEN = '2026-12-10T15:00:00Z';
const ELEVEN = '2026-12-10T16:00:00Z';
const NOON = '2026-12-10T17:00:00Z';

const slots = (starts: string[]) =>
  okBody<'/api/admin/activities/{activity_id}/slots', 'get'>({
    zone: 'America/New_York',
    display_zone: 'America/New_York',
    slots: starts.map((s) => ({ starts_at: s, ends_at: s })),
    days: [{ date: '2026-12-10', slots: starts }],
  });

const moved: AppointmentOut = {
  id: ID,
  activity_id: COURSE,
  course_name: 'Portrait session',
  instructor_id: '66666666-6666-4666-8666-666666666666',
  instructor_name: 'Ines Instructor',
  location_id: '77777777-7777-4777-8777-777777777777',
  location_name: 'Studio',
  time_zone: 'America/New_York',
  student: {
    id: '55555555-5555-4555-8555-555555555555',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'a@x.io',
  },
  guest_count: 0,
  status: 'booked',
  starts_at: ELEVEN,
  ends_at: NOON,
  hold_expires_at: null,
  order: null,
  meeting_url: null,
  checked_in_at: null,
  attendance: 'not_checked_in',
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
beforeEach(() => freezeToday('2026-11-22T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

const COURSE_PATH = `GET /api/admin/activities/${COURSE}`;
const COURSE_ANSWER = okBody<'/api/admin/activities/{activity_id}', 'get'>(
  courseDetail({ activity_id: COURSE, activity_type: 'appointment', cancel_policy_id: 3 }),
);

describe('Move appointment', () => {
  function renderMove(move: () => MockAnswer, slotsAnswer: () => MockAnswer = () => slots([TEN, ELEVEN])) {
    const calls = mockFetch({
      [COURSE_PATH]: COURSE_ANSWER,
      // The month of the appointment is asked for: its own time is not offered as a new one.
      [`GET /api/admin/activities/${COURSE}/slots`]: slotsAnswer,
      [`POST /api/admin/appointments/${ID}/move`]: move,
    });
    const onDone = jest.fn();
    const close = jest.fn();
    renderWithProviders(
      <MoveAppointmentDialog
        data={{
          appointment: {
            id: ID,
            activity_id: COURSE,
            starts_at: TEN,
            time_zone: 'America/New_York',
            student_name: 'Ada Lovelace',
          },
          onDone,
        }}
        close={close}
      />,
    );
    return { calls, onDone, close };
  }

  it('moves to another free time with the student mailed by default, or not when switched off', async () => {
    const { calls, onDone, close } = renderMove(() =>
      okBody<'/api/admin/appointments/{appointment_id}/move', 'post'>(moved),
    );
    expect(screen.getByText(/Ada Lovelace, now Thu, Dec 10 10:00 AM EST/)).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('radio', { name: '11:00 AM' }));
    expect(screen.queryByRole('radio', { name: '10:00 AM' })).toBeNull();
    // It opens on the appointment's day, so its month's times are the ones asked for.
    expect(screen.getByLabelText('Day')).toHaveValue('Thu, Dec 10, 2026');
    const asked = new URL(calls.find((c) => c.url.includes('/slots'))!.url, 'http://x');
    expect(asked.searchParams.get('from')).toBe('2026-12-01T05:00:00.000Z');
    const notify = screen.getByRole('switch', { name: 'Email the student the new time' });
    expect(notify).toBeChecked();
    fireEvent.click(notify);
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(APPOINTMENT_UI_MESSAGES.moved)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ starts_at: ELEVEN, notify: false });
    expect(onDone).toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
  });

  it("says 'Pick a time.' without a time; a time taken meanwhile shows the API's message and the times reload", async () => {
    let taken = false;
    const { calls, close } = renderMove(
      () => {
        taken = true;
        return errorBody(409, APPOINTMENT_MESSAGES.taken);
      },
      () => slots(taken ? [NOON] : [ELEVEN, NOON]),
    );
    await screen.findByRole('radio', { name: '11:00 AM' });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(APPOINTMENT_UI_MESSAGES.pickTime)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('radio', { name: '11:00 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(APPOINTMENT_MESSAGES.taken)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('radio', { name: '11:00 AM' })).toBeNull());
    expect(screen.getByRole('radio', { name: '12:00 PM' })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ starts_at: ELEVEN, notify: true });
    expect(close).not.toHaveBeenCalled();
  });
});

type Quote = OkBodyOf<'/api/admin/appointments/{appointment_id}/refund-quote', 'get'>;
/** Paid $45.00 through a payment link, nothing refunded; the Firm policy refunds half 18 days before. */
const QUOTE: Quote = {
  order: {
    order_id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
    order_number: 12,
    status: 'paid',
    total: 4500,
    refunded_amount: 0,
  },
  refundable: 4500,
  suggested_amount: 2250,
  share: 0.5,
  policy: {
    id: 3,
    name: 'Firm',
    rule: 'Full refund up to 30 days before, 50% up to 5 days before, none after',
  },
  starts_at: TEN,
  has_payment_method: true,
  refusal: null,
  credit_refusal: null,
  wallet_paid_cents: 0,
  outcomes: { card: '$22.50 back to the card.', store_credit: '$22.50 as store credit.' },
  use: null,
};
const NO_ORDER: Quote = { ...QUOTE, order: null, refundable: 0, suggested_amount: 0, share: 0 };

describe('Remove student on an appointment', () => {
  function renderRemove(quote: Quote, remove: () => MockAnswer = noContent) {
    const calls = mockFetch({
      [`GET /api/admin/appointments/${ID}/refund-quote`]: okBody<
        '/api/admin/appointments/{appointment_id}/refund-quote',
        'get'
      >(quote),
      [`DELETE /api/admin/appointments/${ID}`]: remove,
    });
    const onDone = jest.fn();
    renderWithProviders(
      <RemoveStudentDialog
        data={{
          appointment: { id: ID },
          student_name: 'Ada Lovelace',
          onDone,
        }}
        close={jest.fn()}
      />,
    );
    return { calls, onDone };
  }

  it("offers the refund the server's quote suggests (the course's Firm policy 18 days before), and cancels with it", async () => {
    const { calls, onDone } = renderRemove(QUOTE);
    expect(screen.getByText(/Remove Ada Lovelace from this appointment\?/)).toBeInTheDocument();
    expect(
      await screen.findByRole('checkbox', {
        name: /Refund order #12 \(paid \$45\.00, \$45\.00 refundable\)/,
      }),
    ).toBeChecked();
    expect(screen.getByText(/Suggested now: \$22\.50/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Refund amount' })).toHaveValue('22.50');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Refund reason' }));
    const options = await screen.findAllByText('Schedule conflict');
    fireEvent.click(options[options.length - 1]!);
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.studentRemoved)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({
      refund: { amount: 2250, reason: 'Schedule conflict' },
    });
    expect(onDone).toHaveBeenCalled();
  });

  it('cancels an appointment with no order without a refund; a failure keeps the dialog open', async () => {
    let status = 500;
    const { calls, onDone } = renderRemove(NO_ORDER, () =>
      status === 500 ? errorBody(500, 'Internal server error') : noContent(),
    );
    expect(await screen.findByText('No order to refund for this student.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.removeFailed)).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
    status = 204;
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.studentRemoved)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.body)).toEqual([{}, {}]);
  });
});
