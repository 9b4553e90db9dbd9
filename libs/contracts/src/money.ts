/**
 * Money is integer cents below the form fields (spec 000 §1, spec 001 §9). These are the only
 * functions that turn typed text into cents and cents back into text, on both sides.
 */
const AMOUNT_PATTERN = /^\d+(\.\d{1,2})?$/;

/** Parses a dollar amount typed by a person ("450", "450.9", "450.99", "$1,200.50") into cents, or null. */
export function parseAmountToCents(input: string | number | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  const text = String(input).trim().replace(/^\$/, '').replace(/,/g, '');
  if (!AMOUNT_PATTERN.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** True when the text has at most two decimals and is a plain non-negative number. */
export function isCurrencyText(input: string): boolean {
  return parseAmountToCents(input) !== null;
}

/** Cents to "450.99" (no currency sign), for form fields. */
export function centsToAmountText(cents: number): string {
  return (cents / 100).toFixed(2);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents to "$1,200.50" for display. */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/**
 * A total shared over `quantity` units as order lines that always sum to the total (issue 32: an
 * external sale of $10.00 for 3 seats was 3 × $3.33 = $9.99): every unit at the floor of the share,
 * the remainder cents on one more line of one unit. One line when the total divides evenly.
 */
export function splitTotal(totalCents: number, quantity: number): { unitPriceCents: number; quantity: number }[] {
  if (!Number.isInteger(totalCents) || totalCents < 0) throw new RangeError('A total is a whole number of cents, 0 or more');
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError('A quantity is a whole number, 1 or more');
  const unit = Math.floor(totalCents / quantity);
  const remainder = totalCents - unit * quantity;
  if (remainder === 0) return [{ unitPriceCents: unit, quantity }];
  // The remainder (below `quantity` cents) on a line of one unit; the others at the floor.
  return [
    ...(quantity > 1 ? [{ unitPriceCents: unit, quantity: quantity - 1 }] : []),
    { unitPriceCents: unit + remainder, quantity: 1 },
  ];
}
