import { fireEvent, screen, waitFor } from '@testing-library/react';
import { errorBody, mockFetch, noContent, okBody, renderWithProviders, type OkBodyOf } from '@studio/ui/testing';
import { MANAGE_MESSAGES } from '@studio/contracts';
import { CancelBookingDialog } from './cancel-booking-dialog';
import { ModifyBookingDialog } from './modify-booking-dialog';
import { MoveStudentsDialog } from './move-students-dialog';
import { ACTIVITY_ID, EVENT_ID, ROW } from './event-fixtures';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

const TARGET = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const TERMS_PATH = `GET /api/admin/enrollment/${ROW.enrollment_id}/booking`;

type Terms = OkBodyOf<'/api/admin/enrollment/{enrollment_id}/booking', 'get'>;
const terms = (overrides: Partial<Terms> = {}): Terms => ({
  kind: 'enrollment',
  status: 'active',
  course_name: 'Wheel throwing',
  starts_at: '2026-04-14T23:30:00.000Z',
  timezone: 'America/Chicago',
  party_size: 1,
  paid_cents: 9000,
  refundable_cents: 9000,
  cancel: {
    policy: { id: 3, name: 'Firm', rule: 'Full refund up to 30 days before, 50% up to 5 days before, none after' },
    allowed: true,
    share: 0.5,
    refund_cents: 4500,
    figure: 'Firm: 50% refund ($45.00) — 12 days before start',
  },
  reschedule: {
    policy: { id: 5, name: 'Fixed', rule: 'Free until 5 days before' },
    allowed: true,
    figure: 'Fixed: free (Free until 5 days before) — 12 days before start',
  },
  move_targets: [{ event_id: TARGET, starts_at: '2026-04-21T23:30:00.000Z', ends_at: '2026-04-22T01:00:00.000Z', seats_left: 3 }],
  can_override: true,
  ...overrides,
});

describe('CancelBookingDialog', () => {
  it("shows the policy's figure; an owner may refund another amount, never more than is left", async () => {
    const onDone = jest.fn();
    const calls = mockFetch({
      [TERMS_PATH]: okBody<'/api/admin/enrollment/{enrollment_id}/booking', 'get'>(terms()),
      [`POST /api/admin/enrollment/${ROW.enrollment_id}/booking/cancel`]: noContent(),
    });
    renderWithProviders(<CancelBookingDialog booking={{ kind: 'enrollment', id: ROW.enrollment_id }} eventId={EVENT_ID} studentName="Ada Lovelace" onClose={jest.fn()} onDone={onDone} />);
    expect(await screen.findByText('Firm: 50% refund ($45.00) — 12 days before start')).toBeInTheDocument();
    const amount = screen.getByLabelText('Refund amount');
    expect(amount).toHaveValue('45.00');
    fireEvent.change(amount, { target: { value: '90.01' } });
    expect(screen.getByText(MANAGE_MESSAGES.refundTooLarge(9000))).toBeInTheDocument();
    const ok = () => screen.getByRole('button', { name: /Cancel booking/ });
    expect(ok()).toBeDisabled();
    fireEvent.change(amount, { target: { value: '80' } });
    fireEvent.click(ok());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ refund_amount: 8000 });
  });

  it('staff refund the policy’s figure only, and see a refusal in the server’s words', async () => {
    const onDone = jest.fn();
    const calls = mockFetch({
      [TERMS_PATH]: okBody<'/api/admin/enrollment/{enrollment_id}/booking', 'get'>(terms({ can_override: false })),
      [`POST /api/admin/enrollment/${ROW.enrollment_id}/booking/cancel`]: errorBody(409, 'The payment provider refused the refund', {
        refund: 'The payment provider refused the refund',
      }),
    });
    renderWithProviders(<CancelBookingDialog booking={{ kind: 'enrollment', id: ROW.enrollment_id }} eventId={EVENT_ID} studentName="Ada Lovelace" onClose={jest.fn()} onDone={onDone} />);
    expect(await screen.findByText('Refund: $45.00. Only an owner can refund another amount.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Refund amount')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Cancel booking/ }));
    expect(await screen.findByText('The payment provider refused the refund')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
    expect(onDone).not.toHaveBeenCalled();
  });
});

