import {
  DISCOUNT_CASE_BASE,
  DISCOUNT_CASES,
  DISCOUNT_DEFAULT_TIME,
  DISCOUNT_FORM_DEFAULTS,
  DISCOUNT_MESSAGES as M,
  DISCOUNT_TIME_CHOICES,
  discountFormSchema,
  discountInstant,
  discountListQuerySchema,
  discountPayloadSchema,
  discountToForm,
  discountWallClock,
  toDiscountPayload,
} from '../index';

const fieldErrors = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0]);
    errors[key] ??= issue.message;
  }
  return errors;
};

describe('discount payload (POST/PUT /api/admin/promo-code)', () => {
  it.each(DISCOUNT_CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const payload: Record<string, unknown> = { ...DISCOUNT_CASE_BASE, ...c.patch };
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    expect(fieldErrors(discountPayloadSchema.safeParse(payload))).toEqual(c.errors);
  });

  it('takes a missing course and window as none', () => {
    const { activity_id: _a, start_date: _s, expiration_date: _e, ...rest } = DISCOUNT_CASE_BASE;
    const parsed = discountPayloadSchema.parse(rest);
    expect(parsed).toMatchObject({ activity_id: null, start_date: null, expiration_date: null });
  });

  it('refuses a field it does not know', () => {
    expect(discountPayloadSchema.safeParse({ ...DISCOUNT_CASE_BASE, times_used: 5 }).success).toBe(false);
  });
});

describe('discount list query', () => {
  it('defaults to the first page of 20', () => {
    expect(discountListQuerySchema.parse({})).toEqual({ page: 1, limit: 20 });
  });
  it.each([
    [{ page: '0' }, 'page', M.page],
    [{ limit: '101' }, 'limit', M.limit],
    [{ search: 'x'.repeat(201) }, 'search', M.search],
  ])('refuses %j', (query, field, message) => {
    expect(fieldErrors(discountListQuerySchema.safeParse(query))).toEqual({ [field]: message });
  });
});

describe('discount time choices (spec 000 §9)', () => {
  it('are hourly from 1 AM to 11 PM, with 12:00 PM as the default', () => {
    expect(DISCOUNT_TIME_CHOICES).toHaveLength(23);
    expect(DISCOUNT_TIME_CHOICES[0]).toEqual({ value: '01:00', label: '1:00 AM' });
    expect(DISCOUNT_TIME_CHOICES[11]).toEqual({ value: '12:00', label: '12:00 PM' });
    expect(DISCOUNT_TIME_CHOICES[22]).toEqual({ value: '23:00', label: '11:00 PM' });
    expect(DISCOUNT_DEFAULT_TIME).toBe('12:00');
    expect(DISCOUNT_FORM_DEFAULTS.start_time).toBe('12:00');
  });

  it.each([
    ['noon in New York in winter (EST, UTC-5)', '2026-01-15', '12:00', 'America/New_York', '2026-01-15T17:00:00.000Z'],
    ['noon in New York in summer (EDT, UTC-4)', '2026-07-15', '12:00', 'America/New_York', '2026-07-15T16:00:00.000Z'],
    ['11 PM in New York is the next day in UTC', '2026-11-24', '23:00', 'America/New_York', '2026-11-25T04:00:00.000Z'],
    ['1 AM on the spring-forward day (still EST)', '2026-03-08', '01:00', 'America/New_York', '2026-03-08T06:00:00.000Z'],
    ['the missing 2 AM of the spring-forward day reads as 3 AM EDT', '2026-03-08', '02:00', 'America/New_York', '2026-03-08T07:00:00.000Z'],
    ['3 AM on the spring-forward day (EDT)', '2026-03-08', '03:00', 'America/New_York', '2026-03-08T07:00:00.000Z'],
    ['the repeated 1 AM of the fall-back day is the first one (EDT)', '2026-11-01', '01:00', 'America/New_York', '2026-11-01T05:00:00.000Z'],
    ['2 AM on the fall-back day (EST)', '2026-11-01', '02:00', 'America/New_York', '2026-11-01T07:00:00.000Z'],
    ['another zone: noon in Los Angeles', '2026-01-15', '12:00', 'America/Los_Angeles', '2026-01-15T20:00:00.000Z'],
    ['an unknown zone falls back to New York', '2026-01-15', '12:00', 'Mars/Olympus', '2026-01-15T17:00:00.000Z'],
  ])('%s', (_, date, time, zone, iso) => {
    expect(discountInstant(date, time, zone)?.toISOString()).toBe(iso);
  });

  it('refuses hours outside the choices and dates that are not dates', () => {
    expect(discountInstant('2026-01-15', '00:00', 'America/New_York')).toBeNull();
    expect(discountInstant('2026-01-15', '12:30', 'America/New_York')).toBeNull();
    expect(discountInstant('15/01/2026', '12:00', 'America/New_York')).toBeNull();
  });

  it('reads an instant back as the date and hour in the zone', () => {
    expect(discountWallClock('2026-11-25T04:00:00.000Z', 'America/New_York')).toEqual({ date: '2026-11-24', time: '23:00' });
    expect(discountWallClock('2026-11-25T04:00:00.000Z', 'UTC')).toEqual({ date: '2026-11-25', time: '04:00' });
  });
});

