import type { OrderStatus } from '@studio/contracts';

/**
 * What changed the refunded amount:
 * - `amount`: a refund of money (the drawer's refund, Remove student's, one failing at the
 *   provider): the order is refunded once all of its total is back;
 * - `whole`: the whole sale was given back (an Eventbrite order refunded or cancelled): refunded,
 *   whatever it cost, a free order too;
 * - `part`: some seats of the sale were given back and the rest still attend: partial_refund at
 *   most, even when the tickets given back were all the order cost (the others were free), since
 *   refunded would say nothing of it is left.
 */
export type RefundScope = 'amount' | 'whole' | 'part';

/**
 * An order's status once its refunded amount is `refundedCents` (spec 001 §4): refunded, or
 * partial_refund while some of it is refunded; with nothing refunded (the only refund failed at the
 * provider) an order the refunds had marked is paid again, and any other keeps its status.
 */
export function statusAfterRefund(totalCents: number, refundedCents: number, current: OrderStatus, scope: RefundScope = 'amount'): OrderStatus {
  if (scope === 'whole') return 'refunded';
  if (refundedCents > 0) return scope === 'amount' && refundedCents >= totalCents ? 'refunded' : 'partial_refund';
  return current === 'refunded' || current === 'partial_refund' ? 'paid' : current;
}