describe('CancelBookingDialog on an appointment', () => {
  it('reads and cancels the appointment by its own paths', async () => {
    const APPOINTMENT = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
    const onDone = jest.fn();
    const calls = mockFetch({
      [`GET /api/admin/appointments/${APPOINTMENT}/booking`]: okBody<'/api/admin/appointments/{appointment_id}/booking', 'get'>(
        terms({ kind: 'appointment', party_size: 2, move_targets: [], can_override: false }),
      ),
      [`POST /api/admin/appointments/${APPOINTMENT}/booking/cancel`]: noContent(),
    });
    renderWithProviders(
      <CancelBookingDialog booking={{ kind: 'appointment', id: APPOINTMENT }} eventId={null} studentName="Ada Lovelace" onClose={jest.fn()} onDone={onDone} />,
    );
    expect(await screen.findByText(/Ada Lovelace: Wheel throwing, .*2 people/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Cancel booking/ }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(`POST /api/admin/appointments/${APPOINTMENT}/booking/cancel`);
  });
});

describe('ModifyBookingDialog', () => {
  it('moves within the policy to a session with room', async () => {
    const onDone = jest.fn();
    const calls = mockFetch({
      [TERMS_PATH]: okBody<'/api/admin/enrollment/{enrollment_id}/booking', 'get'>(terms()),
      [`POST /api/admin/enrollment/${ROW.enrollment_id}/booking/reschedule`]: noContent(),
    });
    renderWithProviders(<ModifyBookingDialog eventId={EVENT_ID} enrollment={ROW} onClose={jest.fn()} onDone={onDone} />);
    expect(await screen.findByText(/Fixed: free/)).toBeInTheDocument();
    expect(await screen.findByText(/3 seats left/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Move booking' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ event_id: TARGET });
  });

  it('past the policy: an owner must tick Override; staff cannot move it', async () => {
    const late = { policy: { id: 5, name: 'Fixed', rule: 'Free until 5 days before' }, allowed: false, figure: 'Fixed: not free any more' };
    const calls = mockFetch({
      [TERMS_PATH]: okBody<'/api/admin/enrollment/{enrollment_id}/booking', 'get'>(terms({ reschedule: late })),
      [`POST /api/admin/enrollment/${ROW.enrollment_id}/booking/reschedule`]: noContent(),
    });
    const { unmount } = renderWithProviders(<ModifyBookingDialog eventId={EVENT_ID} enrollment={ROW} onClose={jest.fn()} onDone={jest.fn()} />);
    const override = await screen.findByRole('checkbox', { name: /Override the policy/ });
    expect(screen.getByRole('button', { name: 'Move booking' })).toBeDisabled();
    fireEvent.click(override);
    fireEvent.click(screen.getByRole('button', { name: 'Move booking' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ event_id: TARGET, override: true }));
    unmount();

    mockFetch({ [TERMS_PATH]: okBody<'/api/admin/enrollment/{enrollment_id}/booking', 'get'>(terms({ reschedule: late, can_override: false })) });
    renderWithProviders(<ModifyBookingDialog eventId={EVENT_ID} enrollment={ROW} onClose={jest.fn()} onDone={jest.fn()} />);
    expect(await screen.findByText(new RegExp(MANAGE_MESSAGES.ownerOnly))).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Move booking' })).toBeDisabled();
  });
});

describe('MoveStudentsDialog', () => {
  it('moves everyone to another session, and says when it does not fit (nobody moved)', async () => {
    const sessions = okBody<'/api/admin/activities/{activity_id}/sessions', 'get'>({
      sessions: [
        {
          event_id: TARGET,
          name: 'Wheel throwing',
          start: '2099-04-21T23:30:00.000Z',
          end: '2099-04-22T01:00:00.000Z',
          internal_short_description: null,
          capacity: 4,
          enrolled: 1,
          price: 4500,
          badge: 'Open',
          Location: { address: '1 Clay St', timezone: { timeZoneId: 'America/Chicago' } },
          schedule: [{ start_date: '2099-04-21', start_time: '18:30', duration: 90 }],
        },
      ],
    });
    let answer = errorBody(409, MANAGE_MESSAGES.moveAllNoRoom(5, 3), { to_event_id: MANAGE_MESSAGES.moveAllNoRoom(5, 3) });
    const calls = mockFetch({
      [`GET /api/admin/activities/${ACTIVITY_ID}/sessions`]: sessions,
      [`POST /api/admin/events/${EVENT_ID}/move-students`]: () => answer,
    });
    const onDone = jest.fn();
    renderWithProviders(
      <MoveStudentsDialog
        eventId={EVENT_ID}
        activityId={ACTIVITY_ID}
        timezone="America/Chicago"
        enrollmentIds={null}
        who="every student of this session"
        onClose={jest.fn()}
        onDone={onDone}
      />,
    );
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    fireEvent.click(await screen.findByText(/3 of 4 free/));
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    expect(await screen.findByText(MANAGE_MESSAGES.moveAllNoRoom(5, 3))).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ to_event_id: TARGET });

    answer = okBody<'/api/admin/events/{event_id}/move-students', 'post'>({ moved: 2, message: MANAGE_MESSAGES.movedDone(2) });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(await screen.findByText('2 students moved')).toBeInTheDocument();
  });
});
