import { z } from 'zod';
import { centsToAmountText, formatCents, parseAmountToCents } from '../money';
import { MAX_CENTS, safeText } from '../safe-input';
import { refundToSchema } from '../wallet/refund-credit';

/*
 * Refunds (issue 9; spec 001 §4, §5, §6, §8; spec 000 §5, §8): the body of
 * POST /api/admin/order/{order_id}/refund and of the Remove student refund, their rules and every
 * message the API and the dialogs say. Each lives here once.
 */

/**
 * Where a refund in an order's ledger was made: `app`, by this back office (the drawer, Remove
 * student); `provider`, at the payment provider itself (the Stripe dashboard), recorded from its webhooks.
 */
export const REFUND_ORIGINS = ['app', 'provider'] as const;
export type RefundOrigin = (typeof REFUND_ORIGINS)[number];

/**
 * A refund's status at the payment provider (Stripe's refund statuses; the demo provider's are
 * succeeded) as the order drawer's refunds ledger shows it, with its tag colour: a refund that failed
 * or was canceled gave its amount back to the order, and the ledger must not read as money returned.
 */
export const REFUND_STATUS_DISPLAY: Record<string, { label: string; color: string }> = {
  // Recorded, the provider's answer not recorded yet (being asked; the reconciler finishes it): its amount is reserved.
  requested: { label: 'Processing', color: 'blue' },
  succeeded: { label: 'Refunded', color: 'green' },
  pending: { label: 'Pending', color: 'gold' },
  requires_action: { label: 'Pending', color: 'gold' },
  failed: { label: 'Failed', color: 'red' },
  canceled: { label: 'Canceled', color: 'default' },
};
/** REFUND_STATUS_DISPLAY of a status, or the status itself (a provider's new status) untinted. */
export const refundStatusDisplay = (status: string): { label: string; color: string } =>
  Object.hasOwn(REFUND_STATUS_DISPLAY, status) ? REFUND_STATUS_DISPLAY[status] : { label: status, color: 'default' };

/** Spec 001 §4: only these statuses can be refunded. */
export const REFUNDABLE_STATUSES = ['paid', 'partial_refund'] as const;

export const REFUND_MESSAGES = {
  // Spec 001 §8 toasts
  refunded: 'Order refunded successfully',
  failedPrefix: 'Failed to refund order:',
  failed: (reason: string) => `Failed to refund order: ${reason}`,
  notRefundable: 'Order cannot be refunded',
  zeroTotal: 'Order total is $0.00',
  noPaymentMethod: 'Please add a payment method in billing settings',
  neverCharged: 'Payment never charged',
  takesDays: 'Refunds can take up to 10 days to appear',
  // The API's own rules (the spec leaves the server out)
  notWorkbench: (source: string) => `Sold through ${source}: refund it there.`,
  exceedsRemaining: (remainingCents: number) => `Refund amount cannot exceed the remaining amount of ${formatCents(remainingCents)}`,
  amountWholeCents: 'The amount is a whole number of cents greater than 0.',
  reasonTooLong: 'A reason is at most 500 characters.',
  reasonRequired: 'Enter a reason for the refund.',
  providerFailed: 'The payment provider did not answer. Please try again.',
  providerRefused: (status: string) => `The payment provider did not make the refund (${status}).`,
  // The history line of a refund the provider later failed or canceled (its amount is given back to the order)
  providerReversed: (amountCents: number, reason: string) => `Refund of ${formatCents(amountCents)} failed: ${reason}`,
  // The history line of a refund made at the provider itself (the Stripe dashboard), recorded from its webhooks
  refundedAtProvider: (amountCents: number, provider: string) => `Refunded ${formatCents(amountCents)} in ${provider}`,
  // The same, beyond what was left of the order's total: only what was left is counted
  refundedAtProviderCapped: (amountCents: number, countedCents: number, provider: string) =>
    `Refunded ${formatCents(amountCents)} in ${provider}; ${formatCents(countedCents)} counted: the order's total is refunded`,
  // The refunds ledger's "By" of a refund made at the provider
  madeAtProvider: 'In Stripe',
  idempotencyKey: 'Idempotency-Key is 1 to 200 characters without control characters.',
  // Spec 000 §5, §8: the refund of Remove student
  amountNonZero: 'Amount must be a valid non-zero number',
  exceedsOriginal: (amount: string) => `Refund amount cannot exceed the original amount of ${amount}`,
  selectReason: 'Please select a reason for the refund.',
  removeRefundFailed: 'Failed to refund order. Please try again.',
} as const;

