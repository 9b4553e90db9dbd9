import { discountInstant } from './discount-time';
import { type CartLine, type DiscountRule, discountCents, discountStatus } from './discount-pricing';

const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);
/** An instant typed as the admin does: a date and an hour in New York. */
const ny = (date: string, time: string) => discountInstant(date, time, NY)!.toISOString();

const WHEEL = 'wheel';
const GLASS = 'glass';
const wheel2: CartLine = { activity_id: WHEEL, quantity: 2, unit_price_cents: 6500 };
const glass1: CartLine = { activity_id: GLASS, quantity: 1, unit_price_cents: 12000 };
const kit3: CartLine = { activity_id: null, quantity: 3, unit_price_cents: 1000 };

const rule = (patch: Partial<DiscountRule> = {}): DiscountRule => ({
  type: 'dollar',
  value: 1000,
  activity_id: null,
  apply_logic: 'once',
  start_date: null,
  expiration_date: null,
  ...patch,
});

const NOON = at('2026-06-15T16:00:00Z');

describe('discountCents: the pricing rule', () => {
  it.each<[string, CartLine[], DiscountRule, Date, number]>([
    // once: off the order
    ['$10 once off a $130 order', [wheel2], rule(), NOON, 1000],
    ['$10 once off a mixed order still counts once', [wheel2, glass1, kit3], rule(), NOON, 1000],
    ['10% once off a $280 order', [wheel2, glass1, kit3], rule({ type: 'percentage', value: 10 }), NOON, 2800],
    ['15% once rounds half up to the cent ($0.35 x 15% = 5.25 cents)', [{ activity_id: null, quantity: 1, unit_price_cents: 35 }], rule({ type: 'percentage', value: 15 }), NOON, 5],
    ['100% once is the whole order', [wheel2, glass1], rule({ type: 'percentage', value: 100 }), NOON, 25000],
    // each: off every eligible ticket or unit
    ['$10 each off 2 tickets and 3 units', [wheel2, kit3], rule({ apply_logic: 'each' }), NOON, 5000],
    ['$10 each never takes a $5 unit below zero', [{ activity_id: null, quantity: 4, unit_price_cents: 500 }, glass1], rule({ apply_logic: 'each' }), NOON, 3000],
    ['10% each off 2 tickets', [wheel2], rule({ type: 'percentage', value: 10, apply_logic: 'each' }), NOON, 1300],
    ['15% each rounds per unit (3 x 5 cents, not 15.75 rounded)', [{ activity_id: null, quantity: 3, unit_price_cents: 35 }], rule({ type: 'percentage', value: 15, apply_logic: 'each' }), NOON, 15],
    // never more than the eligible subtotal
    ['$200 once off a $130 order is $130', [wheel2], rule({ value: 20000 }), NOON, 13000],
    ['$200 once limited to the wheel course is at most its $130', [wheel2, glass1], rule({ value: 20000, activity_id: WHEEL }), NOON, 13000],
    ['an empty cart gets nothing', [], rule(), NOON, 0],
    ['a free cart gets nothing', [{ activity_id: WHEEL, quantity: 2, unit_price_cents: 0 }], rule(), NOON, 0],
    ['a line with no tickets gets nothing', [{ activity_id: WHEEL, quantity: 0, unit_price_cents: 6500 }], rule({ apply_logic: 'each' }), NOON, 0],
    // only on the named course when limited
    ['limited to the wheel course: 10% of its tickets only', [wheel2, glass1, kit3], rule({ type: 'percentage', value: 10, activity_id: WHEEL }), NOON, 1300],
    ['limited to the wheel course, $10 each: its 2 tickets only', [wheel2, glass1, kit3], rule({ apply_logic: 'each', activity_id: WHEEL }), NOON, 2000],
    ['limited to a course not in the cart gives nothing', [glass1, kit3], rule({ activity_id: WHEEL }), NOON, 0],
    // only inside the window, end inclusive
    ['before the start gives nothing', [wheel2], rule({ start_date: '2026-06-15T16:00:01Z' }), NOON, 0],
    ['at the start instant it applies', [wheel2], rule({ start_date: '2026-06-15T16:00:00Z' }), NOON, 1000],
    ['at the end instant it still applies (end inclusive)', [wheel2], rule({ expiration_date: '2026-06-15T16:00:00Z' }), NOON, 1000],
    ['one millisecond after the end gives nothing', [wheel2], rule({ expiration_date: '2026-06-15T15:59:59.999Z' }), NOON, 0],
    ['Date objects work as well as ISO text', [wheel2], rule({ start_date: at('2026-06-01T00:00:00Z'), expiration_date: at('2026-07-01T00:00:00Z') }), NOON, 1000],
  ])('%s', (_, lines, code, when, expected) => {
    expect(discountCents(lines, code, when)).toBe(expected);
  });
});

