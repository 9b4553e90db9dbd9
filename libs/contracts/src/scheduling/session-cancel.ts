import { z } from 'zod';
import { formatCents } from '../money';
import { requiredWhen } from '../required-when';
import { multilineText } from '../safe-input';
import { refundToSchema } from '../wallet/refund-credit';

/*
 * The studio cancels a session with students (issue 23): the body of
 * POST /api/admin/events/{event_id}/cancel, its rules, what the cancellation answers per student, and
 * every message the API, the dialog and the drawer say. Each lives here once.
 */

/** "Refund everyone in full" or "No refund". */
export const SESSION_CANCEL_REFUNDS = ['full', 'none'] as const;
export type SessionCancelRefund = (typeof SESSION_CANCEL_REFUNDS)[number];

export const SESSION_CANCEL_REFUND_LABELS: Record<SessionCancelRefund, string> = {
  full: 'Refund everyone in full',
  none: 'No refund',
};

/** The longest reason the studio may give (it is mailed to every student). */
export const SESSION_CANCEL_REASON_MAX = 500;

export const SESSION_CANCEL_MESSAGES = {
  choiceRequired: 'Choose "Refund everyone in full" or "No refund".',
  reasonRequired: 'Please give the reason for the cancellation; it is sent to every student.',
  reasonTooLong: `A reason is at most ${SESSION_CANCEL_REASON_MAX} characters.`,
  alreadyCancelled: 'This session is already cancelled.',
  /** Add student, a payment link or the store's checkout on a cancelled session. */
  sessionCancelled: 'This session was cancelled.',
  cancelled: 'Session cancelled',
  cancelFailed: 'Failed to cancel the session',
  /** The studio refunds everyone but has no payment method on file (refunds need one, spec 001 §6). */
  noPaymentMethod: 'Please add a payment method in billing settings before refunding everyone.',
  /** The ledger's reason of each refund: who cancelled, and why. */
  ledgerReason: (reason: string) => `The studio cancelled the session: ${reason}`.slice(0, 500),
  /** Why a student's order was not refunded when the studio refunded everyone. */
  noOrder: 'No order was paid for this seat',
  /** The history line of a payment link the cancellation cancelled. */
  linkCancelled: 'The studio cancelled the session',
  badge: 'Cancelled',
} as const;

/** How far the studio's cancellation has got, as the drawer says it ("Refunding 2 of 5…"). */
export function cancelProgressText(refund: SessionCancelRefund, processed: number, total: number): string {
  if (processed >= total) return total === 0 ? 'Cancelled' : `All ${total} ${total === 1 ? 'student' : 'students'} processed`;
  return `${refund === 'full' ? 'Refunding' : 'Removing'} ${processed + 1} of ${total}…`;
}

/** What became of one student of a cancelled session. */
export const SESSION_CANCEL_OUTCOMES = ['pending', 'refunded', 'credited', 'not_refunded', 'refund_failed', 'no_refund'] as const;
export type SessionCancelOutcome = (typeof SESSION_CANCEL_OUTCOMES)[number];

/** The drawer's words for a student's outcome, with the amount refunded when there is one. */
export function cancelOutcomeText(outcome: SessionCancelOutcome, refundCents: number): string {
  switch (outcome) {
    case 'pending':
      return 'Processing';
    case 'refunded':
      return `Removed, refunded ${formatCents(refundCents)}`;
    case 'credited':
      return `Removed, ${formatCents(refundCents)} as store credit`;
    case 'refund_failed':
      return 'Removed, refund failed';
    case 'not_refunded':
      return 'Removed, nothing to refund';
    case 'no_refund':
      return 'Removed, no refund';
  }
}

const reasonRule = multilineText({ error: SESSION_CANCEL_MESSAGES.reasonRequired })
  .trim()
  .max(SESSION_CANCEL_REASON_MAX, SESSION_CANCEL_MESSAGES.reasonTooLong);

/**
 * The body of POST /api/admin/events/{event_id}/cancel. The choice is always required. The reason is
 * required when the session has students or seats held by payment links (they are mailed it); the
 * API checks that against the session under its seat lock.
 */
export const sessionCancelSchema = z
  .object({
    refund: z.enum(SESSION_CANCEL_REFUNDS, { error: SESSION_CANCEL_MESSAGES.choiceRequired }),
    reason: reasonRule
      .optional()
      .meta(
        requiredWhen(
          'the session has students or seats held by payment links',
          `Told to every student (at most ${SESSION_CANCEL_REASON_MAX} characters); required when the session has students or held seats`,
        ),
      ),
    refund_to: refundToSchema.optional().describe("With refund full: 'card' (default) or 'store_credit' (no payment method needed)"),
  })
  .strict();
export type SessionCancelBody = z.input<typeof sessionCancelSchema>;

/** The dialog (shown only for a session with students or held seats): both fields required. */
export const sessionCancelFormSchema = z.object({
  refund: z.enum(SESSION_CANCEL_REFUNDS, { error: SESSION_CANCEL_MESSAGES.choiceRequired }),
  reason: reasonRule.min(1, SESSION_CANCEL_MESSAGES.reasonRequired),
  refund_to: refundToSchema.optional(),
});
export type SessionCancelFormInput = z.input<typeof sessionCancelFormSchema>;