const M = REFUND_MESSAGES;

export const REFUND_REASON_MAX = 500;

/** The reasons the Remove student dialog offers (spec 000 §8: "Please select a reason"). */
export const REFUND_REASONS = [
  'Requested by customer',
  'Schedule conflict',
  'Class cancelled by the studio',
  'Duplicate payment',
  'Other',
] as const;

const amountCents = z.number({ error: M.amountWholeCents }).int(M.amountWholeCents).min(1, M.amountWholeCents).max(MAX_CENTS, M.amountWholeCents);
const reason = safeText({ error: M.reasonTooLong }).trim().max(REFUND_REASON_MAX, M.reasonTooLong);

/** POST /api/admin/order/{order_id}/refund: `amount` (cents) for a partial refund; none refunds what is left. */
export const refundBodySchema = z.strictObject({
  amount: amountCents.optional().describe('cents; leave out to refund the whole remaining amount'),
  reason: reason.optional(),
  refund_to: refundToSchema.optional(),
});
export type RefundBody = z.infer<typeof refundBodySchema>;

/** DELETE /api/admin/enrollment/{enrollment_id}: an optional refund of the student's order, in the same operation. */
export const removeEnrollmentBodySchema = z.strictObject({
  refund: z
    .strictObject({
      amount: z.number({ error: M.amountNonZero }).int(M.amountNonZero).min(1, M.amountNonZero).max(MAX_CENTS, M.amountNonZero).describe('cents'),
      reason: safeText({ error: M.selectReason }).trim().min(1, M.selectReason).max(REFUND_REASON_MAX, M.reasonTooLong),
      refund_to: refundToSchema.optional(),
    })
    .optional(),
  keep_use: z
    .boolean()
    .optional()
    .describe('an owner keeps the membership booking or pack credit the booking used (by default it is given back)'),
});
export type RemoveEnrollmentBody = z.infer<typeof removeEnrollmentBodySchema>;

/** Idempotency-Key header of a refund action: one per dialog submission, so a retry refunds once. */
export const idempotencyKeySchema = safeText({ error: M.idempotencyKey }).min(1, M.idempotencyKey).max(200, M.idempotencyKey);

/** Total minus what was refunded already. */
export const remainingRefundable = (order: { total: number; refunded_amount: number }) => Math.max(0, order.total - order.refunded_amount);

/**
 * The partial amount typed in the order drawer's refund dialog (spec 001 §5): digits with up to 2
 * decimals, above 0 and at most the remaining amount. Answers the cents, or null (the button is disabled).
 */
export function partialRefundCents(text: string, remainingCents: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const value = parseAmountToCents(trimmed);
  if (value === null || value <= 0 || value > remainingCents) return null;
  return value;
}

/**
 * The refund amount of Remove student (spec 000 §5): a non-zero number not above what can be
 * refunded. Answers the cents or the message to show.
 */
export function removalRefundAmount(text: string, maxCents: number): { cents: number } | { error: string } {
  const value = parseAmountToCents(text);
  if (value === null || value <= 0) return { error: M.amountNonZero };
  if (value > maxCents) return { error: M.exceedsOriginal(formatCents(maxCents)) };
  return { cents: value };
}

/** The suggested amount as the form field shows it. */
export const refundAmountText = (cents: number) => centsToAmountText(cents);

/* Whether a refund request may be made at all: refundRefusal in refund-request-rule.ts (issue 33). */

/** The Billing settings page (the studio's payment methods on file, spec 001 §6, §7). */
export const BILLING_MESSAGES = {
  loadFailed: 'Could not load the payment methods',
  none: 'No payment method on file. Refunds need one.',
  setupFailed: 'Could not open the page to add a payment method. Please try again.',
  demo: 'Demo provider: the card saved is a demo card, no card is charged.',
} as const;
