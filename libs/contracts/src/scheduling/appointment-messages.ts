/**
 * Messages of appointments (issue 22): the refusal the loser of a race for a time gets (the
 * database's exclusion constraint refused the overlap), and the refusals of holding and booking.
 */
export const APPOINTMENT_MESSAGES = {
  taken: 'This time was just taken. Please pick another.',
  notFound: 'Appointment not found',
  courseNotFound: 'Course not found',
  notAppointmentCourse: 'This course is not booked by appointment.',
  notHeld: 'This appointment is no longer held. Please pick another time.',
  holdExpired: 'The hold on this time has expired. Please pick another.',
  guestCount: 'Guests must be a whole number of at least 0.',
  /** A start the slot engine does not offer now (outside the hours, too soon, past the window, busy). */
  notOffered: 'This time is not open for booking. Please pick another.',
  /** Moving or cancelling an appointment that is already cancelled. */
  cancelled: 'This appointment is cancelled.',
  /** Enroll or invoice with an appointment that already has an order. */
  alreadyOrdered: 'This appointment already has an order.',
  /** Enroll or invoice for a student other than the one the appointment is held for. */
  otherStudent: 'This appointment is held for another student.',
  /** The party (the student and guests) is larger than the course takes. */
  partyTooLarge: (capacity: number) =>
    `This course takes at most ${capacity} ${capacity === 1 ? 'person' : 'people'} per appointment (the student and guests).`,
  /** A payment link for a free appointment course. */
  freeCourse: 'This course is free: there is nothing to pay. Enroll the student directly.',
  student: 'Select a student.',
  startsAt: 'starts_at is not a date and time (an ISO 8601 instant such as 2026-12-01T15:00:00Z).',
  from: 'from is not a date and time (an ISO 8601 instant such as 2026-12-01T00:00:00Z).',
  to: 'to is not a date and time (an ISO 8601 instant such as 2026-12-01T00:00:00Z).',
  order: 'to must be after from.',
  calendarRange: 'from and to can be at most 42 days apart.',
  instructor: 'instructor_id is not an id.',
  location: 'location_id is not an id.',
  tz: 'tz is not a known time zone (an IANA name such as America/New_York).',
  limit: 'limit must be a whole number from 1 to 200.',
} as const;
