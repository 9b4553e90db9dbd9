import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What the orders module announces, published in the transaction of the change (the outbox). The
 * orders module itself listens to its payment links' announcements (the expiry job, the mail), the
 * store's confirmation to store_order.paid, the loyalty module to the rest (order.paid: the product lines earn their points; order.refunded with
 * `full`: the points the order earned are taken back; order.refund_failed with `wasFull`: the points
 * that full refund took are given back; order.failed, and order.refunded with `full`: the points the
 * order redeemed at the store's checkout are given back). Delivery is at least once, in order per order: listeners
 * are idempotent.
 */
export type OrderEvent =
  | {
      /** A payment link's order and held seat were committed: its expiry job is queued from this. */
      type: 'payment_link.created';
      organizationId: string;
      orderId: string;
      /** When the link and its seat run out (ISO 8601). */
      expiresAt: string;
      /** When its payment page must be recorded by, or the hold is released (ISO 8601; issue 31). */
      pageDueBy?: string;
    }
  | {
      /** The provider's checkout of a payment link is recorded on its order: the link is mailed from this. */
      type: 'payment_link.sent';
      organizationId: string;
      orderId: string;
      /** The checkout page the payer opens. */
      url: string;
    }
  | {
      /**
       * A payment the app cannot honour (the order was cancelled or had expired, or its seats were
       * gone when it completed): its refund is recorded `requested` in the ledger in the transaction
       * that recorded the payment, and asked of the provider from this (the reconciler asks again
       * for any row still requested). The buyer is mailed that the payment is refunded.
       */
      type: 'refund.requested';
      organizationId: string;
      orderId: string;
      /** The refunds ledger row to ask the provider about. */
      refundId: string;
    }
  | {
      /**
       * The app ended a pending order whose payment page may still be open (the session was
       * cancelled, a newer checkout replaced it): the page is closed at the provider from this, so
       * nobody can pay it; a payment that still arrives is refunded.
       */
      type: 'checkout.close';
      organizationId: string;
      orderId: string;
      /** The provider's checkout session of the order. */
      checkoutSessionId: string;
    }
  | {
      type: 'order.paid';
      organizationId: string;
      orderId: string;
      studentId: string;
      /** Points the order earns: the sum of its product lines' points × quantity. */
      loyaltyPoints: number;
    }
  | {
      /** A store order was paid (or booked with nothing due): its confirmation is mailed from this. */
      type: 'store_order.paid';
      organizationId: string;
      orderId: string;
    }
  | {
      /**
       * A pending order ended unpaid: its payment could not be started, its hold or link expired, or
       * its checkout was cancelled (the loyalty module gives back the points it redeemed).
       */
      type: 'order.failed';
      organizationId: string;
      orderId: string;
    }
  | {
      type: 'order.refunded';
      organizationId: string;
      orderId: string;
      studentId: string;
      full: boolean;
      amountCents: number;
      /** The refund's row in the order's refunds ledger. */
      refundId: string;
      /**
       * The order's total, when the refund was a booking cancelled by its policy (issue 23): the
       * points the order redeemed come back in proportion (amountCents of it) on a partial refund.
       */
      orderTotalCents?: number;
    }
  | {
      /** A refund failed or was canceled at the provider after it was made: its amount is back on the order. */
      type: 'order.refund_failed';
      organizationId: string;
      orderId: string;
      studentId: string;
      /** The order was fully refunded until this refund failed (it is not any more). */
      wasFull: boolean;
      amountCents: number;
      /** The failed refund's row in the order's refunds ledger. */
      refundId: string;
    };

/** What the orders module announces (see DurableEvents); ordered per order. */
@Injectable()
export class OrderEvents extends DurableEvents<OrderEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => e.orderId);
  }
}
