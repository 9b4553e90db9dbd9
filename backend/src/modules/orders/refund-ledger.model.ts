import { ORDER_MESSAGES, MANAGE_MESSAGES, REFUND_MESSAGES as M, REFUND_REFUSAL_KINDS, type RefundRefusal, type RefundRefusalCode } from '@studio/contracts';
import { DomainError } from '../../common/domain-error';
import type { OrderRefund } from './entities/order-refund.entity';

/*
 * The refunds ledger's shared vocabulary (issue 9, 19, 33): a ledger row's states and how far
 * along each is, what the provider answered, where a row stands, the provider's idempotency key,
 * the errors the refunds raise (DomainError), and the in-process queue that serialises one order's
 * refunds. Used by the ledger's state machine (refund-ledger.service.ts), provider sync, booking
 * refunds, quotes and the RefundsService facade.
 */

/** The ledger reasons of a booking cancelled by its policy (issue 23): the manage link's, and the admin's Cancel booking. */
export const BOOKING_CANCEL_REASONS = new Set<string>([MANAGE_MESSAGES.cancelledByStudent, MANAGE_MESSAGES.cancelledByStudio]);

/**
 * A refund's statuses at the provider by how far along they are: a ledger row only moves forward,
 * so a late delivery of an older change changes nothing. failed and canceled are final (the money
 * never left); a succeeded refund can still fail (Stripe: rarely, days later).
 */
export const REFUND_STAGE: Record<string, number> = { pending: 0, requires_action: 0, succeeded: 1, failed: 2, canceled: 2 };
export const reversed = (status: string) => status === 'failed' || status === 'canceled';
/** The statuses of an order whose money was taken: a refund made at the provider moves them (statusAfterRefund). */
export const MONEY_TAKEN = new Set<string>(['paid', 'partial_refund', 'refunded']);

/** The idempotency key of a refund at the provider: its ledger row, so asking again (a retry, the reconciler) is the same request. */
export const providerRefundKey = (ledgerId: string) => `order-refund-${ledgerId}`;

/** The ledger's reason and key of the refund of a payment that found no seat (refundUnseated). */
export const UNSEATED_REFUND_REASON = 'The seats were no longer available when the payment completed';
/** The ledger's reason of the refund of a payment on an order that had ended (cancelled or expired) before it completed. */
export const ENDED_ORDER_REFUND_REASON = 'The order had been cancelled or had expired when the payment completed';
export const UNSEATED_REFUND_KEY = 'store:unseated';

/** A ledger row still `requested`: what asking the provider needs. */
export interface RequestedRefund {
  id: string;
  orderId: string;
  organizationId: string;
  amountCents: number;
  reason: string;
  paymentIntentId: string;
}

/**
 * What the provider answered a refund: `made` (pending, succeeded, requires_action), `refused` (a
 * definite no: more than is left, an unknown payment, failed or canceled; nothing moved), or
 * `unknown` (no answer, a 5xx: the refund may or may not exist; the row stays requested).
 */
export type RefundOutcome =
  | { kind: 'made'; refundId: string; status: string; amountCents: number }
  | { kind: 'refused'; status: 'failed' | 'canceled'; message: string; detail: string }
  | { kind: 'unknown'; detail: string };

/** Where a ledger row stands after its answer was recorded (or found recorded). */
export type Recorded = { state: 'made' } | { state: 'refused'; message: string } | { state: 'requested' };

/** Where a ledger row stands: requested, refused (failed or canceled, with what its call answered) or made. */
export const standingOf = (entry: OrderRefund): Recorded =>
  entry.status === 'requested'
    ? { state: 'requested' }
    : reversed(entry.status)
      ? { state: 'refused', message: entry.failureMessage ?? M.providerRefused(entry.status) }
      : { state: 'made' };

/** What the refunds raise: the request rule's refusals (libs/contracts), and the ledger's and the provider's own. */
export type RefundErrorCode = RefundRefusalCode | 'order_not_found' | 'refused_before' | 'provider_refused' | 'provider_unknown';
export type RefundError = DomainError<RefundErrorCode>;

export const refundErrors = {
  /** The request rule's refusal, with its kind (a refused amount is bad input, the rest conflict). */
  refused: (refusal: RefundRefusal): RefundError => new DomainError(REFUND_REFUSAL_KINDS[refusal.code], refusal),
  orderNotFound: (): RefundError => new DomainError('not_found', { code: 'order_not_found', message: ORDER_MESSAGES.notFound }),
  /** The same action again, whose refund the provider refused: the same answer. */
  refusedBefore: (message: string | null): RefundError => new DomainError('conflict', { code: 'refused_before', message: message ?? M.notRefundable }),
  providerRefused: (message: string): RefundError => new DomainError('conflict', { code: 'provider_refused', message }),
  providerUnknown: (): RefundError => new DomainError('upstream', { code: 'provider_unknown', message: M.providerFailed }),
};

/**
 * Runs the work of one key after the work before it with the same key, in this process. Refunds
 * of one order wait here rather than each holding a pooled connection while it waits for the row
 * lock (the demo provider needs a connection of its own while the lock is held); the row lock is
 * what serialises them across API replicas.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.catch(() => undefined).then(work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
