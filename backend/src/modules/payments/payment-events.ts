import { Injectable } from '@nestjs/common';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

/**
 * What a payment provider announces. The orders module subscribes (payment.succeeded: the order is
 * paid, the student enrolled; checkout.expired / checkout.cancelled: the order fails, the seat is
 * freed). The demo provider emits these when the payer clicks Pay or Cancel, or when an expired link
 * is looked at; Stripe's arrive later through its webhooks. refund.updated: a refund was made or changed
 * at the provider (the orders module gives back the amount of one that failed, and records one made
 * at the provider itself).
 */
export type PaymentEvent =
  | {
      type: 'payment.succeeded';
      provider: string;
      sessionId: string;
      orderId: string | null;
      organizationId: string;
      paymentIntentId: string;
      amountCents: number;
    }
  | {
      type: 'checkout.expired';
      provider: string;
      sessionId: string;
      orderId: string | null;
      organizationId: string;
    }
  | {
      type: 'checkout.cancelled';
      provider: string;
      sessionId: string;
      orderId: string | null;
      organizationId: string;
    }
  | { type: 'payment_method.added'; provider: string; organizationId: string; paymentMethodId: string }
  | {
      /**
       * A refund made or changed at the provider (Stripe: refund.created, refund.updated,
       * refund.failed, charge.refund.updated, and each refund of a charge.refunded): a pending refund
       * succeeded, or failed or was canceled and the money never left, or a refund was made in the
       * Stripe dashboard. The orders module finds its ledger row by the provider's refund id, in this
       * organization only, and records a refund made at the provider that is in no ledger yet.
       */
      type: 'refund.updated';
      provider: string;
      organizationId: string;
      providerRefundId: string;
      /** The payment the refund is of: finds the order when the ledger row is not committed yet. */
      paymentIntentId: string | null;
      /** The provider's status: pending, requires_action, succeeded, failed or canceled. */
      status: string;
      amountCents: number;
      /** Why it failed (Stripe's failure_reason), when it did. */
      failureReason: string | null;
      /**
       * The order the refund names (Stripe: its order_id metadata). Every refund this app makes names
       * its order; a refund naming none, not in the ledger, was made at the provider itself (the
       * Stripe dashboard) and is recorded on the order of its payment.
       */
      orderReference: string | null;
      /**
       * The refunds ledger row the refund names (Stripe: its order_refund_id metadata; every refund
       * this app makes since issue 19): finds a refund still `requested` whose answer was never
       * recorded (a crash between the provider's refund and our commit).
       */
      ledgerRefundId?: string | null;
      /** The provider's reason for the refund (Stripe: duplicate, fraudulent, requested_by_customer), if any. */
      reason: string | null;
    };

/**
 * What a payment provider announces (see DurableEvents), published in the transaction of the
 * provider's own write: the demo ledger's commit, or the stored Stripe webhook event's. Handlers run
 * in outbox jobs, at least once, in order per order (or checkout session, or refund).
 */
@Injectable()
export class PaymentEvents extends DurableEvents<PaymentEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => {
      if (e.type === 'refund.updated') return `refund:${e.providerRefundId}`;
      if (e.type === 'payment_method.added') return null;
      return e.orderId ?? `checkout:${e.sessionId}`;
    });
  }
}
