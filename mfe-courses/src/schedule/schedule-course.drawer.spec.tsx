import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  courseDetail,
  errorBody,
  mockFetch,
  okBody,
  renderWithProviders,
  type MockAnswer,
} from '@studio/ui/testing';
import { COURSE_MESSAGES, SCHEDULING_MESSAGES } from '@studio/contracts';
import { DATE_INPUT_FORMAT, WALL_DATE_FORMAT, dayjs } from '@studio/ui';
import { ScheduleCourseDrawer } from './schedule-course.drawer';
import { courseToScheduleDefaults, firstDateIn, nextDayRow } from './schedule-form-values';
import type { ScheduleCourse } from './schedule.api';

/** A "YYYY-MM-DD" value as the date field shows it ("Tue, Nov 24, 2026"), the product's one date format. */
const shown = (date: string) => dayjs(date, WALL_DATE_FORMAT).format(DATE_INPUT_FORMAT[0]);

// A whole antd form in jsdom on two busy cores.
jest.setTimeout(180000);

const ACTIVITY = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const LOCATION = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const INSTRUCTOR = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

/** The whole course as GET /api/admin/activities/{activity_id} answers it. */
const COURSE: ScheduleCourse = courseDetail({
  activity_id: ACTIVITY,
  name: 'Wheel throwing',
  capacity: 8,
  prices: [{ unit_price: 4500 }],
  location_id: LOCATION,
  instructor_id: INSTRUCTOR,
  Location: { address: '1 Clay St', timezone: { timeZoneId: 'America/Chicago' } },
  default_days: 3,
  default_days_apart: 2,
  default_daily_mins: 90,
  default_start_time: '18:30',
});

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function routes(
  post: MockAnswer = okBody<'/api/admin/events', 'post'>({ event_id: 'e1' }),
  course: ScheduleCourse = COURSE,
) {
  return mockFetch({
    [`GET /api/admin/activities/${ACTIVITY}`]: okBody<'/api/admin/activities/{activity_id}', 'get'>(course),
    'GET /api/admin/location': okBody<'/api/admin/location', 'get'>({
      locations: [
        {
          location_id: LOCATION,
          name: 'Studio',
          address: '1 Clay St',
          timezone: 'America/Chicago',
          online: false,
        },
      ],
    }),
    'GET /api/admin/instructor': okBody<'/api/admin/instructor', 'get'>({
      instructors: [{ instructor_id: INSTRUCTOR, first_name: 'Ida', last_name: 'Kiln', photo_url: null }],
    }),
    'POST /api/admin/events': post,
  });
}

async function renderDrawer(close = jest.fn()) {
  renderWithProviders(<ScheduleCourseDrawer data={{ activity_id: ACTIVITY }} close={close} />);
  await screen.findByRole('heading', { name: 'Schedule Wheel throwing' });
  return close;
}

describe('schedule defaults', () => {
  it('takes days, days apart, start time and duration from the course, first day tomorrow in its zone', () => {
    const now = new Date('2026-03-07T12:00:00Z');
    const { values, daysApart, coursePriceText } = courseToScheduleDefaults(COURSE, now);
    expect(values.dates).toEqual([
      { date: '2026-03-08', time: '18:30', duration: 90 },
      { date: '2026-03-10', time: '18:30', duration: 90 },
      { date: '2026-03-12', time: '18:30', duration: 90 },
    ]);
    expect(daysApart).toBe(2);
    expect(coursePriceText).toBe('45.00');
  });

  it('falls back to one day at 09:00 for 60 minutes, and an added day follows the last by days-apart', () => {
    const bare: ScheduleCourse = {
      ...COURSE,
      default_days: 0,
      default_days_apart: 0,
      default_daily_mins: 0,
      default_start_time: '',
    };
    const { values } = courseToScheduleDefaults(bare, new Date('2026-03-07T12:00:00Z'));
    expect(values.dates).toEqual([{ date: '2026-03-08', time: '09:00', duration: 60 }]);
    expect(nextDayRow([{ date: '2026-03-31' }], 3, 'UTC')).toEqual({
      date: '2026-04-03',
      time: '09:00',
      duration: 60,
    });
  });
});

