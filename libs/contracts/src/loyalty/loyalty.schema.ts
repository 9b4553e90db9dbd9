import { z } from 'zod';
import { formatCents } from '../money';
import { POINTS_PER_DOLLAR } from './points';

export { POINTS_PER_DOLLAR, centsToPoints, pointsToCents, pointsWithValue } from './points';

/** The programme's unit (spec 000 §3, Loyalty program: status, unit). */
export const LOYALTY_UNIT = 'points';

export const LOYALTY_STATUSES = ['active', 'disabled'] as const;
export type LoyaltyStatus = (typeof LOYALTY_STATUSES)[number];

export const LOYALTY_MESSAGES = {
  /** The rule shown on the Loyalty settings page. */
  rule: `${POINTS_PER_DOLLAR} points = ${formatCents(100)}`,
  enabled: 'Loyalty program enabled',
  disabled: 'Loyalty program disabled',
  saveFailed: 'Failed to update the loyalty program',
  loadFailed: 'Could not load the loyalty program',
} as const;

/** GET /api/admin/loyalty-program: an organization with no programme reads as disabled. */
export const loyaltyProgramSchema = z.object({
  status: z.enum(LOYALTY_STATUSES),
  unit: z.literal(LOYALTY_UNIT),
});
export type LoyaltyProgram = z.infer<typeof loyaltyProgramSchema>;

/** PUT /api/admin/loyalty-program: the owner turns the programme on or off. */
export const loyaltyProgramUpdateSchema = z.strictObject({
  status: z.enum(LOYALTY_STATUSES),
});
export type LoyaltyProgramUpdate = z.infer<typeof loyaltyProgramUpdateSchema>;

/* ---------- The points ledger (issue 10, spec 001 §2 Loyalty dialog, §5, §7) ---------- */

/**
 * Why a balance changed: earned on a paid order, set by an admin, spent, taken back by a full refund,
 * or given back when that refund failed at the payment provider (the money stayed with the studio);
 * points redeemed at the store's checkout are given back (redemption_returned) when that order fails
 * or is refunded in full.
 */
export const LOYALTY_REASONS = [
  'earned',
  'adjusted',
  'redeemed',
  'refund_reversal',
  'refund_failed',
  'redemption_returned',
] as const;
export type LoyaltyReason = (typeof LOYALTY_REASONS)[number];

export const LOYALTY_REASON_LABELS: Record<LoyaltyReason, string> = {
  earned: 'Earned on an order',
  adjusted: 'Adjusted by an admin',
  redeemed: 'Redeemed',
  refund_reversal: 'Reversed by a refund',
  refund_failed: 'Restored after a failed refund',
  redemption_returned: 'Given back: the order was not completed or was refunded',
};

/** The largest balance an admin may set (a bound, so no number overflows its column). */
export const MAX_POINTS_BALANCE = 100_000_000;

export const LOYALTY_BALANCE_MESSAGES = {
  title: 'Adjust loyalty points',
  field: 'New points balance',
  suffix: 'Points',
  /** The dialog's save button (sic, spec 001 §2) and its busy label. */
  save: 'Refund',
  saving: 'Loading...',
  notActive: 'Loyalty program is not active',
  /** The failure toast of setting points (sic, spec 001 §8). */
  failed: 'Failed to refund order:',
  amountInvalid: 'The new balance is a whole number of points, 0 or more.',
  amountTooLarge: `The new balance is at most ${MAX_POINTS_BALANCE.toLocaleString('en-US')} points.`,
  updated: 'Loyalty points updated',
} as const;

/** Spec 001 §5: the points field accepts only empty, or digits with at most 2 decimals. */
export const POINTS_INPUT_PATTERN = /^(\d+(\.\d{0,2})?)?$/;

/** True when the text may stand in the points field (checked on every keystroke). */
export function isPointsInput(text: string): boolean {
  return POINTS_INPUT_PATTERN.test(text);
}

/** Spec 001 §5: what is sent is an integer parsed from the text ("12.75" sends 12); empty sends nothing. */
export function parsePointsInput(text: string): number | null {
  if (!text || !isPointsInput(text)) return null;
  return Number.parseInt(text, 10);
}

/** POST /api/admin/student/{student_id}/loyalty-balance/set: the new balance; a ledger entry records the difference. */
export const loyaltyBalanceSetSchema = z.strictObject({
  amount: z
    .number({ error: LOYALTY_BALANCE_MESSAGES.amountInvalid })
    .int({ error: LOYALTY_BALANCE_MESSAGES.amountInvalid })
    .min(0, { error: LOYALTY_BALANCE_MESSAGES.amountInvalid })
    .max(MAX_POINTS_BALANCE, { error: LOYALTY_BALANCE_MESSAGES.amountTooLarge }),
});
export type LoyaltyBalanceSet = z.infer<typeof loyaltyBalanceSetSchema>;

/** One ledger entry as the student drawer reads it (LoyaltyBalance; the first entry is the current balance). */
export const loyaltyEntrySchema = z.object({
  entry_id: z.uuid(),
  balance: z.number().int().describe('the balance after this entry'),
  points: z.number().int().describe('the change: positive when earned or raised'),
  reason: z.enum(LOYALTY_REASONS),
  order_id: z.uuid().nullable(),
  actor: z.string().nullable().describe("the admin's name, or null for an order's payment or refund"),
  created_at: z.string(),
});
export type LoyaltyEntry = z.infer<typeof loyaltyEntrySchema>;
