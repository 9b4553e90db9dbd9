/**
 * Wall-clock time to instants, by the product's one DST rule (issue 22):
 *
 *   A wall time is the FIRST INSTANT AT WHICH THE LOCAL CLOCK SHOWS THAT TIME OR LATER.
 *
 * An ordinary time is itself; a time in the spring-forward gap moves to the first instant after the
 * gap (2:30 on 2027-03-14 in America/New_York -> 3:00 EDT); a time that occurs twice when the clock
 * falls back takes the first occurrence (1:30 on 2027-11-07 in New York -> 1:30 EDT). Sessions
 * (wallClockToUtc in ./time.ts), discounts and the appointment slot engine (./scheduling/slots.ts)
 * all convert through naiveToInstant, so a 9:00 session and a 9:00 opening are the same instant.
 */
import { tzOffset } from '@date-fns/tz';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Offset of the zone at an instant, in ms (east of UTC positive). */
export const offsetMs = (zone: string, t: number) => tzOffset(zone, new Date(t)) * MINUTE;

/**
 * The instant (ms) of a wall time given as "naive" ms: the wall date and time read as if they were
 * UTC (Date.UTC(y, m, d, h, min)). Follows the DST rule above.
 */
export function naiveToInstant(naive: number, zone: string): number {
  const before = offsetMs(zone, naive - DAY);
  const after = offsetMs(zone, naive + DAY);
  if (before === after) {
    // No change near this time (the common case): one candidate.
    const t = naive - before;
    if (offsetMs(zone, t) === before) return t;
  }
  const offsets = [...new Set([before, after, offsetMs(zone, naive)])];
  const valid = offsets.map((o) => naive - o).filter((t) => offsetMs(zone, t) === naive - t);
  // The wall time occurs (twice when the clock fell back): the first occurrence.
  if (valid.length) return Math.min(...valid);
  // The wall time does not exist: the first instant after the gap, i.e. the instant of the change,
  // which lies in (naive − larger offset, naive − smaller offset]. Changes happen on whole minutes.
  const big = Math.max(...offsets);
  const small = Math.min(...offsets);
  let lo = naive - big; // still the offset before the change
  let hi = naive - small; // already the offset after it
  const first = offsetMs(zone, lo);
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetMs(zone, mid) === first) lo = mid;
    else hi = mid;
  }
  return hi;
}

