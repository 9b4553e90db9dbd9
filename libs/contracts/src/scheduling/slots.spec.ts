import { formatInZone, wallClockToUtc, zoneAbbreviation } from '../time';
import { type WeeklyHours } from './availability.schema';
import {
  bookingWindowEnd,
  computeSlots,
  groupSlotsByDate,
  isSlotOffered,
  localMonthBounds,
  type SlotInput,
  slotDaysInMonth,
  wallClockToInstant,
  widenBusy,
} from './slots';

const NY = 'America/New_York';
const LONDON = 'Europe/London';

const everyDay = (start: string, end: string): WeeklyHours =>
  Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [{ start, end }]]));

const at = (date: string, time: string, zone: string) => wallClockToInstant(date, time, zone)!;

function input(zone: string, fromDate: string, toDate: string, over: Partial<SlotInput> = {}): SlotInput {
  return {
    weekly: everyDay('09:00', '12:00'),
    overrides: [],
    zone,
    durationMins: 60,
    bufferBeforeMins: 0,
    bufferAfterMins: 0,
    incrementMins: 60,
    minNoticeMins: 0,
    windowDays: 365,
    now: new Date('2027-01-01T00:00:00Z'),
    from: at(fromDate, '00:00', zone),
    to: at(toDate, '00:00', zone),
    busy: [],
    ...over,
  };
}

/** Slots as the location reads them: "2027-03-14 09:00 EDT". */
const local = (slots: Date[], zone: string) =>
  slots.map((s) => `${formatInZone(s, 'yyyy-MM-dd HH:mm', zone)} ${zoneAbbreviation(s, zone)}`);
const times = (slots: Date[], zone: string) => slots.map((s) => formatInZone(s, 'HH:mm', zone));

describe('the DST rule: a wall time is the first instant at which the local clock shows it or later', () => {
  it('moves a time in the spring gap to the first instant after it, and takes the first of a time that occurs twice', () => {
    // New York, 2027-03-14: 2:00 EST jumps to 3:00 EDT (07:00Z).
    expect(at('2027-03-14', '02:30', NY).toISOString()).toBe('2027-03-14T07:00:00.000Z');
    expect(at('2027-03-14', '02:00', NY).toISOString()).toBe('2027-03-14T07:00:00.000Z');
    expect(at('2027-03-14', '03:00', NY).toISOString()).toBe('2027-03-14T07:00:00.000Z');
    // New York, 2027-11-07: 1:30 happens at 05:30Z (EDT) and again at 06:30Z (EST): the first.
    expect(at('2027-11-07', '01:30', NY).toISOString()).toBe('2027-11-07T05:30:00.000Z');
    // London, 2027-03-28: 1:00 GMT jumps to 2:00 BST (01:00Z).
    expect(at('2027-03-28', '01:30', LONDON).toISOString()).toBe('2027-03-28T01:00:00.000Z');
    // London, 2027-10-31: 1:30 happens at 00:30Z (BST) and again at 01:30Z (GMT): the first.
    expect(at('2027-10-31', '01:30', LONDON).toISOString()).toBe('2027-10-31T00:30:00.000Z');
    expect(at('2027-10-31', '24:00', LONDON).toISOString()).toBe('2027-11-01T00:00:00.000Z');
  });

  it("sessions' wallClockToUtc follows the same rule: a session and an opening at one wall time are one instant", () => {
    // The gap: 2:30 does not exist on 2027-03-14 in New York; both give 3:00 EDT (it once gave 3:30).
    expect(wallClockToUtc('2027-03-14', '02:30', NY)!.toISOString()).toBe('2027-03-14T07:00:00.000Z');
    // London's repeated 1:30: both take the first, 00:30Z BST (it once took the later 01:30Z).
    expect(wallClockToUtc('2027-10-31', '01:30', LONDON)!.toISOString()).toBe('2027-10-31T00:30:00.000Z');
    for (const [date, time, zone] of [
      ['2027-11-07', '01:30', NY],
      ['2027-03-14', '09:00', NY],
      ['2027-03-28', '01:30', LONDON],
      ['2027-10-31', '23:45', LONDON],
    ] as const)
      expect(wallClockToUtc(date, time, zone)!.getTime()).toBe(at(date, time, zone).getTime());
    expect(wallClockToUtc('2027-03-14', '09:00', 'Not/AZone')).toBeNull();
  });

  it('refuses dates and times that are not', () => {
    expect(wallClockToInstant('2027-02-29', '09:00', NY)).toBeNull();
    expect(wallClockToInstant('2027-02-01', '24:01', NY)).toBeNull();
  });
});