describe('discountCents: time-zone edges of the window (organization in New York)', () => {
  const endsNov24at11pm = rule({ expiration_date: ny('2026-11-24', '23:00') }); // 2026-11-25T04:00Z
  const startsNov25at1am = rule({ start_date: ny('2026-11-25', '01:00') }); // 2026-11-25T06:00Z

  it.each<[string, DiscountRule, string, number]>([
    // Midnight in New York is 5 AM in UTC (EST): the UTC date changes first.
    ['ends Nov 24 11 PM NY: 10:30 PM NY is Nov 25 in UTC and still in the window', endsNov24at11pm, '2026-11-25T03:30:00Z', 1000],
    ['ends Nov 24 11 PM NY: exactly 11 PM NY (04:00 UTC) still counts', endsNov24at11pm, '2026-11-25T04:00:00Z', 1000],
    ['ends Nov 24 11 PM NY: 11:30 PM NY is past it, though still Nov 24 in NY', endsNov24at11pm, '2026-11-25T04:30:00Z', 0],
    ['starts Nov 25 1 AM NY: 12:30 AM NY is Nov 25 in UTC and NY, but before the start', startsNov25at1am, '2026-11-25T05:30:00Z', 0],
    ['starts Nov 25 1 AM NY: 1 AM NY (06:00 UTC) applies', startsNov25at1am, '2026-11-25T06:00:00Z', 1000],
    ['starts Nov 25 1 AM NY: 8 PM NY on Nov 24 is before it, though 01:00 UTC Nov 25', startsNov25at1am, '2026-11-25T01:00:00Z', 0],
    // Spring forward (Mar 8 2026): 2 AM does not exist; a 2 AM end means 3 AM EDT = 07:00 UTC.
    ['ends Mar 8 1 AM NY (06:00 UTC, EST): 1:30 AM EST is past it', rule({ expiration_date: ny('2026-03-08', '01:00') }), '2026-03-08T06:30:00Z', 0],
    ['ends Mar 8 at the missing 2 AM NY: 06:30 UTC (1:30 AM EST) applies', rule({ expiration_date: ny('2026-03-08', '02:00') }), '2026-03-08T06:30:00Z', 1000],
    ['ends Mar 8 at the missing 2 AM NY: 07:00 UTC (3 AM EDT) still applies', rule({ expiration_date: ny('2026-03-08', '02:00') }), '2026-03-08T07:00:00Z', 1000],
    ['ends Mar 8 noon NY is 16:00 UTC after the change, not 17:00', rule({ expiration_date: ny('2026-03-08', '12:00') }), '2026-03-08T16:30:00Z', 0],
    // Fall back (Nov 1 2026): 1 AM happens twice; the code reads the first (EDT, 05:00 UTC).
    ['ends Nov 1 1 AM NY: the first 1 AM (05:00 UTC) counts', rule({ expiration_date: ny('2026-11-01', '01:00') }), '2026-11-01T05:00:00Z', 1000],
    ['ends Nov 1 1 AM NY: the second 1 AM (06:00 UTC, EST) is past it', rule({ expiration_date: ny('2026-11-01', '01:00') }), '2026-11-01T06:00:00Z', 0],
    ['starts Nov 1 noon NY is 17:00 UTC after the change: 16:30 UTC is before it', rule({ start_date: ny('2026-11-01', '12:00') }), '2026-11-01T16:30:00Z', 0],
    ['starts Nov 1 noon NY: 17:00 UTC applies', rule({ start_date: ny('2026-11-01', '12:00') }), '2026-11-01T17:00:00Z', 1000],
  ])('%s', (_, code, when, expected) => {
    expect(discountCents([wheel2], code, at(when))).toBe(expected);
  });
});

describe('discountStatus', () => {
  it.each<[string, Partial<DiscountRule>, string]>([
    ['no window is active', {}, 'active'],
    ['a start in the future is scheduled', { start_date: '2026-06-15T16:00:01Z' }, 'scheduled'],
    ['the start instant itself is active', { start_date: '2026-06-15T16:00:00Z' }, 'active'],
    ['the end instant itself is still active', { expiration_date: '2026-06-15T16:00:00Z' }, 'active'],
    ['past the end is expired', { expiration_date: '2026-06-15T15:00:00Z' }, 'expired'],
    ['inside a window is active', { start_date: '2026-06-01T00:00:00Z', expiration_date: '2026-07-01T00:00:00Z' }, 'active'],
  ])('%s', (_, patch, expected) => {
    expect(discountStatus(rule(patch), NOON)).toBe(expected);
  });
});
