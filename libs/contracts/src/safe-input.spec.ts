import { courseCreateSchema, courseUpdateSchema } from './catalog/course.schema';
import { checkoutFormFieldsSchema } from './catalog/checkout-form.schema';
import { courseListQuerySchema } from './catalog/course-list.schema';
import { locationSchema, waiverSchema } from './catalog/reference-data.schema';
import { cents, count, INPUT_MESSAGES, INT4_MAX, MAX_CENTS, multilineText, queryCount, safeText } from './safe-input';
import { SCHEDULING_MESSAGES } from './scheduling/scheduling-messages';
import { eventScheduleSchema, eventTagsSchema, eventUpdateFormSchema, eventUpdateSchema, guestCountSchema, tagSchema } from './scheduling/scheduling.schema';

const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('safeText', () => {
  it.each(['\u0000', 'a\u0000b', 'tab\there', 'line\nbreak', 'cr\r', 'bell\u0007', 'del\u007f', 'esc\u001b[0m'])(
    'refuses a control character in single-line text: %j',
    (text) => {
      expect(errorsOf(safeText().safeParse(text))).toEqual({ '': INPUT_MESSAGES.controlCharacters });
    },
  );

  it('keeps ordinary text, accents, emoji and other scripts', () => {
    for (const text of ['Wheel throwing', 'Céramique à Paris', 'Raku 🔥', '陶芸教室', '']) expect(safeText().parse(text)).toBe(text);
  });

  it('multi-line text keeps tab, line feed and carriage return, and refuses the other controls', () => {
    expect(multilineText().parse('First line\r\n\tSecond line')).toBe('First line\r\n\tSecond line');
    expect(errorsOf(multilineText().safeParse('a\u0000b'))).toEqual({ '': INPUT_MESSAGES.controlCharacters });
    expect(errorsOf(multilineText().safeParse('a\u000bb'))).toEqual({ '': INPUT_MESSAGES.controlCharacters });
  });

  it('keeps its own message for a missing value and chains like z.string()', () => {
    const name = safeText({ error: 'A name is required.' }).trim().min(1, 'A name is required.').max(5);
    expect(errorsOf(name.safeParse(undefined))).toEqual({ '': 'A name is required.' });
    expect(errorsOf(name.safeParse('   '))).toEqual({ '': 'A name is required.' });
    expect(name.parse('  Ana ')).toBe('Ana');
  });
});

describe('cents and count', () => {
  it('cents: whole, from 0 to $1,000,000.00, with a clear message above', () => {
    const price = cents({ error: 'Price must be a valid number.' });
    expect(price.parse(MAX_CENTS)).toBe(MAX_CENTS);
    expect(price.parse(0)).toBe(0);
    expect(errorsOf(price.safeParse(MAX_CENTS + 1))).toEqual({ '': INPUT_MESSAGES.amountTooLarge });
    expect(errorsOf(price.safeParse(3e9))).toEqual({ '': INPUT_MESSAGES.amountTooLarge });
    expect(errorsOf(price.safeParse(1e308))).toEqual({ '': INPUT_MESSAGES.amountTooLarge });
    expect(errorsOf(price.safeParse(-1))).toEqual({ '': 'Price must be a valid number.' });
    expect(errorsOf(price.safeParse(10.5))).toEqual({ '': 'Price must be a valid number.' });
    expect(errorsOf(price.safeParse('450'))).toEqual({ '': 'Price must be a valid number.' });
  });

  it('count: refuses a bound that does not fit an integer column', () => {
    expect(() => count({ min: 0, max: INT4_MAX + 1 })).toThrow(RangeError);
    expect(count({ min: 0, max: INT4_MAX }).safeParse(3e9).success).toBe(false);
    expect(errorsOf(count({ min: 1, max: 10 }).safeParse(11))).toEqual({ '': INPUT_MESSAGES.numberTooLarge(10) });
  });

  it('queryCount reads query text and keeps the bounds', () => {
    const page = queryCount({ min: 1, max: 1000 });
    expect(page.parse('2')).toBe(2);
    for (const text of ['3000000000', '1e308', '-1', '', 'abc', '1.5']) expect(page.safeParse(text).success).toBe(false);
  });
});

