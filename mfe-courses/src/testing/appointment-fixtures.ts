import type { AppointmentOut, CalendarItem } from '@studio/contracts';

export const APPOINTMENT_COURSE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** One appointment as the API answers it: Ada, Thu Dec 10 10:00 AM in New York, booked, order #12. */
export function appointment(overrides: Partial<AppointmentOut> = {}): AppointmentOut {
  return {
    id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
    activity_id: APPOINTMENT_COURSE,
    course_name: 'Private wheel lesson',
    instructor_id: '66666666-6666-4666-8666-666666666666',
    instructor_name: 'Ines Potter',
    location_id: '77777777-7777-4777-8777-777777777777',
    location_name: 'Main studio',
    time_zone: 'America/New_York',
    student: {
      id: '55555555-5555-4555-8555-555555555555',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    },
    guest_count: 1,
    status: 'booked',
    starts_at: '2026-12-10T15:00:00Z',
    ends_at: '2026-12-10T16:30:00Z',
    hold_expires_at: null,
    order: { id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', order_number: 12, status: 'paid', total: 4500 },
    meeting_url: null,
    checked_in_at: null,
    attendance: 'not_checked_in',
    ...overrides,
  };
}

/** One calendar item: a session unless told otherwise. */
export function calendarItem(overrides: Partial<CalendarItem> = {}): CalendarItem {
  return {
    kind: 'session',
    id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
    activity_id: '99999999-9999-4999-8999-999999999999',
    course_name: 'Wheel throwing',
    title: 'Wheel throwing',
    starts_at: '2026-11-24T23:00:00Z',
    ends_at: '2026-11-25T01:00:00Z',
    instructor_id: '66666666-6666-4666-8666-666666666666',
    instructor_name: 'Ines Potter',
    location_id: '77777777-7777-4777-8777-777777777777',
    location_name: 'Main studio',
    time_zone: 'America/New_York',
    status: 'active',
    seats_taken: 3,
    capacity: 8,
    ...overrides,
  };
}
