import { SCHEDULING_MESSAGES as M } from './scheduling-messages';
import {
  defaultScheduleRows,
  eventScheduleFormSchema,
  eventScheduleSchema,
  eventUpdateFormSchema,
  eventUpdateSchema,
  guestCountSchema,
  neutraliseCsvCell,
  SCHEDULE_DURATION_OPTIONS_MINS,
} from './scheduling.schema';

const fields = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const ids = { a: '7f0c2b9e-3a52-4b7e-9f5e-2f4b8b7f6a11' };
const base = {
  activity_id: ids.a,
  instructor_id: ids.a,
  location_id: ids.a,
  dates: [{ date: '2026-12-01', time: '09:00', duration: 60 }],
};

describe('schedule course rules (spec 000 §5)', () => {
  it('asks to complete a row with a missing part', () => {
    expect(fields(eventScheduleSchema.safeParse({ ...base, dates: [{ date: '2026-12-01', time: '', duration: 60 }] }))).toEqual({
      'dates.0': M.completeDayFields,
    });
    expect(fields(eventScheduleSchema.safeParse({ ...base, dates: [] }))).toEqual({ dates: M.completeDayFields });
  });

  it('refuses impossible dates and durations off the list', () => {
    expect(fields(eventScheduleSchema.safeParse({ ...base, dates: [{ date: '2026-02-30', time: '09:00', duration: 60 }] }))).toEqual({
      'dates.0': M.invalidDate,
    });
    expect(fields(eventScheduleSchema.safeParse({ ...base, dates: [{ date: '2026-02-03', time: '09:00', duration: 50 }] }))).toEqual({
      'dates.0': M.invalidDate,
    });
  });

  it('checks the price override and capacity', () => {
    expect(fields(eventScheduleSchema.safeParse({ ...base, price: 0, capacity: 0 }))).toEqual({
      price: M.schedulePrice,
      capacity: M.scheduleCapacity,
    });
    expect(eventScheduleFormSchema.parse({ ...base, price: '12.50' }).price).toBe(1250);
    expect(fields(eventScheduleFormSchema.safeParse({ ...base, price: '12.505' }))).toEqual({ price: M.schedulePrice });
    expect(eventScheduleSchema.parse({ ...base, price: '', capacity: '' })).toMatchObject({ price: undefined, capacity: undefined });
  });

  it('offers the spec’s durations', () => {
    expect(SCHEDULE_DURATION_OPTIONS_MINS.slice(0, 3)).toEqual([15, 30, 45]);
    expect(SCHEDULE_DURATION_OPTIONS_MINS).toContain(240);
    expect(SCHEDULE_DURATION_OPTIONS_MINS).toContain(270);
    expect(SCHEDULE_DURATION_OPTIONS_MINS).not.toContain(255);
    expect(SCHEDULE_DURATION_OPTIONS_MINS.at(-1)).toBe(1440);
  });

  it('spaces later days by days-apart with 09:00 and 60 minutes', () => {
    expect(defaultScheduleRows('2026-12-30', { days: 3, daysApart: 2 })).toEqual([
      { date: '2026-12-30', time: '09:00', duration: 60 },
      { date: '2027-01-01', time: '09:00', duration: 60 },
      { date: '2027-01-03', time: '09:00', duration: 60 },
    ]);
  });
});

describe('edit event dialog (spec 001 §5)', () => {
  it.each([
    [{ capacity: '', price: '10' }, { capacity: M.capacityEmpty }],
    [{ capacity: '2.5', price: '10' }, { capacity: M.capacityWhole }],
    [{ capacity: 'abc', price: '10' }, { capacity: M.capacityWhole }],
    [{ capacity: '0', price: '10' }, { capacity: M.capacityMin }],
    [{ capacity: '5', price: '' }, { price: M.priceEmpty }],
    [{ capacity: '5', price: '10.999' }, { price: M.priceCurrency }],
    [{ capacity: '5', price: 'ten' }, { price: M.priceCurrency }],
    [{ capacity: '5', price: '0.00' }, { price: M.pricePositive }],
    [{ capacity: '5', price: '450.99' }, {}],
  ])('%p', (input, expected) => {
    expect(fields(eventUpdateFormSchema.safeParse(input))).toEqual(expected);
  });

  it('sends cents to the API, which applies the same rules', () => {
    expect(eventUpdateFormSchema.parse({ capacity: '5', price: '$450.99' })).toEqual({ capacity: 5, price: 45099 });
    expect(fields(eventUpdateSchema.safeParse({ capacity: 5, price: 0 }))).toEqual({ price: M.pricePositive });
    expect(fields(eventUpdateSchema.safeParse({ capacity: null, price: 100 }))).toEqual({ capacity: M.capacityEmpty });
  });
});

describe('guest count and CSV cells', () => {
  it('takes whole numbers from 0', () => {
    expect(guestCountSchema.parse({ guestCount: '3' })).toEqual({ guestCount: 3 });
    expect(fields(guestCountSchema.safeParse({ guestCount: -1 }))).toEqual({ guestCount: M.guestCountMin });
    expect(fields(guestCountSchema.safeParse({ guestCount: 1.5 }))).toEqual({ guestCount: M.guestCountMin });
  });

  it('neutralises cells a spreadsheet would run', () => {
    for (const cell of ['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx']) expect(neutraliseCsvCell(cell)).toBe(`'${cell}`);
    expect(neutraliseCsvCell('Ana')).toBe('Ana');
  });
});
