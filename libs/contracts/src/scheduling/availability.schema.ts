import { z } from 'zod';
import { AVAILABILITY_MESSAGES as M } from './availability-messages';

/*
 * Availability: the wall-clock hours at which an instructor (or an appointment course with hours
 * of its own) can be booked, read in the zone of the location. Used by the slot engine
 * (./slots.ts), the API and Settings → Instructors.
 *
 * - Weekly hours are an object keyed by weekday, `sun` … `sat` (WEEKDAYS, indexed like
 *   Date#getDay(): 0 = Sunday). A missing or empty day is closed.
 * - A range is `{ start: 'HH:mm', end: 'HH:mm' }`, half-open [start, end). `start` is 00:00…23:59,
 *   `end` is 00:01…24:00 ('24:00' = the midnight that ends the day) and after `start`: a range never
 *   crosses midnight. Hours that go on past midnight are two ranges, one on each day, and the engine
 *   treats them as separate ranges (an appointment cannot straddle midnight).
 * - Ranges of one day must not overlap; touching ranges (09:00–12:00 and 12:00–15:00) are allowed
 *   and the engine joins them into one range (09:00–15:00). At most MAX_RANGES_PER_DAY a day.
 * - A date override `{ date: 'yyyy-MM-dd', ranges }` replaces the weekly hours of that local date:
 *   empty ranges = closed that day, otherwise exactly those hours (extra or different hours).
 *   One override per date, at most MAX_DATE_OVERRIDES.
 */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** The order a week grid shows the days in. */
export const WEEKDAYS_MONDAY_FIRST: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export const MAX_RANGES_PER_DAY = 12;
export const MAX_DATE_OVERRIDES = 366;

// How far ahead a student may book is a setting of the appointment course: booking_window_days in
// course.schema.ts (DEFAULT_BOOKING_WINDOW_DAYS, BOOKING_WINDOW_RANGE_DAYS in catalog-constants.ts).

export interface TimeRange {
  /** 'HH:mm', 00:00…23:59. */
  start: string;
  /** 'HH:mm', 00:01…24:00, after start. */
  end: string;
}
export type WeeklyHours = Partial<Record<Weekday, readonly TimeRange[]>>;
export interface DateOverride {
  /** A local date, 'yyyy-MM-dd'. */
  date: string;
  /** Empty: closed that day. */
  ranges: readonly TimeRange[];
}
export interface Availability {
  weekly: WeeklyHours;
  overrides: readonly DateOverride[];
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of 'HH:mm' (00:00…23:59, and '24:00' = 1440 when `allowEndOfDay`); null when not a time. */
export function wallTimeToMinutes(time: string, allowEndOfDay = false): number | null {
  if (allowEndOfDay && time === '24:00') return 24 * 60;
  const match = TIME.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** 'HH:mm' of minutes after midnight (1440 → '24:00'). */
export function minutesToWallTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written 'yyyy-MM-dd'. */
export function isWallDate(date: string): boolean {
  const match = DATE.exec(date);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(y, m - 1, d));
  return parsed.getUTCFullYear() === y && parsed.getUTCMonth() === m - 1 && parsed.getUTCDate() === d;
}

export const timeRangeSchema = z
  .object(
    {
      start: z.string({ error: M.startTime }).refine((v) => wallTimeToMinutes(v) !== null, M.startTime),
      end: z.string({ error: M.endTime }).refine((v) => wallTimeToMinutes(v, true) !== null, M.endTime),
    },
    { error: M.ranges },
  )
  .superRefine((range, ctx) => {
    const start = wallTimeToMinutes(range.start);
    const end = wallTimeToMinutes(range.end, true);
    if (start !== null && end !== null && end <= start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: M.endAfterStart });
    }
  });

/** The ranges of one day (or of one override): at most MAX_RANGES_PER_DAY, none overlapping. */
export const dayRangesSchema = z
  .array(timeRangeSchema, { error: M.ranges })
  .max(MAX_RANGES_PER_DAY, M.tooManyRanges(MAX_RANGES_PER_DAY))
  .superRefine((ranges, ctx) => {
    const sorted = ranges
      .map((r, index) => ({ index, start: wallTimeToMinutes(r.start), end: wallTimeToMinutes(r.end, true) }))
      .filter((r): r is { index: number; start: number; end: number } => r.start !== null && r.end !== null && r.end > r.start)
      .sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 1; i < sorted.length; i++) {
      // Half-open ranges: 09:00–12:00 and 12:00–15:00 touch and do not overlap.
      if (sorted[i].start < sorted[i - 1].end) {
        ctx.addIssue({ code: 'custom', path: [sorted[i].index, 'start'], message: M.overlap });
      }
    }
  });

export const weeklyHoursSchema = z.object(
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayRangesSchema.optional().default([])])) as Record<
    Weekday,
    z.ZodDefault<z.ZodOptional<typeof dayRangesSchema>>
  >,
  { error: M.weekly },
);

export const dateOverrideSchema = z.object(
  {
    date: z.string({ error: M.date }).refine(isWallDate, M.date),
    ranges: dayRangesSchema,
  },
  { error: M.overrides },
);

export const dateOverridesSchema = z
  .array(dateOverrideSchema, { error: M.overrides })
  .max(MAX_DATE_OVERRIDES, M.tooManyOverrides(MAX_DATE_OVERRIDES))
  .superRefine((overrides, ctx) => {
    const seen = new Set<string>();
    overrides.forEach((o, index) => {
      if (seen.has(o.date)) ctx.addIssue({ code: 'custom', path: [index, 'date'], message: M.duplicateDate });
      seen.add(o.date);
    });
  });

export const availabilitySchema = z.object({
  weekly: weeklyHoursSchema,
  overrides: dateOverridesSchema.optional().default([]),
});
export type AvailabilityInput = z.input<typeof availabilitySchema>;


/** The Settings → Instructors hours form: the availability under one field (the editor's path). */
export const availabilityFormSchema = z.object({ availability: availabilitySchema });

/** An instructor's hours when none are set: every day closed, no overrides. */
export const closedAvailability = (): {
  weekly: Record<Weekday, TimeRange[]>;
  overrides: { date: string; ranges: TimeRange[] }[];
} => ({
  weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, []])) as unknown as Record<Weekday, TimeRange[]>,
  overrides: [],
});
