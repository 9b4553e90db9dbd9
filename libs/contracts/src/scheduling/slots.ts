/**
 * The appointment slot engine (issue 22): one pure function that the store's slots call, the
 * admin's, the booking check and the bench all use.
 *
 * THE DST RULE. Availability is wall-clock time in the zone of the location (`zone`). On each local
 * date, a range's wall times become instants by this rule, and only this rule:
 *
 *   A wall time is the FIRST INSTANT AT WHICH THE LOCAL CLOCK SHOWS THAT TIME OR LATER.
 *
 * So an ordinary time is itself; a wall time that does not exist (the spring-forward gap) moves
 * forward to the first instant after the gap (2:30 on 2027-03-14 in America/New_York → 3:00 EDT;
 * a range 2:00–2:45 that day is empty); a wall time that occurs twice (fall back) takes the first,
 * earlier occurrence (1:30 on 2027-11-07 in New York → 1:30 EDT, 05:30Z). A 9:00 opening stays
 * 9:00 local on both sides of a change. The rule is written once, in `naiveToInstant`
 * (../wall-clock.ts); `wallClockToInstant` below and the sessions' `wallClockToUtc` (../time.ts) both
 * convert through it.
 *
 * A SLOT START S is offered iff all of these hold:
 *  - GRID: S = rangeStart + k × incrementMins (k ≥ 0), counted in elapsed minutes from the instant
 *    the range starts (as cal.com does; not the hour grid: a 9:10–12:00 range with 30-minute steps
 *    offers 9:10, 9:40, …). Ranges of one day that touch are first joined into one range (joined on
 *    wall times), so 9:00–12:00 + 12:00–15:00 is one range with one grid.
 *  - INSIDE: [S, S + durationMins] lies inside one range of the local date the range belongs to.
 *    A range never crosses midnight ('24:00' ends the day); the ranges of two days that touch at
 *    midnight stay separate, so no appointment straddles midnight.
 *  - FREE: [S − bufferBeforeMins, S + durationMins + bufferAfterMins) overlaps no busy interval.
 *    Intervals are half-open: touching is not overlapping. Busy intervals come ALREADY WIDENED by
 *    their own buffers (an appointment of another course plus that course's buffers, a session as
 *    it is); see `widenBusy`.
 *  - NOTICE: S ≥ now + minNoticeMins.
 *  - WINDOW: S < the local midnight (in `zone`) that ends the date `windowDays` days after today's
 *    local date. With windowDays = 60 and now on Nov 27 at 10:00, the last bookable date is Jan 26
 *    (the whole of it): every day of the calendar is wholly in or wholly out of the window.
 *  - ASKED: from ≤ S < to.
 * The result: instants (Date, UTC), sorted, without duplicates.
 *
 * Speed: busy intervals are sorted and merged once, then swept with one pointer as the candidate
 * starts increase (O(busy · log busy + candidates)); a busy interval makes the sweep jump past it.
 * The zone's offset is read about once per date (dates away from a change use one offset).
 */
import { TZDate } from '@date-fns/tz';
import { isValidTimeZone } from '../time';
import { naiveToInstant, offsetMs } from '../wall-clock';
import {
  type DateOverride,
  type TimeRange,
  type WeeklyHours,
  WEEKDAYS,
  isWallDate,
  wallTimeToMinutes,
} from './availability.schema';

const MINUTE = 60_000;
const DAY = 86_400_000;

export interface BusyInterval {
  start: Date;
  end: Date;
}

export interface SlotInput {
  weekly: WeeklyHours;
  overrides: readonly DateOverride[];
  /** IANA zone of the availability (the location's). */
  zone: string;
  durationMins: number;
  bufferBeforeMins: number;
  bufferAfterMins: number;
  /** 15, 30 or 60 (any whole number ≥ 1 works). */
  incrementMins: number;
  minNoticeMins: number;
  /** How far ahead a student may book, in days (the course's booking_window_days, DEFAULT_BOOKING_WINDOW_DAYS by default). */
  windowDays: number;
  now: Date;
  from: Date;
  to: Date;
  /** Busy time, each interval already widened by its own buffers. Any order, may overlap. */
  busy: readonly BusyInterval[];
}

const naiveOfDate = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
};

const dateOfNaive = (naive: number) => new Date(naive).toISOString().slice(0, 10);

/**
 * The instant of a wall-clock date ('yyyy-MM-dd') and time ('HH:mm', '24:00' = the midnight that
 * ends the date) in a zone, by the DST rule above; null when the date or time is not one.
 */
