import { DEFAULT_TIMEZONE, formatInZone, isValidTimeZone, wallClockToUtc } from '../time';

/**
 * Discount windows (spec 000 §3, §9): a date plus an hour chosen from 1 AM to 11 PM (default
 * 12:00), read in the organization's zone (default America/New_York) and stored as an instant.
 */

/** The hours a discount starts or ends at: "01:00" (1:00 AM) to "23:00" (11:00 PM). */
export const DISCOUNT_TIME_CHOICES: readonly { value: string; label: string }[] = Array.from({ length: 23 }, (_, i) => {
  const hour = i + 1;
  const label = `${hour % 12 === 0 ? 12 : hour % 12}:00 ${hour < 12 ? 'AM' : 'PM'}`;
  return { value: `${String(hour).padStart(2, '0')}:00`, label };
});
export const DISCOUNT_DEFAULT_TIME = '12:00';
export const DISCOUNT_DEFAULT_TIMEZONE = DEFAULT_TIMEZONE;

const HOURS = new Set(DISCOUNT_TIME_CHOICES.map((c) => c.value));
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True when the time is one of the hourly choices. */
export const isDiscountTime = (time: string): boolean => HOURS.has(time);

const zoneOrDefault = (zone: string | null | undefined) => (zone && isValidTimeZone(zone) ? zone : DEFAULT_TIMEZONE);

/**
 * The instant of a discount date ("2026-11-24") and hour ("23:00") in the organization's zone; null
 * when the date or the hour is not a valid choice. On the spring-forward day the missing hour
 * (2 AM in New York) reads as the first hour after the change (3 AM EDT); on the fall-back day the
 * repeated 1 AM is its first occurrence (1 AM EDT).
 */
export function discountInstant(date: string, time: string, zone: string | null | undefined): Date | null {
  if (!DATE_PATTERN.test(date) || !isDiscountTime(time)) return null;
  return wallClockToUtc(date, time, zoneOrDefault(zone));
}

/** An instant back to the form's date and hour in the organization's zone. */
export function discountWallClock(instant: string | Date, zone: string | null | undefined): { date: string; time: string } {
  const z = zoneOrDefault(zone);
  const time = formatInZone(instant, 'HH:00', z);
  return {
    date: formatInZone(instant, 'yyyy-MM-dd', z),
    // A stored instant off the hourly grid (none are written so) still shows a valid choice.
    time: isDiscountTime(time) ? time : DISCOUNT_DEFAULT_TIME,
  };
}
