import { COURSE_MESSAGES } from '../catalog/course-messages';
import { SCHEDULING_MESSAGES as M } from './scheduling-messages';
import {
  defaultScheduleRows,
  eventScheduleFormSchema,
  eventScheduleSchema,
  eventUpdateFormSchema,
  eventUpdateFormSchemaFor,
  eventUpdateSchema,
  eventUpdateSchemaFor,
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
    const form = { ...base, course_name: 'Wheel throwing' };
    expect(eventScheduleFormSchema.parse({ ...form, override_price: true, price: '12.50' }).price).toBe(1250);
    expect(fields(eventScheduleFormSchema.safeParse({ ...form, override_price: true, price: '12.505' }))).toEqual({ price: M.schedulePrice });
    // An override sent to the API must be a real price; leaving the field out keeps the course's price.
    expect(fields(eventScheduleSchema.safeParse({ ...base, price: '', capacity: null }))).toEqual({
      price: M.schedulePrice,
      capacity: M.scheduleCapacity,
    });
    expect(eventScheduleSchema.parse(base)).not.toHaveProperty('price');
  });

  it('requires the price when the override is on, and the capacity when it is set', () => {
    const form = { ...base, course_name: 'Wheel throwing' };
    expect(fields(eventScheduleFormSchema.safeParse({ ...form, override_price: true, price: '' }))).toEqual({
      price: M.schedulePriceRequired,
    });
    expect(fields(eventScheduleFormSchema.safeParse({ ...form, set_capacity: true, capacity: '' }))).toEqual({
      capacity: M.scheduleCapacity,
    });
    // Shown together with other mistakes, not after them.
    expect(fields(eventScheduleFormSchema.safeParse({ ...form, location_id: undefined, override_price: true, price: '' }))).toEqual({
      location_id: M.locationRequired,
      price: M.schedulePriceRequired,
    });
    // Toggles off: whatever the fields hold stays out of the payload.
    const off = eventScheduleFormSchema.parse({ ...form, override_price: false, price: '99', set_capacity: false, capacity: 3 });
    expect(off).not.toHaveProperty('price');
    expect(off).not.toHaveProperty('capacity');
    expect(off).not.toHaveProperty('override_price');
  });

  it('ignores a price or capacity that is switched off instead of refusing it (issue 19)', () => {
    const form = { ...base, course_name: 'Wheel throwing' };
    const off = eventScheduleFormSchema.safeParse({ ...form, override_price: false, price: '12.505', set_capacity: false, capacity: 0 });
    expect(fields(off)).toEqual({});
    expect(off.data).not.toHaveProperty('price');
    expect(off.data).not.toHaveProperty('capacity');
    expect(fields(eventScheduleFormSchema.safeParse({ ...form, price: 'abc', capacity: 'many' }))).toEqual({});
  });

  it('requires the name (spec 001 §2), in the form and in the API when sent', () => {
    expect(fields(eventScheduleFormSchema.safeParse({ ...base, course_name: '  ' }))).toEqual({ course_name: COURSE_MESSAGES.nameRequired });
    expect(fields(eventScheduleSchema.safeParse({ ...base, course_name: '' }))).toEqual({ course_name: COURSE_MESSAGES.nameRequired });
    expect(eventScheduleSchema.parse(base)).not.toHaveProperty('course_name');
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
    expect(fields(eventUpdateSchemaFor(false).safeParse({ capacity: 5, price: 0 }))).toEqual({ price: M.pricePositive });
    expect(fields(eventUpdateSchemaFor(false).safeParse({ capacity: 5 }))).toEqual({ price: M.priceEmpty });
    expect(fields(eventUpdateSchema.safeParse({ capacity: null, price: 100 }))).toEqual({ capacity: M.capacityEmpty });
  });

  it('lets a free session keep no price (or 0) while its capacity changes', () => {
    const free = eventUpdateFormSchemaFor(true);
    expect(free.parse({ capacity: '20', price: '' })).toEqual({ capacity: 20, price: undefined });
    expect(free.parse({ capacity: '20', price: '0.00' })).toEqual({ capacity: 20, price: 0 });
    expect(free.parse({ capacity: '20', price: '15' })).toEqual({ capacity: 20, price: 1500 });
    expect(fields(free.safeParse({ capacity: '20', price: '1.999' }))).toEqual({ price: M.priceCurrency });
    expect(eventUpdateSchemaFor(true).parse({ capacity: 20 })).toEqual({ capacity: 20 });
    expect(fields(eventUpdateSchemaFor(true).safeParse({ capacity: 20, price: -1 }))).toEqual({ price: M.priceInvalid });
  });
});

describe('guest count and CSV cells', () => {
  it('takes whole numbers from 0', () => {
    expect(guestCountSchema.parse({ guestCount: '3' })).toEqual({ guestCount: 3 });
    expect(fields(guestCountSchema.safeParse({ guestCount: -1 }))).toEqual({ guestCount: M.guestCountMin });
    expect(fields(guestCountSchema.safeParse({ guestCount: 1.5 }))).toEqual({ guestCount: M.guestCountMin });
  });

  it('neutralises cells a spreadsheet would run', () => {
    for (const cell of ['=SUM(A1)', '+1', '-2', '@cmd', '\tx', '\rx', '+cmd|\' /C calc\'!A0']) expect(neutraliseCsvCell(cell)).toBe(`'${cell}`);
    expect(neutraliseCsvCell('Ana')).toBe('Ana');
    expect(neutraliseCsvCell('ana@clay.test')).toBe('ana@clay.test');
  });

  it('neutralises a formula after ; or , too (semicolon-separated locales split the cell there)', () => {
    expect(neutraliseCsvCell('Ana;=HYPERLINK("http://evil")')).toBe('Ana;\'=HYPERLINK("http://evil")');
    expect(neutraliseCsvCell('Ana, =1+1')).toBe("Ana, '=1+1");
    expect(neutraliseCsvCell('a;+b,-c;@d')).toBe("a;'+b,'-c;'@d");
    expect(neutraliseCsvCell('x;\ty')).toBe("x;'\ty");
    expect(neutraliseCsvCell('12 Main St, Apt 4')).toBe('12 Main St, Apt 4');
  });

  it('leaves phone numbers readable', () => {
    for (const phone of ['+1 212 555 0118', '+44 (20) 7946-0958', '212.555.0118', '2125550118']) expect(neutraliseCsvCell(phone)).toBe(phone);
    // Not phone-shaped: short, or with anything a formula could use.
    expect(neutraliseCsvCell('+1-2')).toBe("'+1-2");
    expect(neutraliseCsvCell('+1 212 555 0118+A1')).toBe("'+1 212 555 0118+A1");
    expect(neutraliseCsvCell('-2125550118')).toBe("'-2125550118");
  });
});
