import fc from 'fast-check';
import { type DateOverride, type TimeRange, type WeeklyHours, WEEKDAYS } from './availability.schema';
import { type BusyInterval, computeSlots, type SlotInput } from './slots';

/*
 * Property-based tests of the slot engine against a naive reference written here, independently of
 * the engine: the reference reads wall clocks straight from Intl, one instant every 5 minutes (every
 * change of the zones below falls on a 5-minute mark, and every generated time is on one), turns a
 * wall time into "the first instant at which the local clock shows it or later" by scanning, and
 * checks every rule interval by interval with no sorting or sweeping.
 */

const FIVE = 5 * 60_000;
const DAY = 86_400_000;

// Zones with changes of an hour and of half an hour, a half-hour offset, the southern hemisphere, and
// none; each with the days before its 2027 changes (the periods start there) and an ordinary day.
const ZONES: Record<string, string[]> = {
  'America/New_York': ['2027-03-13', '2027-11-06', '2027-06-15'],
  'Europe/London': ['2027-03-27', '2027-10-30', '2027-06-15'],
  'Australia/Lord_Howe': ['2027-04-03', '2027-10-02', '2027-06-15'],
  'America/St_Johns': ['2027-03-13', '2027-11-06', '2027-06-15'],
  'Asia/Kolkata': ['2027-03-13', '2027-06-15'],
  UTC: ['2027-10-30'],
};

/* ---------- the reference ---------- */

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallOf(t: number, zone: string): { date: string; min: number } {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, min: Number(p.hour) * 60 + Number(p.minute) };
}

const dateKey = (naive: number) => new Date(naive).toISOString().slice(0, 10);
const naiveOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const toMin = (time: string) => (time === '24:00' ? 1440 : Number(time.slice(0, 2)) * 60 + Number(time.slice(3)));

function reference(input: SlotInput) {
  const { zone } = input;
  const cache = new Map<number, { date: string; min: number }>();
  const wall = (t: number) => {
    let w = cache.get(t);
    if (!w) cache.set(t, (w = wallOf(t, zone)));
    return w;
  };
  /** First instant (on the 5-minute marks) at which the local clock shows (date, min) or later. */
  const instantOf = (date: string, min: number) => {
    let t = naiveOf(date) + min * 60_000 - 16 * 3_600_000; // before any offset could put it
    for (;;) {
      const w = wall(t);
      if (w.date > date || (w.date === date && w.min >= min)) return t;
      t += FIVE;
    }
  };
  const rangesOf = (date: string): [number, number][] => {
    const override = input.overrides.find((o) => o.date === date);
    const ranges = override ? override.ranges : (input.weekly[WEEKDAYS[new Date(naiveOf(date)).getUTCDay()]] ?? []);
    // Touching or overlapping ranges of one day are one range.
    const sorted = ranges.map((r) => [toMin(r.start), toMin(r.end)] as [number, number]).sort((a, b) => a[0] - b[0]);
    const out: [number, number][] = [];
    for (const r of sorted) {
      if (out.length && r[0] <= out[out.length - 1][1]) out[out.length - 1][1] = Math.max(out[out.length - 1][1], r[1]);
      else out.push([...r]);
    }
    return out;
  };

  const now = input.now.getTime();
  // The window ends at the local midnight after the date windowDays days after today's local date.
  const today = wallOf(now, zone).date;
  const windowEnd = instantOf(dateKey(naiveOf(today) + (input.windowDays + 1) * DAY), 0);

  const dur = input.durationMins * 60_000;
  const inc = input.incrementMins * 60_000;
  /** Every grid start inside a range, before the other rules. */
  const candidates: number[] = [];
  const firstDate = wall(input.from.getTime() - (input.from.getTime() % FIVE)).date;
  for (let naive = naiveOf(firstDate) - DAY; naive <= input.to.getTime() + 2 * DAY; naive += DAY) {
    const date = dateKey(naive);
    for (const [a, b] of rangesOf(date)) {
      const start = instantOf(date, a);
      const end = instantOf(date, b);
      for (let s = start; s + dur <= end; s += inc) candidates.push(s);
    }
  }
  const busy = input.busy.map((b) => [b.start.getTime(), b.end.getTime()]);
  const free = (s: number) =>
    busy.every(([bs, be]) => !(s - input.bufferBeforeMins * 60_000 < be && bs < s + dur + input.bufferAfterMins * 60_000));
  const ok = (s: number) =>
    free(s) &&
    s >= now + input.minNoticeMins * 60_000 &&
    s < windowEnd &&
    s >= input.from.getTime() &&
    s < input.to.getTime();
  return { candidates: new Set(candidates), slots: [...new Set(candidates.filter(ok))].sort((x, y) => x - y), windowEnd, free };
}

/* ---------- generators ---------- */

