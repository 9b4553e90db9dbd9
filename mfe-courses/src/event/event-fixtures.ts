import type { OkBodyOf } from '@studio/ui/testing';

/* Typed by the generated response bodies: a field the API does not send, or a missing one, fails. */
type EventDetail = OkBodyOf<'/api/admin/events/{event_id}', 'get'>;
type EnrollmentPage = OkBodyOf<'/api/admin/enrollment/event/{event_id}', 'get'>;

export const EVENT_ID = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
export const ACTIVITY_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

export const EVENT: EventDetail = {
  event_id: EVENT_ID,
  activity_id: ACTIVITY_ID,
  name: 'Wheel throwing',
  internal_short_description: 'Evening group',
  capacity: 8,
  price: 4500,
  status: 'scheduled',
  schedule: [
    { start_date: '2026-04-02', start_time: '18:30', duration: 90 },
    { start_date: '2026-04-04', start_time: '18:30', duration: 90 },
  ],
  starts_at: '2026-04-02T23:30:00.000Z',
  ends_at: '2026-04-05T01:00:00.000Z',
  location_id: 'l1',
  instructor_id: 'i1',
  Location: { address: '1 Clay St', timezone: { timeZoneId: 'America/Chicago' } },
  Instructor: { first_name: 'Ida' },
  is_featured: true,
  is_special_event: false,
  sync_with_eventbrite: false,
  meeting_join_url: null,
  meeting_summary: null,
  enrolled_count: 2,
  seats_taken: 3,
  Activity: { name: 'Wheel throwing', images: [] },
};

export const ROW: EnrollmentPage['enrollments'][number] = {
  enrollment_id: '11111111-0000-4000-8000-000000000001',
  student_id: 's1',
  created_at: '2026-03-01T15:00:00Z',
  checked_in_at: null,
  attendance: 'not_checked_in',
  guestCount: 1,
  waiverStatus: 'pending',
  Student: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: null, User: null },
  GuestEnrollments: [],
  Order: { order_id: 'o1', order_number: 1042, totalPrice: 0, refundedPrice: 0, status: 'paid' },
  paid_with: null,
};

export const PAGE: EnrollmentPage = { enrollments: [ROW], heldSeats: [], totalCount: 1, currentPage: 1, itemsPerPage: 20 };
