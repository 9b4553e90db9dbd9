import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { freezeToday, mockFetch, okBody, renderWithProviders, type RecordedCall } from '@studio/ui/testing';
import { RemoteRegistryContext, useDrawer } from '@studio/ui';
import { appointment, calendarItem } from '../testing/appointment-fixtures';
import { CalendarPage } from './calendar.page';

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
// Wednesday, Nov 25 2026, 7:00 AM in New York (the organization's zone); the tests' browser runs in UTC.
beforeEach(() => freezeToday('2026-11-25T12:00:00Z'));
afterEach(() => jest.useRealTimers());
afterEach(() => jest.restoreAllMocks());

const marker =
  (name: string) =>
  ({ data }: { data: { onDone?: () => void } & Record<string, unknown> }) => (
    <div role="note" aria-label={name}>
      {JSON.stringify({ ...data, onDone: undefined })}
      <button onClick={() => data.onDone?.()}>done {name}</button>
    </div>
  );
const registry = async () => ({
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

const APPT = appointment({ starts_at: '2026-11-26T15:00:00Z', ends_at: '2026-11-26T16:30:00Z' });
const ITEMS = [
  calendarItem(),
  calendarItem({
    kind: 'appointment',
    id: APPT.id,
    activity_id: APPT.activity_id,
    course_name: 'Private wheel lesson',
    title: 'Ada Lovelace',
    starts_at: APPT.starts_at,
    ends_at: APPT.ends_at,
    status: 'booked',
    seats_taken: null,
    capacity: null,
  }),
];

function renderPage() {
  const calls = mockFetch({
    'GET /api/admin/calendar': okBody<'/api/admin/calendar', 'get'>({
      time_zone: 'America/New_York',
      items: ITEMS,
    }),
    [`GET /api/admin/appointments/${APPT.id}`]: okBody<'/api/admin/appointments/{appointment_id}', 'get'>(
      APPT,
    ),
    'GET /api/admin/instructor': okBody<'/api/admin/instructor', 'get'>({
      instructors: [
        { instructor_id: ITEMS[0]!.instructor_id!, first_name: 'Ines', last_name: 'Potter', photo_url: null },
      ],
    }),
    'GET /api/admin/location': okBody<'/api/admin/location', 'get'>({
      locations: [
        {
          location_id: ITEMS[0]!.location_id,
          name: 'Main studio',
          address: '1 Clay St',
          timezone: 'America/New_York',
          online: false,
        },
      ],
    }),
  });
  renderWithProviders(
    <RemoteRegistryContext.Provider value={registry}>
      <OpenDrawer />
      <CalendarPage />
    </RemoteRegistryContext.Provider>,
  );
  return calls;
}

const calendarCalls = (calls: RecordedCall[]) =>
  calls
    .filter((c) => c.url.startsWith('/api/admin/calendar'))
    .map((c) => Object.fromEntries(new URL(c.url, 'http://x').searchParams));

/** The appointment panel (jsdom gives antd's every id one value, so its dialog's name cannot be read). */
const findPanel = async () =>
  (await screen.findByText('Appointment', { selector: '.ant-drawer-title' })).closest<HTMLElement>(
    '[role="dialog"]',
  )!;

describe('Calendar page', () => {
  it("shows the week's sessions and appointments in their days, told apart and in the organization's zone", async () => {
    const calls = renderPage();
    const wednesday = await screen.findByRole('region', { name: 'Wed, Nov 25' });
    expect(calendarCalls(calls)[0]).toEqual({
      from: '2026-11-23T05:00:00.000Z',
      to: '2026-11-30T05:00:00.000Z',
    });
    expect(screen.getByText('Mon, Nov 23 – Sun, Nov 29')).toBeInTheDocument();
    expect(
      screen.getByText("Times in the organization's time zone, America/New York (EST)."),
    ).toBeInTheDocument();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    ).toEqual(['Session', 'Appointment']);
    // The session of Tue 6:00 PM New York; the appointment of Thu 10:00 AM.
    const tuesday = screen.getByRole('region', { name: 'Tue, Nov 24' });
    expect(
      within(tuesday).getByRole('button', {
        name: 'Session: Wheel throwing, Wheel throwing, 6:00 PM – 8:00 PM',
      }),
    ).toHaveTextContent('3/8 seats');
    const thursday = screen.getByRole('region', { name: 'Thu, Nov 26' });
    expect(
      within(thursday).getByRole('button', {
        name: 'Appointment: Ada Lovelace, Private wheel lesson, 10:00 AM – 11:30 AM',
      }),
    ).toBeInTheDocument();
    expect(within(wednesday).getByText('Nothing')).toBeInTheDocument();
  });

  it('moves by week or day, back to today, and filters by instructor and location', async () => {
    const calls = renderPage();
    await screen.findByRole('region', { name: 'Wed, Nov 25' });
    fireEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await waitFor(() => expect(calendarCalls(calls).at(-1)?.from).toBe('2026-11-30T05:00:00.000Z'));
    fireEvent.click(screen.getByRole('button', { name: 'Today' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Day' }));
    await waitFor(() =>
      expect(calendarCalls(calls).at(-1)).toEqual({
        from: '2026-11-25T05:00:00.000Z',
        to: '2026-11-26T05:00:00.000Z',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Previous day' }));
    await waitFor(() => expect(calendarCalls(calls).at(-1)?.from).toBe('2026-11-24T05:00:00.000Z'));
    expect(await screen.findByRole('region', { name: 'Tue, Nov 24' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Wed, Nov 25' })).toBeNull();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Instructor' }));
    fireEvent.click(await screen.findByText('Ines Potter', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(calendarCalls(calls).at(-1)?.instructor_id).toBe(ITEMS[0]!.instructor_id));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Location' }));
    fireEvent.click(await screen.findByText('Main studio', { selector: '.ant-select-item-option-content' }));
    await waitFor(() =>
      expect(calendarCalls(calls).at(-1)).toMatchObject({
        instructor_id: ITEMS[0]!.instructor_id,
        location_id: ITEMS[0]!.location_id,
      }),
    );
  });

  it('a session opens the event drawer; an appointment opens its panel with the student and order, Move and Cancel', async () => {
    const calls = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /^Session: Wheel throwing/ }));
    expect(screen.getByRole('status', { name: 'open drawer' })).toHaveTextContent(
      `event {"eventId":"${ITEMS[0]!.id}","event_id":"${ITEMS[0]!.id}","activity_id":"${ITEMS[0]!.activity_id}"}`,
    );
    fireEvent.click(screen.getByRole('button', { name: /^Appointment: Ada Lovelace/ }));
    const panel = await findPanel();
    expect(await within(panel).findByText('Ada Lovelace (ada@example.com)')).toBeInTheDocument();
    expect(within(panel).getByText('#12 · paid · $45.00')).toBeInTheDocument();
    expect(within(panel).getByText('Thu, Nov 26 10:00 AM EST – 11:30 AM EST')).toBeInTheDocument();

    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Move' })).toBeEnabled());
    fireEvent.click(within(panel).getByRole('button', { name: 'Move' }));
    expect(
      JSON.parse((await screen.findByRole('note', { name: 'move_appointment' })).firstChild!.textContent!),
    ).toEqual({
      appointment: {
        id: APPT.id,
        activity_id: APPT.activity_id,
        starts_at: APPT.starts_at,
        time_zone: 'America/New_York',
        student_name: 'Ada Lovelace',
      },
    });
    const before = calendarCalls(calls).length;
    fireEvent.click(screen.getByRole('button', { name: 'done move_appointment' }));
    // After the move the calendar reads again; the panel stays on the appointment.
    await waitFor(() => expect(calendarCalls(calls).length).toBe(before + 1));
    expect(await findPanel()).toBeInTheDocument();

    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel appointment' }));
    expect(
      JSON.parse((await screen.findByRole('note', { name: 'remove_student' })).firstChild!.textContent!),
    ).toEqual({
      appointment: { id: APPT.id },
      student_name: 'Ada Lovelace',
    });
    fireEvent.click(screen.getByRole('button', { name: 'done remove_student' }));
    await waitFor(() =>
      expect(screen.queryByText('Appointment', { selector: '.ant-drawer-title' })).toBeNull(),
    );
  });
});