describe('every schema uses them', () => {
  it('course: a NUL byte in the name, a price above $1,000,000.00 and a NUL in the description are refused', () => {
    const base = {
      name: 'Wheel throwing',
      material: 'Ceramics',
      price: 4500,
      description: 'Learn to center clay.\nTwo evenings.',
      capacity: 8,
      images: ['/api/media/x/y.png'],
      location_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      instructor_id: '7c9e6679-7425-40de-944b-e07fc1f90ae8',
      level: 'Beginner',
    };
    expect(courseCreateSchema.safeParse(base).success).toBe(true);
    expect(errorsOf(courseCreateSchema.safeParse({ ...base, name: 'Wheel\u0000', price: 3e9, description: 'Learn to center\u0000 clay.' }))).toEqual({
      name: INPUT_MESSAGES.controlCharacters,
      price: INPUT_MESSAGES.amountTooLarge,
      description: INPUT_MESSAGES.controlCharacters,
    });
    expect(errorsOf(courseCreateSchema.safeParse({ ...base, capacity: 3e9, buffer_before_mins: 3e9 }))).toMatchObject({
      capacity: expect.any(String),
      buffer_before_mins: expect.any(String),
    });
    const edit = { ...base, name: 'Wheel throwing basics', category_id: 4 };
    delete (edit as Record<string, unknown>).material;
    expect(errorsOf(courseUpdateSchema.safeParse({ ...edit, price: 2 ** 31, eventbrite_event_id: '\u0000' }))).toEqual({
      price: INPUT_MESSAGES.amountTooLarge,
      eventbrite_event_id: INPUT_MESSAGES.controlCharacters,
    });
  });

  it('course list search', () => {
    expect(errorsOf(courseListQuerySchema.safeParse({ search: 'clay\u0000' }))).toEqual({ search: INPUT_MESSAGES.controlCharacters });
  });

  it('checkout form fields, locations and waivers', () => {
    expect(errorsOf(checkoutFormFieldsSchema.safeParse([{ id: 'f1', type: 'text', label: 'Allergies\u0000' }]))).toEqual({
      '0.label': INPUT_MESSAGES.controlCharacters,
    });
    expect(errorsOf(locationSchema.safeParse({ address: '12 Kiln St\u0000', timezone: 'America/New_York' }))).toEqual({
      address: INPUT_MESSAGES.controlCharacters,
    });
    expect(waiverSchema.safeParse({ name: 'Release', body: 'I accept.\n\nSigned:' }).success).toBe(true);
    expect(errorsOf(waiverSchema.safeParse({ name: 'Release', body: 'I accept\u0000' }))).toEqual({ body: INPUT_MESSAGES.controlCharacters });
  });

  it('sessions, guests and tags', () => {
    const schedule = {
      activity_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      location_id: '7c9e6679-7425-40de-944b-e07fc1f90ae8',
      instructor_id: '7c9e6679-7425-40de-944b-e07fc1f90ae9',
      dates: [{ date: '2030-06-01', time: '10:00', duration: 90 }],
    };
    expect(errorsOf(eventScheduleSchema.safeParse({ ...schedule, price: 3e9, course_name: 'x\u0000', capacity: 3e9 }))).toEqual({
      price: INPUT_MESSAGES.amountTooLarge,
      course_name: INPUT_MESSAGES.controlCharacters,
      capacity: SCHEDULING_MESSAGES.scheduleCapacity,
    });
    expect(errorsOf(eventUpdateSchema.safeParse({ price: 3e9, capacity: 3, internal_short_description: '\u0000' }))).toEqual({
      price: INPUT_MESSAGES.amountTooLarge,
      internal_short_description: INPUT_MESSAGES.controlCharacters,
    });
    expect(errorsOf(eventUpdateFormSchema.safeParse({ price: '30000000', capacity: '3' }))).toEqual({ price: INPUT_MESSAGES.amountTooLarge });
    expect(errorsOf(guestCountSchema.safeParse({ guestCount: 3e9 }))).toEqual({ guestCount: SCHEDULING_MESSAGES.guestCountMax });
    expect(errorsOf(tagSchema.safeParse({ name: 'Hot\u0000' }))).toEqual({ name: INPUT_MESSAGES.controlCharacters });
    expect(errorsOf(eventTagsSchema.safeParse({ tags: ['\u0000'] }))).toEqual({ 'tags.0': INPUT_MESSAGES.controlCharacters });
  });
});