describe('ScheduleCourseDrawer', () => {
  it('shows the sections and the course defaults, and adds a day spaced by days-apart', async () => {
    routes();
    await renderDrawer();
    for (const section of ['General', 'Details', 'Location', 'Instructor', 'Sync settings']) {
      expect(screen.getByRole('region', { name: section })).toBeInTheDocument();
    }
    const first = firstDateIn('America/Chicago');
    const rows = courseToScheduleDefaults(COURSE).values.dates as { date: string }[];
    expect(rows[0].date).toBe(first);
    expect(screen.getByLabelText('Date of day 1')).toHaveValue(shown(rows[0].date));
    expect(screen.getByLabelText('Date of day 3')).toHaveValue(shown(rows[2].date));
    expect(screen.getByLabelText('End of day 1')).toHaveValue('8:00 PM');
    fireEvent.click(screen.getByRole('button', { name: /Add day/ }));
    expect(screen.getByLabelText('Date of day 4')).toHaveValue(shown(nextDayRow(rows, 2, 'UTC').date));
    expect(screen.getByLabelText('End of day 4')).toHaveValue('10:00 AM');
  });

  it("says 'Please complete all day fields.' and highlights the row when a date is cleared", async () => {
    const calls = routes();
    await renderDrawer();
    const date = screen.getByLabelText('Date of day 2');
    const clear = date.closest('.ant-picker')!.querySelector('.ant-picker-clear')!;
    fireEvent.mouseDown(clear);
    fireEvent.mouseUp(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(screen.getByLabelText('Date of day 2')).toHaveValue(''));
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.completeDayFields)).toBeInTheDocument();
    expect(screen.getByLabelText('Date of day 2').closest('.ant-picker')).toHaveClass(
      'ant-picker-status-error',
    );
    expect(screen.getByLabelText('End of day 2').closest('.ant-input-affix-wrapper, .ant-input')).toHaveClass(
      /status-error/,
    );
    expect(screen.getByLabelText('Date of day 1').closest('.ant-picker')).not.toHaveClass(
      'ant-picker-status-error',
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the payload with an overridden price in cents and a capacity, toasts and closes', async () => {
    const calls = routes();
    const close = await renderDrawer();
    fireEvent.click(screen.getByRole('switch', { name: 'Override price' }));
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '52.5' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Set capacity' }));
    fireEvent.change(screen.getByLabelText('Capacity'), { target: { value: '6' } });
    fireEvent.change(screen.getByLabelText('Internal short description'), { target: { value: 'Evening' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Sync with Eventbrite' }));
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.scheduled)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      activity_id: ACTIVITY,
      dates: courseToScheduleDefaults(COURSE).values.dates,
      instructor_id: INSTRUCTOR,
      location_id: LOCATION,
      sync_with_eventbrite: true,
      course_name: 'Wheel throwing',
      capacity: 6,
      price: 5250,
      internal_short_description: 'Evening',
    });
    expect(close).toHaveBeenCalled();
  });

  it('rejects a price with three decimals and leaves the price out when the override is off', async () => {
    const calls = routes();
    await renderDrawer();
    fireEvent.click(screen.getByRole('switch', { name: 'Override price' }));
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '1.999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.schedulePrice)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch', { name: 'Override price' }));
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText(SCHEDULING_MESSAGES.scheduled);
    const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('price');
    expect(body).not.toHaveProperty('capacity');
  });

  it('an override price that is on and emptied shows the price error and schedules nothing', async () => {
    const calls = routes();
    const close = await renderDrawer();
    fireEvent.click(screen.getByRole('switch', { name: 'Override price' }));
    expect(screen.getByLabelText('Price')).toHaveValue('45.00');
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.schedulePriceRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Price').closest('.ant-input-affix-wrapper')).toHaveClass(/status-error/);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(close).not.toHaveBeenCalled();
  });

  it('an emptied name shows its error state and schedules nothing (spec 001 §2)', async () => {
    const calls = routes();
    await renderDrawer();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Set capacity' }));
    fireEvent.change(screen.getByLabelText('Capacity'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(COURSE_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveClass(/status-error/);
    expect(screen.getByText(SCHEDULING_MESSAGES.scheduleCapacity)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('an appointment course is not scheduled: the drawer says how it is booked and offers no Schedule', async () => {
    const calls = routes(undefined, { ...COURSE, activity_type: 'appointment' });
    await renderDrawer();
    expect(screen.getByText(SCHEDULING_MESSAGES.appointmentNotSchedulable)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
    expect(screen.queryByLabelText('Date of day 1')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("toasts 'Error scheduling course' and stays open when the server refuses", async () => {
    routes(errorBody(400, 'A location is required.'));
    const close = await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText(SCHEDULING_MESSAGES.scheduleFailed)).toBeInTheDocument();
    expect(screen.getByText('A location is required.')).toBeInTheDocument();
    expect(close).not.toHaveBeenCalled();
  });
});
