import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import { DEFAULT_TIMEZONE, isValidTimeZone } from './time';

/**
 * Date-and-time inputs of the API (discount windows, the Orders page's date range), in one place.
 * A value is either an instant with its UTC offset ("2027-03-01T17:00:00Z", "2027-03-01T12:00-05:00")
 * or a wall-clock date and time without offset ("2027-03-01T12:00", seconds optional), which is
 * read in the organization's IANA time zone on the server (spec 000 §3: "date plus time, in the
 * organization timezone"). An absent or empty value and a malformed one get different messages.
 */

export const DATE_TIME_MESSAGES = {
  invalid:
    'Not a date and time: use YYYY-MM-DDTHH:mm (read in the organization’s time zone) or an ISO 8601 instant with its offset, e.g. 2027-03-01T12:00 or 2027-03-01T17:00:00Z.',
} as const;

/** "2027-03-01T12:00", "2027-03-01T12:00:30", "2027-03-01T12:00:30.250". */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
/** The same followed by "Z" or an offset "+hh:mm" / "-hh:mm". */
const WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))$/i;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

export type DateTimeInput = { kind: 'instant'; instant: Date } | { kind: 'wall'; wall: WallClock };

/** The calendar and clock parts, or null when one is out of range (a 13th month, February 30, 24:00). */
function wallClockOf(match: RegExpExecArray): WallClock | null {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i] ?? 0));
  const ms = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return null;
  return { year, month, day, hour, minute, second, ms };
}

/** What a date-time input says, or null when it is not one. */
export function parseDateTimeInput(text: string): DateTimeInput | null {
  const wall = WALL_CLOCK.exec(text);
  if (wall) {
    const parts = wallClockOf(wall);
    return parts ? { kind: 'wall', wall: parts } : null;
  }
  const offset = WITH_OFFSET.exec(text);
  if (!offset || !wallClockOf(offset)) return null;
  if (offset[9] !== undefined && (Number(offset[9]) > 23 || Number(offset[10]) > 59)) return null;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? null : { kind: 'instant', instant };
}

/**
 * The UTC instant of a date-time input: an instant as it is, a wall-clock time in `zone` (an unknown
 * zone reads as the default, America/New_York). On the spring-forward day a missing wall-clock time
 * reads as the same time after the change; on the fall-back day a repeated time is its first occurrence.
 * Null when the text is not a date and time.
 */
export function dateTimeInstant(text: string, zone: string | null | undefined): Date | null {
  const parsed = parseDateTimeInput(text);
  if (!parsed) return null;
  if (parsed.kind === 'instant') return parsed.instant;
  const { year, month, day, hour, minute, second, ms } = parsed.wall;
  const z = zone && isValidTimeZone(zone) ? zone : DEFAULT_TIMEZONE;
  return new Date(new TZDate(year, month - 1, day, hour, minute, second, ms, z).getTime());
}

/**
 * Whether `later` is after `earlier`, when the schema can tell without the organization's zone (both
 * instants, or both wall-clock times); null when one is an instant and the other a wall-clock time
 * (the server compares them once both are instants).
 */
export function dateTimeIsAfter(later: string, earlier: string): boolean | null {
  const a = parseDateTimeInput(later);
  const b = parseDateTimeInput(earlier);
  if (!a || !b || a.kind !== b.kind) return null;
  // Two wall-clock times in the same zone keep their order as UTC wall clock (but for the repeated fall-back hour).
  const key = (p: DateTimeInput) =>
    p.kind === 'instant'
      ? p.instant.getTime()
      : Date.UTC(
          p.wall.year,
          p.wall.month - 1,
          p.wall.day,
          p.wall.hour,
          p.wall.minute,
          p.wall.second,
          p.wall.ms,
        );
  return key(a) > key(b);
}

/**
 * A date-time field of the API. `required` is said for an absent or empty value (null is the
 * caller's to allow with `.nullable()`), `invalid` (default DATE_TIME_MESSAGES.invalid) for any
 * other value that is not a date and time. The text is kept as sent; the server turns it into an
 * instant with `dateTimeInstant` and the organization's zone.
 */
export function dateTimeInput(messages: { required: string; invalid?: string }) {
  const invalid = messages.invalid ?? DATE_TIME_MESSAGES.invalid;
  return z
    .string({ error: (issue) => (issue.input === undefined ? messages.required : invalid) })
    .superRefine((text, ctx) => {
      if (text.trim() === '') ctx.addIssue({ code: 'custom', message: messages.required });
      else if (!parseDateTimeInput(text)) ctx.addIssue({ code: 'custom', message: invalid });
    })
    .describe(
      'A date and time: YYYY-MM-DDTHH:mm[:ss] without offset, read in the organization’s time zone, or an ISO 8601 instant with its offset (Z or ±hh:mm)',
    );
}
