/** Messages of an instructor's (or a course's) bookable hours and of the booking window (issue 22). */
export const AVAILABILITY_MESSAGES = {
  startTime: 'Not a time (HH:mm, from 00:00 to 23:59).',
  endTime: 'Not a time (HH:mm, from 00:00 to 24:00).',
  endAfterStart: 'End time must be after the start time.',
  overlap: 'Hours of one day must not overlap.',
  tooManyRanges: (max: number) => `A day can have at most ${max} ranges of hours.`,
  ranges: 'Hours must be a list of ranges, each with a start and an end time.',
  weekly: 'Weekly hours must give the hours of each day (mon to sun).',
  date: 'Not a date (yyyy-MM-dd).',
  duplicateDate: 'Each date can have only one override.',
  overrides: 'Date overrides must be a list of dates with their hours.',
  tooManyOverrides: (max: number) => `There can be at most ${max} date overrides.`,
  /** Settings → Instructors: the toast after the hours are saved. */
  saved: 'Hours saved',
} as const;
