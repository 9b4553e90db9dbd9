/**
 * Attendance (issue 23): derived from the check-in and the session's end, never stored. Before the
 * session ends a student is checked in or not yet; once it has ended, one not checked in is a
 * no-show. The API's list, its CSV export and the grids all read it through this one rule.
 */
export const ATTENDANCE_VALUES = ['checked_in', 'not_checked_in', 'no_show'] as const;
export type Attendance = (typeof ATTENDANCE_VALUES)[number];

/** How the grids, the student drawer and the CSV export label each attendance. */
export const ATTENDANCE_LABELS: Record<Attendance, string> = {
  checked_in: 'Checked in',
  not_checked_in: 'Not checked in',
  no_show: 'No-show',
};

/** The session has ended when its end is at or before `now`. */
export function attendanceOf(
  checkedInAt: Date | string | null | undefined,
  endsAt: Date | string,
  now: Date = new Date(),
): Attendance {
  if (checkedInAt) return 'checked_in';
  return new Date(endsAt).getTime() <= now.getTime() ? 'no_show' : 'not_checked_in';
}

export const ATTENDANCE_MESSAGES = {
  checkInRemoved: 'This student was removed from the session and cannot be checked in.',
  /** An appointment held for payment, or cancelled, has nobody to check in. */
  appointmentNotBooked: 'Only a booked appointment can be checked in.',
  checkedIn: 'Checked in',
  checkInUndone: 'Check-in undone',
  checkInFailed: 'Failed to update the check-in',
} as const;
