import { AVAILABILITY_MESSAGES as M } from './availability-messages';
import {
  availabilitySchema,
  dateOverridesSchema,
  dayRangesSchema,
  MAX_RANGES_PER_DAY,
} from './availability.schema';

/** The messages of a failed parse, with their paths ("0.end: …"). */
function errors(schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('availability schemas', () => {
  it('accepts weekly hours with several ranges a day, touching ranges, 24:00, and missing days as closed', () => {
    const parsed = availabilitySchema.parse({
      weekly: {
        mon: [
          { start: '09:00', end: '12:00' },
          { start: '12:00', end: '17:30' },
        ],
        fri: [{ start: '20:00', end: '24:00' }],
      },
    });
    expect(parsed.weekly.tue).toEqual([]);
    expect(parsed.overrides).toEqual([]);
  });

  it('says what is wrong with a range', () => {
    expect(errors(dayRangesSchema, [{ start: '12:00', end: '09:00' }])).toEqual([`0.end: ${M.endAfterStart}`]);
    expect(errors(dayRangesSchema, [{ start: '09:00', end: '09:00' }])).toEqual([`0.end: ${M.endAfterStart}`]);
    expect(errors(dayRangesSchema, [{ start: '9:00', end: '10:00' }])).toEqual([`0.start: ${M.startTime}`]);
    expect(errors(dayRangesSchema, [{ start: '24:00', end: '24:00' }])).toEqual([`0.start: ${M.startTime}`]);
    expect(errors(dayRangesSchema, [{ start: '09:00', end: '24:30' }])).toEqual([`0.end: ${M.endTime}`]);
    expect(errors(dayRangesSchema, ['09:00-10:00'])).toEqual([`0: ${M.ranges}`]);
    expect(errors(dayRangesSchema, 'mornings')).toEqual([`: ${M.ranges}`]);
  });

  it('refuses overlapping hours of one day and more than 12 ranges', () => {
    expect(
      errors(dayRangesSchema, [
        { start: '13:00', end: '15:00' },
        { start: '09:00', end: '13:30' },
      ]),
    ).toEqual([`0.start: ${M.overlap}`]);
    const many = Array.from({ length: MAX_RANGES_PER_DAY + 1 }, (_, i) => ({
      start: `${String(i).padStart(2, '0')}:00`,
      end: `${String(i).padStart(2, '0')}:30`,
    }));
    expect(errors(dayRangesSchema, many)).toEqual([`: ${M.tooManyRanges(12)}`]);
    expect(M.tooManyRanges(12)).toBe('A day can have at most 12 ranges of hours.');
  });

  it('says what is wrong with weekly hours and date overrides', () => {
    expect(errors(availabilitySchema, { weekly: 'always' })).toEqual([`weekly: ${M.weekly}`]);
    expect(errors(dateOverridesSchema, [{ date: '2027-02-29', ranges: [] }])).toEqual([`0.date: ${M.date}`]);
    expect(errors(dateOverridesSchema, [{ date: '27-02-01', ranges: [] }])).toEqual([`0.date: ${M.date}`]);
    expect(
      errors(dateOverridesSchema, [
        { date: '2027-12-24', ranges: [] },
        { date: '2027-12-24', ranges: [{ start: '09:00', end: '12:00' }] },
      ]),
    ).toEqual([`1.date: ${M.duplicateDate}`]);
    expect(errors(dateOverridesSchema, { date: '2027-12-24' })).toEqual([`: ${M.overrides}`]);
    expect(errors(dateOverridesSchema, [{ date: '2027-12-24', ranges: [{ start: '10:00', end: '09:00' }] }])).toEqual([
      `0.ranges.0.end: ${M.endAfterStart}`,
    ]);
    const tooMany = Array.from({ length: 367 }, (_, i) => ({
      date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10),
      ranges: [],
    }));
    expect(errors(dateOverridesSchema, tooMany)).toEqual([`: ${M.tooManyOverrides(366)}`]);
  });

  it('reads the messages in clear English', () => {
    expect(M.endAfterStart).toBe('End time must be after the start time.');
    expect(M.overlap).toBe('Hours of one day must not overlap.');
    expect(M.date).toBe('Not a date (yyyy-MM-dd).');
  });
});
