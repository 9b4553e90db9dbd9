import { DATE_TIME_MESSAGES } from '../date-time-input';
import { INPUT_MESSAGES } from '../safe-input';
import { DISCOUNT_MESSAGES as M } from './discount-messages';

/**
 * One table of good and bad discount payloads, run against the schema (unit test) and against
 * POST /api/admin/promo-code (backend e2e), so the form's rules and the API's cannot drift apart.
 * Each case patches DISCOUNT_CASE_BASE (a course id, when needed, is filled in by the test).
 */
export interface DiscountCase {
  name: string;
  patch: Record<string, unknown>;
  /** Field -> message expected; empty means the payload is valid. */
  errors: Record<string, string>;
}

export const DISCOUNT_CASE_BASE = {
  label: 'Spring sale',
  code: 'SPRING10',
  type: 'percentage',
  value: 10,
  activity_id: null,
  apply_logic: 'once',
  start_date: '2026-03-01T17:00:00.000Z',
  expiration_date: '2026-03-31T16:00:00.000Z',
} as const;

export const DISCOUNT_CASES: DiscountCase[] = [
  { name: 'a complete percentage discount', patch: {}, errors: {} },
  { name: 'a dollar discount of $12.50 in cents', patch: { type: 'dollar', value: 1250 }, errors: {} },
  { name: 'no window at all', patch: { start_date: null, expiration_date: null }, errors: {} },
  { name: 'each ticket', patch: { apply_logic: 'each' }, errors: {} },
  { name: 'an empty label', patch: { label: '' }, errors: { label: M.labelRequired } },
  { name: 'a blank label', patch: { label: '   ' }, errors: { label: M.labelRequired } },
  { name: 'a missing label', patch: { label: undefined }, errors: { label: M.labelRequired } },
  { name: 'a two-character code', patch: { code: 'AB' }, errors: { code: M.codeTooShort } },
  { name: 'a code of two letters and spaces', patch: { code: '  AB  ' }, errors: { code: M.codeTooShort } },
  { name: 'a missing code', patch: { code: undefined }, errors: { code: M.codeRequired } },
  { name: 'a 51-character code', patch: { code: 'X'.repeat(51) }, errors: { code: M.codeTooLong } },
  { name: 'a code with a NUL byte', patch: { code: 'AB\u0000C' }, errors: { code: INPUT_MESSAGES.controlCharacters } },
  { name: 'an unknown type', patch: { type: 'points' }, errors: { type: M.typeInvalid } },
  { name: 'a missing value', patch: { value: undefined }, errors: { value: M.valueRequired } },
  { name: 'a text value', patch: { value: '10' }, errors: { value: M.valueRequired } },
  { name: 'a zero dollar value', patch: { type: 'dollar', value: 0 }, errors: { value: M.dollarInvalid } },
  { name: 'a negative dollar value', patch: { type: 'dollar', value: -500 }, errors: { value: M.dollarInvalid } },
  { name: 'a dollar value with 3 decimals (a fraction of a cent)', patch: { type: 'dollar', value: 1250.5 }, errors: { value: M.dollarInvalid } },
  { name: 'a dollar value over $1,000,000', patch: { type: 'dollar', value: 100_000_001 }, errors: { value: INPUT_MESSAGES.amountTooLarge } },
  { name: 'a 100% discount', patch: { value: 100 }, errors: {} },
  { name: 'a 1% discount', patch: { value: 1 }, errors: {} },
  { name: 'a 0% discount', patch: { value: 0 }, errors: { value: M.percentageInvalid } },
  { name: 'a 101% discount', patch: { value: 101 }, errors: { value: M.percentageInvalid } },
  { name: 'a fractional percentage', patch: { value: 12.5 }, errors: { value: M.percentageInvalid } },
  { name: 'an unknown apply logic', patch: { apply_logic: 'twice' }, errors: { apply_logic: M.applyLogicInvalid } },
  // Discount dates are a date plus a time in the organization's zone (spec 000 §3): a wall-clock
  // time without offset is taken; only an absent (empty) date is "required", a malformed one says so.
  { name: 'a wall-clock start without offset', patch: { start_date: '2026-03-01T12:00', expiration_date: null }, errors: {} },
  { name: 'a wall-clock window with seconds', patch: { start_date: '2026-03-01T12:00:00', expiration_date: '2026-03-31T12:00' }, errors: {} },
  { name: 'an instant with an offset', patch: { start_date: '2026-03-01T12:00:00-05:00' }, errors: {} },
  { name: 'an empty start', patch: { start_date: '' }, errors: { start_date: M.startDateRequired } },
  { name: 'an empty end', patch: { expiration_date: '' }, errors: { expiration_date: M.endDateRequired } },
  { name: 'a start that is not a date', patch: { start_date: 'soon' }, errors: { start_date: DATE_TIME_MESSAGES.invalid } },
  { name: 'an end in month 13', patch: { expiration_date: '2026-13-45T12:00:00Z' }, errors: { expiration_date: DATE_TIME_MESSAGES.invalid } },
  { name: 'a start on February 30', patch: { start_date: '2027-02-30T12:00' }, errors: { start_date: DATE_TIME_MESSAGES.invalid } },
  { name: 'a start at 24:00', patch: { start_date: '2027-03-01T24:00' }, errors: { start_date: DATE_TIME_MESSAGES.invalid } },
  { name: 'a start with a date but no time', patch: { start_date: '2027-03-01' }, errors: { start_date: DATE_TIME_MESSAGES.invalid } },
  { name: 'a start sent as a number', patch: { start_date: 20270301 }, errors: { start_date: DATE_TIME_MESSAGES.invalid } },
  {
    name: 'a wall-clock end before a wall-clock start',
    patch: { start_date: '2026-03-31T12:00', expiration_date: '2026-03-01T12:00' },
    errors: { expiration_date: M.endBeforeStart },
  },
  {
    name: 'an end before the start',
    patch: { start_date: '2026-03-31T16:00:00.000Z', expiration_date: '2026-03-01T17:00:00.000Z' },
    errors: { expiration_date: M.endBeforeStart },
  },
  { name: 'a course id that is not an id', patch: { activity_id: 'wheel' }, errors: { activity_id: M.courseNotFound } },
  { name: 'several mistakes at once', patch: { label: '', code: 'A', type: 'dollar', value: 0 }, errors: { label: M.labelRequired, code: M.codeTooShort, value: M.dollarInvalid } },
];