describe('discount form', () => {
  const valid = { ...DISCOUNT_FORM_DEFAULTS, label: 'Spring', code: 'SPRING', value: '12.50' };
  const errors = (patch: Partial<typeof valid>) => fieldErrors(discountFormSchema.safeParse({ ...valid, ...patch }));

  it.each([
    ['a valid dollar discount', {}, {}],
    ['no label', { label: ' ' }, { label: M.labelRequired }],
    ['a short code', { code: 'ab' }, { code: M.codeTooShort }],
    ['no value', { value: '' }, { value: M.valueRequired }],
    ['three decimals', { value: '1.005' }, { value: M.dollarInvalid }],
    ['zero dollars', { value: '0' }, { value: M.dollarInvalid }],
    ['a percentage of 100', { type: 'percentage' as const, value: '100' }, {}],
    ['a percentage of 101', { type: 'percentage' as const, value: '101' }, { value: M.percentageInvalid }],
    ['a fractional percentage', { type: 'percentage' as const, value: '7.5' }, { value: M.percentageInvalid }],
    ['limited without a course', { limit_to_course: true }, { activity_id: M.courseRequired }],
    ['a start without its date', { has_start: true }, { start_date: M.startDateRequired }],
    ['an end without its date', { has_end: true }, { end_date: M.endDateRequired }],
    [
      'an end before the start',
      { has_start: true, start_date: '2026-03-10', has_end: true, end_date: '2026-03-10', end_time: '09:00' },
      { end_date: M.endBeforeStart },
    ],
    ['an hour outside the choices', { has_start: true, start_date: '2026-03-10', start_time: '00:00' }, { start_time: M.timeInvalid }],
    ['an hour outside the choices while the start is off (ignored)', { start_time: '00:00', end_time: '' }, {}],
    ['a start date that is not a day', { has_start: true, start_date: '2026-02-30' }, { start_date: M.dateInvalid }],
    ['an end date typed the wrong way round', { has_end: true, end_date: '30/03/2026' }, { end_date: M.dateInvalid }],
    ['a date left in a switched-off start (ignored)', { start_date: 'whenever' }, {}],
    [
      'every mistake at once',
      { label: '', code: 'a', value: '0', limit_to_course: true, has_end: true },
      { label: M.labelRequired, code: M.codeTooShort, value: M.dollarInvalid, activity_id: M.courseRequired, end_date: M.endDateRequired },
    ],
  ])('%s', (_, patch, expected) => {
    expect(errors(patch)).toEqual(expected);
  });

  it('sends dollars as cents and the window as instants read in the organization zone', () => {
    const form = {
      ...valid,
      limit_to_course: true,
      activity_id: 'c1',
      has_start: true,
      start_date: '2026-11-24',
      start_time: '01:00',
      has_end: true,
      end_date: '2026-11-24',
      end_time: '23:00',
    };
    expect(toDiscountPayload(form, 'America/New_York')).toEqual({
      label: 'Spring',
      code: 'SPRING',
      type: 'dollar',
      value: 1250,
      activity_id: 'c1',
      apply_logic: 'once',
      start_date: '2026-11-24T06:00:00.000Z',
      expiration_date: '2026-11-25T04:00:00.000Z',
    });
    const payload = toDiscountPayload(form, 'America/New_York');
    expect(discountToForm(payload, 'America/New_York')).toEqual(form);
  });

  it('drops the course and the window when they are switched off', () => {
    const payload = toDiscountPayload(
      { ...valid, type: 'percentage', value: '15', activity_id: 'c1', start_date: '2026-01-01' },
      'America/New_York',
    );
    expect(payload).toMatchObject({ value: 15, activity_id: null, start_date: null, expiration_date: null });
  });
});
