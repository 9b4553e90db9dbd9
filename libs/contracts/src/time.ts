/**
 * Instants are stored in UTC; dates and wall-clock times are read in the organization's or the
 * location's IANA time zone. These helpers are the only place that converts between the two.
 */
import { TZDate } from '@date-fns/tz';
import { format, isValid, parse } from 'date-fns';

export const DEFAULT_TIMEZONE = 'America/New_York';

/** True when the runtime knows the IANA zone name. */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The UTC instant of a wall-clock date ("2026-03-08") and time ("09:00") in a zone. A day that
 * crosses a daylight-saving change still starts at the time typed.
 */
export function wallClockToUtc(date: string, time: string, zone: string): Date | null {
  const parsed = parse(`${date} ${time}`, 'yyyy-MM-dd HH:mm', new Date(0));
  if (!isValid(parsed)) return null;
  const zoned = new TZDate(
    parsed.getFullYear(),
    parsed.getMonth(),
    parsed.getDate(),
    parsed.getHours(),
    parsed.getMinutes(),
    0,
    zone,
  );
  return new Date(zoned.getTime());
}

/** Formats an instant in a zone with a date-fns pattern; "Invalid date" on bad input (spec 001 §8). */
export function formatInZone(instant: Date | string | number, pattern: string, zone: string): string {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (!isValid(date)) return 'Invalid date';
  return format(new TZDate(date.getTime(), zone), pattern);
}
