import { CREDIT_MESSAGES, refundSplit, type RefundDestination } from '../wallet/refund-credit-rules';
import type { Refusal, RefusalKind } from '../refusal';
import { WORKBENCH_SOURCE } from './order.schema';
import { REFUNDABLE_STATUSES, REFUND_MESSAGES as M, remainingRefundable } from './refund.schema';

/*
 * The one rule that judges a refund request (issue 33; spec 001 §2, §4, §6, §8): the API's refund
 * (RefundsService: the drawer's Refund payment, Remove student, Cancel booking, session cancel),
 * the Remove student quotes and the order drawer's menu all ask it with the same inputs, so they
 * cannot disagree. Pure: it answers a typed refusal or null.
 */

/** Why a refund request is refused. */
export type RefundRefusalCode =
  | 'not_workbench'
  | 'not_refundable'
  | 'zero_total'
  | 'never_charged'
  | 'nothing_left'
  | 'exceeds_remaining'
  | 'card_never_charged'
  | 'no_payment_method';
export type RefundRefusal = Refusal<RefundRefusalCode>;

/** The kind of each refusal: a refused amount is bad input (400, on `amount`); the rest conflict with the order (409). */
export const REFUND_REFUSAL_KINDS: Record<RefundRefusalCode, RefusalKind> = {
  not_workbench: 'conflict',
  not_refundable: 'conflict',
  zero_total: 'conflict',
  never_charged: 'conflict',
  nothing_left: 'conflict',
  exceeds_remaining: 'invalid',
  card_never_charged: 'conflict',
  no_payment_method: 'conflict',
};

/** What a refund request is judged on. */
export interface RefundRequest {
  /** The order as the API answers it (snake_case, cents). */
  order: { source: string; status: string; total: number; refunded_amount: number; stripe_payment_intent_id: string | null };
  /** Cents the order was paid with gift cards or store credit (refunded first, refundSplit); 0 when none or not known. */
  wallet_paid_cents?: number;
  /** Whether the studio has a payment method on file; undefined: not known yet (not a refusal). */
  has_payment_method?: boolean;
  /** The amount asked; undefined: all that is left. */
  amount_cents?: number;
  /** Where it goes: the card (default) or store credit (no provider call, no payment method needed). */
  refund_to?: RefundDestination;
}

/**
 * Why this refund cannot be made, or null. In this order: the source (spec 001 §2: refund is
 * only for workbench orders; an order sold elsewhere is refunded there, whatever its state here),
 * the status (spec 001 §4), a $0.00 total, no charge at all (neither card nor wallet money), nothing
 * left to refund, an amount above what is left; then, for the part that goes back to the card only,
 * a card charge and a payment method on file (spec 001 §6).
 */
export function refundRefusal(request: RefundRequest): RefundRefusal | null {
  const { order } = request;
  const walletPaid = request.wallet_paid_cents ?? 0;
  if (order.source !== WORKBENCH_SOURCE) return { code: 'not_workbench', message: M.notWorkbench(order.source) };
  if (!(REFUNDABLE_STATUSES as readonly string[]).includes(order.status)) return { code: 'not_refundable', message: M.notRefundable };
  if (order.total === 0) return { code: 'zero_total', message: M.zeroTotal };
  if (!order.stripe_payment_intent_id && walletPaid <= 0) return { code: 'never_charged', message: M.neverCharged };
  const remaining = remainingRefundable(order);
  if (remaining <= 0) return { code: 'nothing_left', message: M.notRefundable };
  const amount = request.amount_cents ?? remaining;
  if (amount > remaining) return { code: 'exceeds_remaining', message: M.exceedsRemaining(remaining), field: 'amount' };
  const split = refundSplit({
    total_cents: order.total,
    refunded_cents: order.refunded_amount,
    wallet_paid_cents: walletPaid,
    amount_cents: amount,
    refund_to: request.refund_to ?? 'card',
  });
  if (split.to_card_cents > 0 && !order.stripe_payment_intent_id) return { code: 'card_never_charged', message: CREDIT_MESSAGES.neverChargedCard };
  if (split.to_card_cents > 0 && request.has_payment_method === false) return { code: 'no_payment_method', message: M.noPaymentMethod };
  return null;
}
