/**
 * Instants are stored in UTC; dates and wall-clock times are read in the organization's or the
 * location's IANA time zone. These helpers are the only place that converts between the two.
 */
import { TZDate } from '@date-fns/tz';
// Subpath imports: the package index loads every function (about 70 ms of the API's start).
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { naiveToInstant } from './wall-clock';

export const DEFAULT_TIMEZONE = 'America/New_York';

/** What isValidTimeZone answered per zone name (bounded: a zone name can come from a request). */
const zoneValidity = new Map<string, boolean>();
const MAX_ZONES_REMEMBERED = 1000;

/** True when the runtime knows the IANA zone name. */
export function isValidTimeZone(zone: string): boolean {
  const known = zoneValidity.get(zone);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    // Building a formatter is the only portable check, and a costly one: every date shown asks.
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    valid = true;
  } catch {
    valid = false;
  }
  if (zoneValidity.size >= MAX_ZONES_REMEMBERED) zoneValidity.clear();
  zoneValidity.set(zone, valid);
  return valid;
}

/**
 * The UTC instant of a wall-clock date ("2026-03-08") and time ("09:00") in a zone, or null (not a
 * date, not a time, not a zone). A day that crosses a daylight-saving change still starts at the
 * time typed; a time the change skips or repeats follows the one rule of ./wall-clock.ts.
 */
export function wallClockToUtc(date: string, time: string, zone: string): Date | null {
  const parsed = parse(`${date} ${time}`, 'yyyy-MM-dd HH:mm', new Date(0));
  if (!isValid(parsed)) return null;
  if (!isValidTimeZone(zone)) return null;
  // The one DST rule (./wall-clock.ts): a time in a spring gap is the first instant after it, a
  // time that occurs twice is its first occurrence.
  const naive = Date.UTC(parsed.getFullYear(), parsed.getMonth(), parsed.getDate(), parsed.getHours(), parsed.getMinutes());
  return new Date(naiveToInstant(naive, zone));
}

/** Formats an instant in a zone with a date-fns pattern; "Invalid date" on bad input (spec 001 §8). */
export function formatInZone(instant: Date | string | number, pattern: string, zone: string): string {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (!isValid(date)) return 'Invalid date';
  return format(new TZDate(date.getTime(), zone), pattern);
}

/*
 * How every screen shows dates, times and durations (issue 7 §7), in one place:
 *   "Tue, Nov 24, 2026 6:00 PM"  a date and time, read in the location's (or organization's) zone;
 *   "Tue, Nov 24 6:00 PM"        the same in the current year (the year shows only when it differs);
 *   "… 6:00 PM CET"              the zone is named when it can differ from the admin's;
 *   "6:00 PM"                    12-hour clock everywhere, never "18:00";
 *   "1 hour", "1 h 30 min"       durations.
 * Spec 001 names a few formats word for word (session label, student drawer dates); those screens
 * keep calling formatInZone with the spec's pattern.
 */

export interface DateFormatOptions {
  /**
   * The admin's zones (the organization's and the browser's). When the zone of the instant has a
   * different offset from any of them at that instant, its short name is appended ("6:00 PM CET").
   */
  viewerZones?: readonly (string | null | undefined)[];
  /** "Now", to decide whether the year is the current one (tests pass it; default: the clock). */
  now?: Date;
}

const asDate = (instant: Date | string | number): Date =>
  instant instanceof Date ? instant : new Date(instant);