// Wall times on 5-minute marks (often quarter hours), often inside the small hours where the changes are.
const wallMin = fc.oneof(
  fc.integer({ min: 0, max: 288 }).map((x) => x * 5),
  fc.integer({ min: 0, max: 96 }).map((x) => x * 15),
  fc.integer({ min: 0, max: 48 }).map((x) => 60 + x * 5),
);
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
/** 0–3 ranges of one day, sorted, not overlapping (touching allowed), in any order. */
const dayRanges = fc
  .array(wallMin, { minLength: 0, maxLength: 6 })
  .chain((points) => {
    const sorted = [...points].sort((a, b) => a - b);
    const ranges: TimeRange[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) {
      if (sorted[i + 1] > sorted[i]) ranges.push({ start: hhmm(sorted[i]), end: hhmm(sorted[i + 1]) });
    }
    return fc.shuffledSubarray(ranges, { minLength: ranges.length, maxLength: ranges.length });
  });

const scenario = fc
  .record({
    zoneAndBase: fc
      .constantFrom(...Object.keys(ZONES))
      .chain((zone) => fc.tuple(fc.constant(zone), fc.constantFrom(...ZONES[zone].map((d) => Date.parse(`${d}T00:00:00Z`))))),
    fromOffsetMin: fc.integer({ min: 0, max: 24 * 60 }),
    spanMin: fc.integer({ min: 60, max: 3 * 24 * 60 }),
    nowOffsetMin: fc.integer({ min: -3 * 24 * 60, max: 2 * 24 * 60 }),
    weekly: fc.tuple(...WEEKDAYS.map(() => dayRanges)),
    overrides: fc.array(fc.record({ dayIndex: fc.integer({ min: -1, max: 4 }), ranges: dayRanges }), { maxLength: 3 }),
    busy: fc.array(
      fc.record({
        startMin: fc.integer({ min: -24 * 60, max: 5 * 24 * 60 }),
        lengthMin: fc.oneof(fc.integer({ min: 1, max: 240 }), fc.integer({ min: 1, max: 16 }).map((x) => x * 15)),
      }),
      { maxLength: 25 },
    ),
    durationMins: fc.constantFrom(5, 15, 30, 45, 60, 90, 120, 240),
    incrementMins: fc.constantFrom(15, 30, 60),
    bufferBeforeMins: fc.constantFrom(0, 5, 10, 15, 30, 60),
    bufferAfterMins: fc.constantFrom(0, 5, 10, 15, 30, 60),
    minNoticeMins: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 * 24 * 60 })),
    windowDays: fc.integer({ min: 0, max: 6 }),
  })
  .map((r): SlotInput => {
    const [zone, base] = r.zoneAndBase;
    const from = base + r.fromOffsetMin * 60_000;
    const overrides = new Map<string, DateOverride>();
    for (const o of r.overrides) {
      const date = dateKey(base + (o.dayIndex + Math.floor(r.fromOffsetMin / 1440)) * DAY);
      overrides.set(date, { date, ranges: o.ranges });
    }
    const busy: BusyInterval[] = r.busy.map((b) => {
      // Busy intervals mostly on quarter hours, so they often touch slots (with their buffers) exactly.
      const start = base + Math.round(b.startMin / 15) * 15 * 60_000;
      return { start: new Date(start), end: new Date(start + b.lengthMin * 60_000) };
    });
    return {
      zone,
      weekly: Object.fromEntries(WEEKDAYS.map((d, i) => [d, r.weekly[i]])) as WeeklyHours,
      overrides: [...overrides.values()],
      busy,
      durationMins: r.durationMins,
      incrementMins: r.incrementMins,
      bufferBeforeMins: r.bufferBeforeMins,
      bufferAfterMins: r.bufferAfterMins,
      minNoticeMins: r.minNoticeMins,
      windowDays: r.windowDays,
      now: new Date(from + r.nowOffsetMin * 60_000 + 37_000),
      from: new Date(from),
      to: new Date(from + r.spanMin * 60_000),
    };
  });

/* ---------- the properties ---------- */

describe('computeSlots against a naive reference (fast-check)', () => {
  it('offers exactly the grid starts inside availability that are free, far enough away and in the window', () => {
    let offered = 0;
    fc.assert(
      fc.property(scenario, (input) => {
        const slots = computeSlots(input).map((d) => d.getTime());
        const ref = reference(input);
        offered += slots.length;
        for (let i = 0; i < slots.length; i++) {
          const s = slots[i];
          // sorted and unique
          if (i > 0) expect(s).toBeGreaterThan(slots[i - 1]);
          // aligned to a range's grid and, with its duration, inside that range
          expect(ref.candidates.has(s)).toBe(true);
          // the duration plus buffers overlap no busy interval
          expect(ref.free(s)).toBe(true);
          // at least the notice away, inside the window and the asked period
          expect(s).toBeGreaterThanOrEqual(input.now.getTime() + input.minNoticeMins * 60_000);
          expect(s).toBeLessThan(ref.windowEnd);
          expect(s).toBeGreaterThanOrEqual(input.from.getTime());
          expect(s).toBeLessThan(input.to.getTime());
        }
        // complete: every start the reference allows is offered
        expect(slots).toEqual(ref.slots);
      }),
      { numRuns: 200 },
    );
    // The generators do produce slots (a property over empty answers would prove nothing).
    expect(offered).toBeGreaterThan(200);
  });
});
