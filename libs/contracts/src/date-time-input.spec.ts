import {
  DATE_TIME_MESSAGES,
  dateTimeInput,
  dateTimeInstant,
  dateTimeIsAfter,
  parseDateTimeInput,
} from './date-time-input';

const field = dateTimeInput({ required: 'A start date is required' }).nullable().optional();
const message = (value: unknown) => field.safeParse(value).error?.issues[0]?.message ?? null;

describe('date-time inputs of the API', () => {
  it.each([
    ['a wall-clock time', '2027-03-01T12:00'],
    ['a wall-clock time with seconds', '2027-03-01T12:00:30'],
    ['a wall-clock time with milliseconds', '2027-03-01T12:00:30.250'],
    ['an instant in UTC', '2027-03-01T17:00:00.000Z'],
    ['an instant with an offset', '2027-03-01T12:00-05:00'],
    ['the leap day', '2028-02-29T09:00'],
  ])('takes %s', (_, value) => {
    expect(message(value)).toBeNull();
  });

  it('says "required" only for an empty value, and leaves null and absence to the field', () => {
    expect(message('')).toBe('A start date is required');
    expect(message('   ')).toBe('A start date is required');
    expect(message(null)).toBeNull();
    expect(message(undefined)).toBeNull();
    expect(
      dateTimeInput({ required: 'A start date is required' }).safeParse(undefined).error?.issues[0]?.message,
    ).toBe('A start date is required');
  });

  it.each([
    ['text', 'soon'],
    ['a date without a time', '2027-03-01'],
    ['a 13th month', '2027-13-01T12:00'],
    ['February 30', '2027-02-30T12:00'],
    ['February 29 of a common year', '2027-02-29T12:00'],
    ['24:00', '2027-03-01T24:00'],
    ['minute 60', '2027-03-01T12:60'],
    ['a space instead of T', '2027-03-01 12:00'],
    ['an offset of +25:00', '2027-03-01T12:00+25:00'],
    ['a number', 20270301],
    ['a boolean', true],
  ])('says what is wrong with %s', (_, value) => {
    expect(message(value)).toBe(DATE_TIME_MESSAGES.invalid);
  });

  it.each([
    ['noon in New York in winter (EST)', '2027-03-01T12:00', 'America/New_York', '2027-03-01T17:00:00.000Z'],
    ['noon in New York in summer (EDT)', '2027-07-01T12:00', 'America/New_York', '2027-07-01T16:00:00.000Z'],
    ['seconds are kept', '2027-07-01T12:00:30', 'America/New_York', '2027-07-01T16:00:30.000Z'],
    ['noon in Paris', '2027-03-01T12:00', 'Europe/Paris', '2027-03-01T11:00:00.000Z'],
    [
      'the missing 2:30 AM of the spring-forward day reads as 3:30 AM EDT',
      '2027-03-14T02:30',
      'America/New_York',
      '2027-03-14T07:30:00.000Z',
    ],
    [
      'the repeated 1:30 AM of the fall-back day is the first one (EDT)',
      '2027-11-07T01:30',
      'America/New_York',
      '2027-11-07T05:30:00.000Z',
    ],
    ['an unknown zone reads as New York', '2027-03-01T12:00', 'Mars/Olympus', '2027-03-01T17:00:00.000Z'],
    [
      'an instant keeps its own offset whatever the zone',
      '2027-03-01T12:00:00+01:00',
      'America/New_York',
      '2027-03-01T11:00:00.000Z',
    ],
  ])('%s', (_, value, zone, iso) => {
    expect(dateTimeInstant(value, zone)?.toISOString()).toBe(iso);
  });

  it('answers null for what is not a date and time', () => {
    expect(dateTimeInstant('2027-02-30T12:00', 'UTC')).toBeNull();
    expect(parseDateTimeInput('')).toBeNull();
  });

  it('orders two values of the same kind, and leaves an instant against a wall-clock time to the server', () => {
    expect(dateTimeIsAfter('2027-03-02T12:00', '2027-03-01T12:00')).toBe(true);
    expect(dateTimeIsAfter('2027-03-01T12:00', '2027-03-01T12:00')).toBe(false);
    expect(dateTimeIsAfter('2027-03-01T12:00:00Z', '2027-03-01T13:00:00+02:00')).toBe(true);
    expect(dateTimeIsAfter('2027-03-02T12:00', '2027-03-01T12:00:00Z')).toBeNull();
  });
});
