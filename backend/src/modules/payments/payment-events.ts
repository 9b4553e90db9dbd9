import { Injectable, Logger } from '@nestjs/common';

/**
 * What a payment provider announces. The orders module subscribes (payment.succeeded: the order is
 * paid, the student enrolled; checkout.expired / checkout.cancelled: the order fails, the seat is
 * freed). The demo provider emits these when the payer clicks Pay or Cancel, or when an expired link
 * is looked at; Stripe's arrive later through its webhooks.
 */
export type PaymentEvent =
  | { type: 'payment.succeeded'; provider: string; sessionId: string; orderId: string | null; organizationId: string; paymentIntentId: string; amountCents: number }
  | { type: 'checkout.expired' | 'checkout.cancelled'; provider: string; sessionId: string; orderId: string | null; organizationId: string }
  | { type: 'payment_method.added'; provider: string; organizationId: string; paymentMethodId: string };

type Handler = (event: PaymentEvent) => Promise<void> | void;

/**
 * A small in-process observer (the repository has no @nestjs/event-emitter): handlers run one after
 * the other, after the provider's own write is committed; a failing handler is logged and does not
 * undo the payment. Work that must survive a crash belongs in a queue job started by the handler.
 */
@Injectable()
export class PaymentEvents {
  private readonly handlers = new Map<PaymentEvent['type'], Handler[]>();
  private readonly logger = new Logger(PaymentEvents.name);

  /** Subscribes to one event type; answers a function that unsubscribes. */
  on<T extends PaymentEvent['type']>(type: T, handler: (event: Extract<PaymentEvent, { type: T }>) => Promise<void> | void): () => void {
    const list = this.handlers.get(type) ?? [];
    list.push(handler as Handler);
    this.handlers.set(type, list);
    return () => this.handlers.set(type, (this.handlers.get(type) ?? []).filter((h) => h !== handler));
  }

  async emit(event: PaymentEvent): Promise<void> {
    for (const handler of this.handlers.get(event.type) ?? []) {
      try {
        await handler(event);
      } catch (error) {
        this.logger.error(`Handler of ${event.type} failed: ${(error as Error).message}`);
      }
    }
  }
}