/** The zone the browser (or the Node process) runs in. */
export function browserTimeZone(): string {
  try {
    return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Minutes east of UTC of a zone at an instant. */
function offsetMinutes(date: Date, zone: string): number {
  return -new TZDate(date.getTime(), zone).getTimezoneOffset();
}

/** One short-zone-name formatter per locale and zone (bounded as zoneValidity): building one costs far more than using it. */
const zoneNameFormats = new Map<string, Intl.DateTimeFormat>();
function zoneNameFormat(locale: string, zone: string): Intl.DateTimeFormat {
  const key = `${locale} ${zone}`;
  let f = zoneNameFormats.get(key);
  if (!f) {
    if (zoneNameFormats.size >= MAX_ZONES_REMEMBERED) zoneNameFormats.clear();
    f = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    zoneNameFormats.set(key, f);
  }
  return f;
}

/**
 * The short name of a zone at an instant: "EST", "PDT", "CET", "CEST"; "GMT+4" where no
 * abbreviation is in common use. en-US names the American zones; en-GB names the European ones.
 */
export function zoneAbbreviation(instant: Date | string | number, zone: string): string {
  const date = asDate(instant);
  if (!isValid(date) || !isValidTimeZone(zone)) return '';
  const read = (locale: string) =>
    zoneNameFormat(locale, zone)
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  const us = read('en-US');
  if (!/^(GMT|UTC)[+-]/.test(us)) return us;
  const gb = read('en-GB');
  return /^(GMT|UTC)[+-]/.test(gb) ? us : gb;
}

/** True when the zone shows a different wall clock than one of the admin's zones at that instant. */
function zoneDiffers(date: Date, zone: string, viewerZones: DateFormatOptions['viewerZones']): boolean {
  const own = offsetMinutes(date, zone);
  return (viewerZones ?? []).some((v) => !!v && isValidTimeZone(v) && offsetMinutes(date, v) !== own);
}

function zonedOrNull(instant: Date | string | number, zone: string): { date: Date; zoned: TZDate } | null {
  const date = asDate(instant);
  if (!isValid(date)) return null;
  return { date, zoned: new TZDate(date.getTime(), isValidTimeZone(zone) ? zone : 'UTC') };
}

function sameYear(zoned: TZDate, zone: string, now: Date | undefined): boolean {
  return new TZDate((now ?? new Date()).getTime(), zone).getFullYear() === zoned.getFullYear();
}

/** "Tue, Nov 24, 2026" (another year) or "Tue, Nov 24" (this year), in the zone; "Invalid date" on bad input. */
export function formatDate(
  instant: Date | string | number,
  zone: string,
  options: DateFormatOptions = {},
): string {
  const z = zonedOrNull(instant, zone);
  if (!z) return 'Invalid date';
  return format(z.zoned, sameYear(z.zoned, zone, options.now) ? 'EEE, MMM d' : 'EEE, MMM d, yyyy');
}

/** "6:00 PM" in the zone, with "CET" after it when the zone differs from the admin's; "Invalid date" on bad input. */
export function formatTime(
  instant: Date | string | number,
  zone: string,
  options: DateFormatOptions = {},
): string {
  const z = zonedOrNull(instant, zone);
  if (!z) return 'Invalid date';
  const time = format(z.zoned, 'h:mm a');
  return zoneDiffers(z.date, zone, options.viewerZones) ? `${time} ${zoneAbbreviation(z.date, zone)}` : time;
}

/**
 * The formats spec 001 names word for word for a few screens (the session label, the student
 * drawer). They go through formatInSpecPattern, so they name the zone when it differs as every
 * other date does.
 */
export const SPEC_DATE_PATTERNS = {
  /** 'Starts {MMM D, h:mm A}', the session label. */
  sessionStart: 'MMM d, h:mm a',
  /** 'First seen' (DD MMM, YYYY) in the student drawer. */
  firstSeen: 'dd MMM, yyyy',
  /** An order row's date (MMM D, h:mm A) in the student drawer. */
  orderRow: 'MMM d, h:mm a',
} as const;

/** One of the spec's patterns in the zone, with the zone's short name after a time when it differs from the admin's. */
export function formatInSpecPattern(
  instant: Date | string | number,
  pattern: (typeof SPEC_DATE_PATTERNS)[keyof typeof SPEC_DATE_PATTERNS],
  zone: string,
  options: DateFormatOptions = {},
): string {
  const z = zonedOrNull(instant, zone);
  if (!z) return 'Invalid date';
  const text = format(z.zoned, pattern);
  return pattern.includes('h:mm') && zoneDiffers(z.date, zone, options.viewerZones)
    ? `${text} ${zoneAbbreviation(z.date, zone)}`
    : text;
}

/** An IANA zone as people read it, the same on every screen: "America/Los Angeles" (the value keeps its underscores). */
export function formatTimeZone(zone: string): string {
  return zone.replace(/_/g, ' ');
}

/** "Tue, Nov 24, 2026 6:00 PM" (the year only when it is not the current one; the zone when it differs). */
export function formatDateTime(
  instant: Date | string | number,
  zone: string,
  options: DateFormatOptions = {},
): string {
  const z = zonedOrNull(instant, zone);
  if (!z) return 'Invalid date';
  return `${formatDate(z.date, zone, options)} ${formatTime(z.date, zone, options)}`;
}

/**
 * "Tue, Mar 10 6:00 PM EDT": an instant in a zone with the zone always named, for what a student
 * reads away from the admin (mails, the store's pages, the payment and signing pages).
 */
export function formatZonedDateTime(instant: Date | string | number, zone: string, options: Pick<DateFormatOptions, 'now'> = {}): string {
  const z = zonedOrNull(instant, zone);
  if (!z) return 'Invalid date';
  return `${formatDateTime(z.date, zone, { now: options.now })} ${zoneAbbreviation(z.date, zone)}`.trim();
}

/** A calendar date with no time ("2026-04-02") as "Thu, Apr 2" (this year) or "Thu, Apr 2, 2027". */
export function formatWallDate(
  date: string,
  options: Pick<DateFormatOptions, 'now'> & { zone?: string } = {},
): string {
  const parsed = parse(date, 'yyyy-MM-dd', new Date(0));
  if (!isValid(parsed)) return 'Invalid date';
  const year = new TZDate((options.now ?? new Date()).getTime(), options.zone ?? 'UTC').getFullYear();
  return format(parsed, parsed.getFullYear() === year ? 'EEE, MMM d' : 'EEE, MMM d, yyyy');
}

/** A wall-clock time ("18:30", as schedules store it) on the 12-hour clock: "6:30 PM"; '' when it is not a time. */
export function formatWallTime(time: string): string {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(time.trim());
  if (!match) return '';
  const h = Number(match[1]);
  const m = Number(match[2]);
  if (h > 23 || m > 59) return '';
  return `${h % 12 === 0 ? 12 : h % 12}:${match[2]} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * A duration in minutes: "30 min", "1 hour", "2 hours", "1 h 30 min", "1 day", "1 week 2 days",
 * "1 day 2 h 15 min". A single unit reads in words; a mix uses "h" and "min".
 */
export function formatDuration(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes < 0) return '';
  const total = Math.round(minutes);
  if (total === 0) return '0 min';
  const weeks = Math.floor(total / (7 * 24 * 60));
  const days = Math.floor((total % (7 * 24 * 60)) / (24 * 60));
  const hours = Math.floor((total % (24 * 60)) / 60);
  const mins = total % 60;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (weeks) parts.push(plural(weeks, 'week'));
  if (days) parts.push(plural(days, 'day'));
  const single = [weeks, days, hours, mins].filter(Boolean).length === 1;
  if (hours) parts.push(single ? plural(hours, 'hour') : `${hours} h`);
  if (mins) parts.push(`${mins} min`);
  return parts.join(' ');
}