export function wallClockToInstant(date: string, time: string, zone: string): Date | null {
  const minutes = wallTimeToMinutes(time, true);
  if (!isWallDate(date) || minutes === null) return null;
  return new Date(naiveToInstant(naiveOfDate(date) + minutes * MINUTE, zone));
}

/** The local date ('yyyy-MM-dd') of an instant in a zone. */
export function localDateOf(instant: Date | number, zone: string): string {
  const z = new TZDate(typeof instant === 'number' ? instant : instant.getTime(), zone);
  return `${z.getFullYear()}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`;
}

/** A date ('yyyy-MM-dd') plus whole days (calendar arithmetic, no zone). */
export function addDaysToDate(date: string, days: number): string {
  return dateOfNaive(naiveOfDate(date) + days * DAY);
}

/**
 * The end of the booking window: the local midnight (in `zone`) that ends the date `windowDays`
 * days after the local date of `now`. Slots start strictly before it.
 */
export function bookingWindowEnd(now: Date, windowDays: number, zone: string): Date {
  const lastDate = addDaysToDate(localDateOf(now, zone), windowDays);
  return new Date(naiveToInstant(naiveOfDate(lastDate) + DAY, zone));
}

/** A busy interval widened by buffers (an appointment of a course with its buffers). */
export function widenBusy(start: Date, end: Date, bufferBeforeMins: number, bufferAfterMins: number): BusyInterval {
  return {
    start: new Date(start.getTime() - bufferBeforeMins * MINUTE),
    end: new Date(end.getTime() + bufferAfterMins * MINUTE),
  };
}

