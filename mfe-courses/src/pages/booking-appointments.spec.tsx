import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { courseDetail, freezeToday, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { RemoteRegistryContext, useDrawer } from '@studio/ui';
import { APPOINTMENT_COURSE, appointment } from '../testing/appointment-fixtures';
import { BookingAppointments } from './booking-appointments';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
beforeEach(() => freezeToday('2026-11-22T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

const COURSE = courseDetail({
  activity_id: APPOINTMENT_COURSE,
  activity_type: 'appointment',
  booking_window_days: 30,
  duration_mins: 90,
  Location: { address: '1 Clay St', timezone: { timeZoneId: 'America/Chicago' } },
});

/**
 * The students remote is not there in a unit test: its dialogs stand in as markers that show the
 * data they were given and run onDone, as the real ones do after a change.
 */
const marker =
  (name: string) =>
  ({ data }: { data: { onDone?: () => void } & Record<string, unknown> }) => (
    <div role="note" aria-label={name}>
      {JSON.stringify({ ...data, onDone: undefined })}
      <button onClick={() => data.onDone?.()}>done {name}</button>
    </div>
  );
const registry = async () => ({
  add_student: marker('add_student'),
  move_appointment: marker('move_appointment'),
  remove_student: marker('remove_student'),
});

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

const LIST = `GET /api/admin/activities/${APPOINTMENT_COURSE}/appointments`;
const held = appointment({
  id: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
  student: {
    id: '44444444-4444-4444-8444-444444444444',
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'g@x.io',
  },
  status: 'held',
  guest_count: 0,
  starts_at: '2026-12-11T15:00:00Z',
  ends_at: '2026-12-11T16:30:00Z',
  hold_expires_at: '2026-11-22T12:15:00Z',
  order: null,
});

function renderCard() {
  const calls = mockFetch({
    [LIST]: okBody<'/api/admin/activities/{activity_id}/appointments', 'get'>({
      appointments: [appointment(), held],
    }),
  });
  renderWithProviders(
    <RemoteRegistryContext.Provider value={registry}>
      <OpenDrawer />
      <BookingAppointments course={COURSE} />
    </RemoteRegistryContext.Provider>,
  );
  return calls;
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

describe('The Booking card of an appointment course', () => {
  it('keeps its settings and lists the upcoming appointments: time, student, guests, status and order', async () => {
    renderCard();
    const booking = screen.getByRole('region', { name: 'Booking' });
    expect(within(booking).getByText('1 h 30 min')).toBeInTheDocument();
    const ada = await rowOf('Ada Lovelace');
    // The appointment's location zone, named because it is not the admin's browser's (UTC here).
    expect(within(ada).getByText('Thu, Dec 10 10:00 AM EST')).toBeInTheDocument();
    expect(within(ada).getByText('1')).toBeInTheDocument();
    expect(within(ada).getByText('Booked')).toBeInTheDocument();
    expect(within(ada).getByRole('button', { name: '#12' })).toBeInTheDocument();
    const grace = await rowOf('Grace Hopper');
    expect(within(grace).getByText('Held')).toBeInTheDocument();
    expect(within(grace).getByText('until Sun, Nov 22 7:15 AM EST')).toBeInTheDocument();
    expect(within(grace).getByText('None')).toBeInTheDocument();
    fireEvent.click(within(ada).getByRole('button', { name: '#12' }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent(
      'order {"order_id":"cccccccc-cccc-4ccc-8ccc-cccccccccccc"}',
    );
  });

  it('Add student opens the students dialog for this course, and the list reads again after it', async () => {
    const calls = renderCard();
    await rowOf('Ada Lovelace');
    const add = screen.getByRole('button', { name: 'Add student' });
    await waitFor(() => expect(add).toBeEnabled());
    fireEvent.click(add);
    const dialog = await screen.findByRole('note', { name: 'add_student' });
    expect(JSON.parse(dialog.firstChild!.textContent!)).toEqual({
      appointment: { activity_id: APPOINTMENT_COURSE, zone: 'America/Chicago', window_days: 30 },
    });
    const before = calls.filter((c) => c.url.startsWith(LIST.slice(4))).length;
    fireEvent.click(screen.getByRole('button', { name: 'done add_student' }));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith(LIST.slice(4))).length).toBe(before + 1));
    expect(screen.queryByRole('note', { name: 'add_student' })).toBeNull();
  });

  it("Move and Remove student open the students dialogs with the row's appointment", async () => {
    renderCard();
    const ada = await rowOf('Ada Lovelace');
    await waitFor(() => expect(within(ada).getByRole('button', { name: 'Move Ada Lovelace' })).toBeEnabled());
    fireEvent.click(within(ada).getByRole('button', { name: 'Move Ada Lovelace' }));
    expect(
      JSON.parse((await screen.findByRole('note', { name: 'move_appointment' })).firstChild!.textContent!),
    ).toEqual({
      appointment: {
        id: appointment().id,
        activity_id: APPOINTMENT_COURSE,
        starts_at: '2026-12-10T15:00:00Z',
        time_zone: 'America/New_York',
        student_name: 'Ada Lovelace',
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'done move_appointment' }));
    const grace = await rowOf('Grace Hopper');
    fireEvent.click(within(grace).getByRole('button', { name: 'Remove Grace Hopper' }));
    expect(
      JSON.parse((await screen.findByRole('note', { name: 'remove_student' })).firstChild!.textContent!),
    ).toEqual({
      appointment: { id: held.id },
      student_name: 'Grace Hopper',
    });
  });

  it('checks a booked appointment in with one click and undoes it; a held one has no check-in; after the time a no-show shows', async () => {
    const ada = appointment();
    let answer = ada;
    const calls = mockFetch({
      [LIST]: () =>
        okBody<'/api/admin/activities/{activity_id}/appointments', 'get'>({ appointments: [answer, held] }),
      [`PUT /api/admin/appointments/${ada.id}/check-in`]: () => {
        answer = { ...ada, checked_in_at: '2026-11-22T12:00:00Z', attendance: 'checked_in' };
        return okBody<'/api/admin/appointments/{appointment_id}/check-in', 'put'>({
          appointment_id: ada.id,
          checked_in_at: '2026-11-22T12:00:00Z',
          attendance: 'checked_in',
        });
      },
      [`DELETE /api/admin/appointments/${ada.id}/check-in`]: () => {
        answer = { ...ada, attendance: 'no_show' };
        return okBody<'/api/admin/appointments/{appointment_id}/check-in', 'delete'>({
          appointment_id: ada.id,
          checked_in_at: null,
          attendance: 'no_show',
        });
      },
    });
    renderWithProviders(
      <RemoteRegistryContext.Provider value={registry}>
        <BookingAppointments course={COURSE} />
      </RemoteRegistryContext.Provider>,
    );
    const grace = await rowOf('Grace Hopper');
    expect(within(grace).queryByRole('button', { name: /Check in/ })).toBeNull();

    fireEvent.click(within(await rowOf('Ada Lovelace')).getByRole('button', { name: 'Check in Ada Lovelace' }));
    expect(await screen.findByText('Checked in', { selector: '.ant-message *' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT' && c.url.endsWith(`/appointments/${ada.id}/check-in`))).toBe(true);
    const checked = await screen.findByRole('button', { name: 'Undo check-in of Ada Lovelace' });
    expect(within(checked.closest('tr')!).getByText('Checked in', { selector: '.ant-tag' })).toBeInTheDocument();

    fireEvent.click(checked);
    expect(await screen.findByText('Check-in undone')).toBeInTheDocument();
    const row = (await screen.findByRole('button', { name: 'Check in Ada Lovelace' })).closest('tr')!;
    expect(within(row).getByText('No-show')).toBeInTheDocument();
  });
});
