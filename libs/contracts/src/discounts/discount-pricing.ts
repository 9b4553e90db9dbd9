import type { DiscountApplyLogic, DiscountStatus, DiscountType } from './discount.schema';

/**
 * The pricing rule of a discount code, the one place checkout (next issue) and its tests read it.
 * Pure: no clock, no I/O; every amount is integer cents.
 */

/** One line of a cart: a course (activity) or a product, how many tickets or units, at what unit price. */
export interface CartLine {
  /** The course's activity id; a product line carries its own id (it never matches a course-limited code). */
  activity_id: string | null;
  /** Tickets or units on the line (whole, 0 or more). */
  quantity: number;
  /** Price of one ticket or unit, in cents. */
  unit_price_cents: number;
}

/** What the rule needs of a discount code. Instants as ISO strings or Dates; null means no limit. */
export interface DiscountRule {
  type: DiscountType;
  /** Cents for a dollar discount, a whole percent for a percentage. */
  value: number;
  /** Set when the code is limited to one course. */
  activity_id: string | null;
  apply_logic: DiscountApplyLogic;
  start_date: string | Date | null;
  expiration_date: string | Date | null;
}

const time = (instant: string | Date) => (instant instanceof Date ? instant.getTime() : Date.parse(instant));

/** Whether the code can be used at an instant: from its start, up to and including its end. */
export function isDiscountInWindow(rule: Pick<DiscountRule, 'start_date' | 'expiration_date'>, at: Date): boolean {
  const now = at.getTime();
  if (rule.start_date !== null && now < time(rule.start_date)) return false;
  if (rule.expiration_date !== null && now > time(rule.expiration_date)) return false;
  return true;
}

/** The Discounts page's status at an instant: scheduled before the start, expired after the end, else active. */
export function discountStatus(rule: Pick<DiscountRule, 'start_date' | 'expiration_date'>, at: Date): DiscountStatus {
  if (rule.start_date !== null && at.getTime() < time(rule.start_date)) return 'scheduled';
  if (rule.expiration_date !== null && at.getTime() > time(rule.expiration_date)) return 'expired';
  return 'active';
}

/** The percentage of an amount in cents, rounded half up to a whole cent. */
const percentOf = (amount: number, percent: number) => Math.round((amount * percent) / 100);

/**
 * The discount, in cents, a code gives a cart at an instant.
 * - Outside the window (before the start, after the end; the end itself counts) it gives nothing.
 * - A code limited to a course applies only to that course's lines; otherwise to every line.
 * - once: one dollar amount, or the percentage of the eligible subtotal, off the order.
 * - each: the dollar amount off every eligible ticket or unit (at most that unit's price), or the
 *   percentage of every eligible unit's price (rounded per unit).
 * - Never more than the eligible subtotal.
 */
export function discountCents(lines: readonly CartLine[], rule: DiscountRule, at: Date): number {
  if (!isDiscountInWindow(rule, at)) return 0;
  const eligible = lines.filter(
    (line) => line.quantity > 0 && line.unit_price_cents > 0 && (rule.activity_id === null || line.activity_id === rule.activity_id),
  );
  const subtotal = eligible.reduce((sum, line) => sum + line.quantity * line.unit_price_cents, 0);
  if (subtotal <= 0 || rule.value <= 0) return 0;
  let discount: number;
  if (rule.apply_logic === 'once') {
    discount = rule.type === 'dollar' ? rule.value : percentOf(subtotal, rule.value);
  } else {
    discount = eligible.reduce((sum, line) => {
      const perUnit = rule.type === 'dollar' ? Math.min(rule.value, line.unit_price_cents) : percentOf(line.unit_price_cents, rule.value);
      return sum + perUnit * line.quantity;
    }, 0);
  }
  return Math.min(discount, subtotal);
}
