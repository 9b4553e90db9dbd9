import { Injectable } from '@nestjs/common';
import { InProcessEvents } from '../../common/in-process-events';

/**
 * What a payment provider announces. The orders module subscribes (payment.succeeded: the order is
 * paid, the student enrolled; checkout.expired / checkout.cancelled: the order fails, the seat is
 * freed). The demo provider emits these when the payer clicks Pay or Cancel, or when an expired link
 * is looked at; Stripe's arrive later through its webhooks.
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
  | { type: 'payment_method.added'; provider: string; organizationId: string; paymentMethodId: string };

/**
 * What a payment provider announces (see InProcessEvents). Handlers run after the provider's own
 * write is committed; a failing handler is logged and does not undo the payment, except that a
 * Stripe webhook job emits with `rethrow`, so it is retried.
 */
@Injectable()
export class PaymentEvents extends InProcessEvents<PaymentEvent> {}