describe('computeSlots across daylight-saving changes', () => {
  it.each([
    [NY, '2027-03-13', '2027-03-16'],
    [NY, '2027-11-06', '2027-11-09'],
    [LONDON, '2027-03-27', '2027-03-30'],
    [LONDON, '2027-10-30', '2027-11-02'],
  ])('a 9:00–12:00 range in %s gives 9:00, 10:00 and 11:00 local on the change day and the days around it (%s)', (zone, from, to) => {
    const slots = computeSlots(input(zone, from, to));
    expect(times(slots, zone)).toEqual(['09:00', '10:00', '11:00', '09:00', '10:00', '11:00', '09:00', '10:00', '11:00']);
  });

  it('a 1:00–4:00 range on the spring day in New York is two real hours: 1:00 and 1:30 EST, then 3:00 and 3:30 EDT', () => {
    const slots = computeSlots(
      input(NY, '2027-03-14', '2027-03-15', { weekly: everyDay('01:00', '04:00'), durationMins: 30, incrementMins: 30 }),
    );
    expect(local(slots, NY)).toEqual([
      '2027-03-14 01:00 EST',
      '2027-03-14 01:30 EST',
      '2027-03-14 03:00 EDT',
      '2027-03-14 03:30 EDT',
    ]);
  });

  it('a range opening inside the spring gap opens when the gap ends (2:30 → 3:00 EDT)', () => {
    const slots = computeSlots(
      input(NY, '2027-03-14', '2027-03-15', { weekly: everyDay('02:30', '04:00'), durationMins: 30, incrementMins: 30 }),
    );
    expect(local(slots, NY)).toEqual(['2027-03-14 03:00 EDT', '2027-03-14 03:30 EDT']);
    const london = computeSlots(
      input(LONDON, '2027-03-28', '2027-03-29', { weekly: everyDay('01:30', '03:00'), durationMins: 30, incrementMins: 30 }),
    );
    expect(local(london, LONDON)).toEqual(['2027-03-28 02:00 BST', '2027-03-28 02:30 BST']);
  });

  it('a 1:00–4:00 range on the autumn day in New York is four real hours, 1:00 EDT then 1:00 EST', () => {
    const slots = computeSlots(input(NY, '2027-11-07', '2027-11-08', { weekly: everyDay('01:00', '04:00') }));
    expect(slots.map((s) => s.toISOString())).toEqual([
      '2027-11-07T05:00:00.000Z',
      '2027-11-07T06:00:00.000Z',
      '2027-11-07T07:00:00.000Z',
      '2027-11-07T08:00:00.000Z',
    ]);
    expect(local(slots, NY)).toEqual(['2027-11-07 01:00 EDT', '2027-11-07 01:00 EST', '2027-11-07 02:00 EST', '2027-11-07 03:00 EST']);
  });

  it('a range opening at a time London sees twice opens at the first (1:30 BST)', () => {
    const slots = computeSlots(input(LONDON, '2027-10-31', '2027-11-01', { weekly: everyDay('01:30', '03:00') }));
    expect(local(slots, LONDON)).toEqual(['2027-10-31 01:30 BST', '2027-10-31 01:30 GMT']);
  });
});