/** Ranges of one date as [startMin, endMin] pairs: valid ones only, sorted, overlapping or touching ones joined. */
function normalizeRanges(ranges: readonly TimeRange[] | undefined): [number, number][] {
  if (!ranges?.length) return [];
  const pairs: [number, number][] = [];
  for (const r of ranges) {
    const start = wallTimeToMinutes(r.start);
    const end = wallTimeToMinutes(r.end, true);
    if (start !== null && end !== null && end > start) pairs.push([start, end]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const p of pairs) {
    const last = joined[joined.length - 1];
    if (last && p[0] <= last[1]) last[1] = Math.max(last[1], p[1]);
    else joined.push([p[0], p[1]]);
  }
  return joined;
}

/** Busy intervals as sorted, disjoint [start, end) pairs in ms. */
function mergeBusy(busy: readonly BusyInterval[]): { starts: number[]; ends: number[] } {
  const pairs: [number, number][] = [];
  for (const b of busy) {
    const s = b.start.getTime();
    const e = b.end.getTime();
    if (e > s) pairs.push([s, e]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const [s, e] of pairs) {
    const n = ends.length;
    if (n && s <= ends[n - 1]) ends[n - 1] = Math.max(ends[n - 1], e);
    else {
      starts.push(s);
      ends.push(e);
    }
  }
  return { starts, ends };
}

const positiveWhole = (v: number) => Number.isFinite(v) && v >= 1;
const nonNegative = (v: number) => Number.isFinite(v) && v >= 0;

/** The start times a student may book (see the rules at the top of this file). */
export function computeSlots(input: SlotInput): Date[] {
  const { zone, now, from, to } = input;
  if (!positiveWhole(input.incrementMins) || !positiveWhole(input.durationMins)) {
    throw new RangeError('computeSlots: incrementMins and durationMins must be at least 1');
  }
  if (![input.bufferBeforeMins, input.bufferAfterMins, input.minNoticeMins, input.windowDays].every(nonNegative)) {
    throw new RangeError('computeSlots: buffers, notice and window must be 0 or more');
  }
  if (!isValidTimeZone(zone)) throw new RangeError(`computeSlots: unknown time zone ${zone}`);
  if (![now, from, to].every((d) => Number.isFinite(d.getTime()))) return [];

  const inc = input.incrementMins * MINUTE;
  const dur = input.durationMins * MINUTE;
  const before = input.bufferBeforeMins * MINUTE;
  const after = input.bufferAfterMins * MINUTE;
  const lower = Math.max(from.getTime(), now.getTime() + input.minNoticeMins * MINUTE);
  const upper = Math.min(to.getTime(), bookingWindowEnd(now, input.windowDays, zone).getTime());
  if (!(lower < upper)) return [];

  const overrides = new Map<string, readonly TimeRange[]>();
  for (const o of input.overrides) overrides.set(o.date, o.ranges);
  const { starts: busyStarts, ends: busyEnds } = mergeBusy(input.busy);
  let b = 0; // the sweep's pointer: busy intervals before it end at or before the current need

  const offsets = new Map<number, number>();
  const offsetAround = (t: number) => {
    let o = offsets.get(t);
    if (o === undefined) offsets.set(t, (o = offsetMs(zone, t)));
    return o;
  };

  const slots: Date[] = [];
  let last = -Infinity;
  // A range of date D lies within [D 00:00, D+1 00:00], so only the dates of lower … upper matter.
  const lastNaive = naiveOfDate(localDateOf(upper - 1, zone));
  for (let naive = naiveOfDate(localDateOf(lower, zone)); naive <= lastNaive; naive += DAY) {
    const date = dateOfNaive(naive);
    const ranges = overrides.get(date) ?? input.weekly[WEEKDAYS[new Date(naive).getUTCDay()]];
    const joined = normalizeRanges(ranges);
    if (!joined.length) continue;
    // Reading the zone's offset costs ~10 µs (Intl): a date with the same offset a day before and
    // two days after it has no change (changes are months apart), so its wall times convert with
    // that one offset; only the dates around a change go through naiveToInstant's DST rule.
    const offset = offsetAround(naive - DAY);
    const steady = offset === offsetAround(naive + 2 * DAY);
    const instantOf = (minutes: number) =>
      steady ? naive + minutes * MINUTE - offset : naiveToInstant(naive + minutes * MINUTE, zone);
    for (const [startMin, endMin] of joined) {
      const rangeStart = instantOf(startMin);
      const rangeEnd = instantOf(endMin);
      let s = rangeStart + Math.max(0, Math.ceil((lower - rangeStart) / inc)) * inc;
      while (s + dur <= rangeEnd && s < upper) {
        const needStart = s - before;
        const needEnd = s + dur + after;
        if (b > 0 && busyEnds[b - 1] > needStart) b = 0; // never expected (starts only increase); stay correct
        while (b < busyEnds.length && busyEnds[b] <= needStart) b++;
        if (b < busyStarts.length && busyStarts[b] < needEnd) {
          // Blocked: jump to the first grid start whose buffer clears this busy interval.
          const next = rangeStart + Math.ceil((busyEnds[b] + before - rangeStart) / inc) * inc;
          s = Math.max(next, s + inc);
          continue;
        }
        if (s > last) {
          slots.push(new Date(s));
          last = s;
        }
        s += inc;
      }
    }
  }
  return slots;
}

/** The booking check: whether `start` is one of the slots `computeSlots` offers for this input. */
export function isSlotOffered(input: Omit<SlotInput, 'from' | 'to'>, start: Date): boolean {
  const t = start.getTime();
  if (!Number.isFinite(t)) return false;
  const slots = computeSlots({ ...input, from: start, to: new Date(t + 1) });
  return slots.length === 1 && slots[0].getTime() === t;
}

/* ---- For the store calendar: slots read in the student's zone (which may differ from the location's). ---- */

export interface SlotDay {
  /** Local date in the display zone, 'yyyy-MM-dd'. */
  date: string;
  slots: Date[];
}

/** Slots grouped by their local date in `displayZone`, dates ascending (slots keep their order). */
export function groupSlotsByDate(slots: readonly Date[], displayZone: string): SlotDay[] {
  const days: SlotDay[] = [];
  const byDate = new Map<string, SlotDay>();
  for (const slot of slots) {
    const date = localDateOf(slot, displayZone);
    let day = byDate.get(date);
    if (!day) {
      day = { date, slots: [] };
      byDate.set(date, day);
      days.push(day);
    }
    day.slots.push(slot);
  }
  return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The local dates ('yyyy-MM-dd') of month `month` ('yyyy-MM') in `displayZone` that have at least one slot. */
export function slotDaysInMonth(slots: readonly Date[], month: string, displayZone: string): string[] {
  return groupSlotsByDate(slots, displayZone)
    .map((d) => d.date)
    .filter((date) => date.startsWith(`${month}-`));
}

/**
 * The instants bounding month `month` ('yyyy-MM') in `zone`: from its first local midnight to the
 * first local midnight of the next month (what the store asks the slots call for a month view).
 */
export function localMonthBounds(month: string, zone: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match || !isWallDate(`${month}-01`)) return null;
  const y = Number(match[1]);
  const m = Number(match[2]);
  return {
    from: new Date(naiveToInstant(Date.UTC(y, m - 1, 1), zone)),
    to: new Date(naiveToInstant(Date.UTC(y, m, 1), zone)),
  };
}
