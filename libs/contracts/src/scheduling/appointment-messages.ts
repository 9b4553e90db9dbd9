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
} as const;