describe('computeSlots rules', () => {
  // 2027-06-07 is a Monday.
  it('an empty override closes the day; other overrides replace the weekly hours or add a day', () => {
    const weekly: WeeklyHours = { mon: [{ start: '09:00', end: '11:00' }], tue: [{ start: '09:00', end: '11:00' }] };
    const slots = computeSlots(
      input(NY, '2027-06-06', '2027-06-10', {
        weekly,
        overrides: [
          { date: '2027-06-06', ranges: [{ start: '10:00', end: '11:00' }] }, // a Sunday, closed weekly
          { date: '2027-06-07', ranges: [] },
          { date: '2027-06-08', ranges: [{ start: '14:00', end: '15:00' }] },
        ],
      }),
    );
    expect(local(slots, NY)).toEqual(['2027-06-06 10:00 EDT', '2027-06-08 14:00 EDT']);
  });

  it('keeps the duration plus buffers clear of busy time; touching is not overlapping', () => {
    const busy = [{ start: at('2027-06-07', '10:15', NY), end: at('2027-06-07', '10:45', NY) }];
    const slots = computeSlots(
      input(NY, '2027-06-07', '2027-06-08', { busy, incrementMins: 30, bufferBeforeMins: 15, bufferAfterMins: 15 }),
    );
    // 9:00 needs 8:45–10:15 and 11:00 needs 10:45–12:15: both touch the busy half hour.
    expect(times(slots, NY)).toEqual(['09:00', '11:00']);
    const wider = computeSlots(
      input(NY, '2027-06-07', '2027-06-08', { busy, incrementMins: 30, bufferBeforeMins: 20, bufferAfterMins: 15 }),
    );
    expect(times(wider, NY)).toEqual(['09:00']);
  });

  it('widenBusy adds the buffers of the busy appointment’s own course', () => {
    const w = widenBusy(at('2027-06-07', '10:00', NY), at('2027-06-07', '11:00', NY), 10, 20);
    expect(times([w.start, w.end], NY)).toEqual(['09:50', '11:20']);
  });

  it('offers nothing sooner than the minimum notice', () => {
    const slots = computeSlots(
      input(NY, '2027-06-07', '2027-06-08', {
        durationMins: 30,
        incrementMins: 30,
        minNoticeMins: 60,
        now: at('2027-06-07', '09:10', NY),
      }),
    );
    expect(times(slots, NY)).toEqual(['10:30', '11:00', '11:30']);
  });

  it('the booking window ends at the local midnight after its last day', () => {
    const now = at('2027-06-01', '10:00', NY);
    expect(bookingWindowEnd(now, 2, NY).toISOString()).toBe(at('2027-06-04', '00:00', NY).toISOString());
    const slots = computeSlots(
      input(NY, '2027-06-01', '2027-06-10', { now, windowDays: 2, weekly: everyDay('22:00', '24:00') }),
    );
    expect(local(slots, NY)).toEqual([
      '2027-06-01 22:00 EDT',
      '2027-06-01 23:00 EDT',
      '2027-06-02 22:00 EDT',
      '2027-06-02 23:00 EDT',
      '2027-06-03 22:00 EDT',
      '2027-06-03 23:00 EDT',
    ]);
  });

  it('aligns to the start of the range, joins touching ranges of a day, and keeps days apart at midnight', () => {
    const weekly: WeeklyHours = {
      mon: [
        { start: '12:00', end: '15:00' },
        { start: '09:10', end: '12:00' },
        { start: '22:00', end: '24:00' },
      ],
      tue: [{ start: '00:00', end: '02:00' }],
    };
    const slots = computeSlots(input(NY, '2027-06-07', '2027-06-09', { weekly, durationMins: 120, incrementMins: 30 }));
    expect(local(slots, NY)).toEqual([
      ...['09:10', '09:40', '10:10', '10:40', '11:10', '11:40', '12:10', '12:40'].map((t) => `2027-06-07 ${t} EDT`),
      '2027-06-07 22:00 EDT',
      '2027-06-08 00:00 EDT',
    ]);
    // Three hours from 22:00 on Monday would cross midnight: never offered.
    const threeHours = computeSlots(input(NY, '2027-06-07', '2027-06-09', { weekly, durationMins: 180, incrementMins: 30 }));
    expect(local(threeHours, NY)).toEqual(
      ['09:10', '09:40', '10:10', '10:40', '11:10', '11:40'].map((t) => `2027-06-07 ${t} EDT`),
    );
  });

  it('answers only between from and to, and the booking check agrees', () => {
    const base = input(NY, '2027-06-07', '2027-06-08', { incrementMins: 30 });
    const slots = computeSlots({ ...base, from: at('2027-06-07', '09:30', NY), to: at('2027-06-07', '10:30', NY) });
    expect(times(slots, NY)).toEqual(['09:30', '10:00']);
    expect(isSlotOffered(base, at('2027-06-07', '10:30', NY))).toBe(true);
    expect(isSlotOffered(base, at('2027-06-07', '10:15', NY))).toBe(false);
    expect(isSlotOffered(base, at('2027-06-07', '11:30', NY))).toBe(false);
    const busy = [{ start: at('2027-06-07', '11:00', NY), end: at('2027-06-07', '11:30', NY) }];
    expect(isSlotOffered({ ...base, busy }, at('2027-06-07', '10:30', NY))).toBe(false);
  });
});

describe('slots in the student’s zone', () => {
  // 9:00, 10:00 and 11:00 EDT on June 30 are 22:00 and 23:00 on June 30 and 0:00 on July 1 in Tokyo.
  const slots = computeSlots(input(NY, '2027-06-30', '2027-07-01'));
  it('groups slots by their local date in the display zone', () => {
    const days = groupSlotsByDate(slots, 'Asia/Tokyo');
    expect(days.map((d) => [d.date, times(d.slots, 'Asia/Tokyo')])).toEqual([
      ['2027-06-30', ['22:00', '23:00']],
      ['2027-07-01', ['00:00']],
    ]);
    expect(groupSlotsByDate(slots, NY).map((d) => d.date)).toEqual(['2027-06-30']);
  });

  it('lists the days of a month with a slot, and the bounds of a month in a zone', () => {
    expect(slotDaysInMonth(slots, '2027-06', 'Asia/Tokyo')).toEqual(['2027-06-30']);
    expect(slotDaysInMonth(slots, '2027-07', 'Asia/Tokyo')).toEqual(['2027-07-01']);
    const bounds = localMonthBounds('2027-03', LONDON)!;
    expect([bounds.from.toISOString(), bounds.to.toISOString()]).toEqual([
      '2027-03-01T00:00:00.000Z',
      '2027-03-31T23:00:00.000Z',
    ]);
    expect(localMonthBounds('2027-13', LONDON)).toBeNull();
  });
});
