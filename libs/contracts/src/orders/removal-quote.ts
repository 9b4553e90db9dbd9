import { POLICIES, refundableShare } from '../catalog/policies';
import { WORKBENCH_SOURCE } from './order.schema';
import { REFUND_MESSAGES as M, refundRefusal } from './refund.schema';

/** What Remove student offers to refund: the order, what can be refunded now and what the policy suggests. */
export interface RemovalQuote {
  order: {
    order_id: string;
    order_number: number;
    status: string;
    total: number;
    refunded_amount: number;
  } | null;
  /** Cents that can be refunded now (0 when the order cannot be refunded). */
  refundable: number;
  /** Cents the course's cancellation policy refunds at this moment. */
  suggested_amount: number;
  share: number;
  policy: { id: number; name: string; rule: string } | null;
  starts_at: string;
  has_payment_method: boolean;
  /** Why the order cannot be refunded, or null. */
  refusal: string | null;
}

export interface RemovalQuoteInput {
  order: {
    order_id: string;
    order_number: number;
    status: string;
    source: string;
    total: number;
    refunded_amount: number;
    stripe_payment_intent_id: string | null;
  } | null;
  cancelPolicyId: number | null;
  startsAt: Date;
  hasPaymentMethod: boolean;
  now?: Date;
}

/**
 * The refund Remove student suggests (spec 000 §5): the course's cancellation policy's share at this
 * moment of what is still refundable, and why the order cannot be refunded, if it cannot. The same
 * reading as the session removal's quote on the server (RefundsService.removalQuote); the
 * appointment's Remove student reads its inputs (order, policy, payment methods) and asks this.
 */
export function removalQuote(input: RemovalQuoteInput): RemovalQuote {
  const { order } = input;
  const policy = POLICIES.find((p) => p.id === input.cancelPolicyId && p.kind === 'cancellation') ?? null;
  const msBeforeStart = input.startsAt.getTime() - (input.now ?? new Date()).getTime();
  const share = policy ? refundableShare(policy.id, msBeforeStart) : 0;
  const refusal = !order
    ? null
    : order.source !== WORKBENCH_SOURCE
      ? M.notWorkbench(order.source)
      : refundRefusal(order, input.hasPaymentMethod);
  const refundable =
    order && (refusal === null || refusal === M.noPaymentMethod)
      ? Math.max(0, order.total - order.refunded_amount)
      : 0;
  return {
    order: order
      ? {
          order_id: order.order_id,
          order_number: order.order_number,
          status: order.status,
          total: order.total,
          refunded_amount: order.refunded_amount,
        }
      : null,
    refundable,
    suggested_amount: Math.min(refundable, Math.round((order?.total ?? 0) * share)),
    share,
    policy: policy ? { id: policy.id, name: policy.name, rule: policy.rule } : null,
    starts_at: input.startsAt.toISOString(),
    has_payment_method: input.hasPaymentMethod,
    refusal,
  };
}
