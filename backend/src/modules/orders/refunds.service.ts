import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { type RefundBody } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';
import { PaymentsPort } from '../payments/payments.port';
import { OrderRefund } from './entities/order-refund.entity';
import { Order } from './entities/order.entity';
import { OrderEvents } from './order-events';
import { BookingRefunds } from './booking-refunds.service';
import { UNSEATED_REFUND_KEY, refundErrors, standingOf, type Recorded, type RequestedRefund } from './refund-ledger.model';
import { RefundLedger, type OrderRefundOut } from './refund-ledger.service';
import { RefundProviderSync } from './refund-provider-sync.service';
import { RefundQuotes } from './refund-quotes.service';

export { ENDED_ORDER_REFUND_REASON, UNSEATED_REFUND_REASON, providerRefundKey, type RefundOutcome } from './refund-ledger.model';
export type { OrderRefundOut } from './refund-ledger.service';

/*
 * Refunds of orders (issue 9, 19, 33): the one service the orders module exports for refunds, a
 * facade over its jobs so callers need one name. It owns the admin's refund (POST
 * /api/admin/order/{id}/refund) and the refund of a payment the app cannot honour; the rest is
 * delegated: the ledger's state machine (refund-ledger.service.ts), provider sync
 * (refund-provider-sync.service.ts), refunds on booking removal (booking-refunds.service.ts) and
 * quotes (refund-quotes.service.ts). Refusals raise DomainError (common/domain-error.ts).
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly orderEvents: OrderEvents,
    private readonly ledger: RefundLedger,
    private readonly providerSync: RefundProviderSync,
    private readonly bookings: BookingRefunds,
    private readonly quotes: RefundQuotes,
  ) {}

  /**
   * POST /api/admin/order/{id}/refund: refunds `amount` cents, or all that is left. `clientKey` (the
   * Idempotency-Key header) names the action: a call that finds its row (a retry after a crash)
   * finishes that refund instead of making another.
   */
  async refund(ctx: RequestContext, orderId: string, body: RefundBody, clientKey?: string): Promise<void> {
    await this.requireOrder(ctx, orderId);
    const hasMethod = (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
    const requested = await this.ledger.serialised(orderId, () =>
      this.em.transactional((em) =>
        this.ledger.request(ctx, em as EntityManager, orderId, {
          amountCents: body.amount,
          reason: body.reason ?? '',
          clientKey,
          hasMethod,
          refundTo: body.refund_to,
        }),
      ),
    );
    if (requested) await this.ledger.finish(requested, { answer: true });
  }

  /**
   * A payment the app cannot honour (issue 31: its order had ended, or its seats were gone): its
   * refund recorded `requested` in the caller's transaction, the one that records the payment (it
   * holds the order's row lock, and the order is already marked paid with its payment), with
   * refund.requested published in it: the provider is asked from the outbox, and the reconciler asks
   * again for a row still requested. A crash at any point leaves either no payment recorded (the
   * provider's event is delivered again) or the payment and its refund request together. Answers the
   * ledger row, or null when nothing is left to ask (a repeat, or only wallet money to give back,
   * given back now).
   */
  async requestUnhonoured(em: EntityManager, organizationId: string, orderId: string, reason: string): Promise<string | null> {
    const requested = await this.ledger.request({ organizationId, userId: null }, em, orderId, {
      reason,
      clientKey: UNSEATED_REFUND_KEY,
      hasMethod: true,
    });
    if (!requested) return null;
    await this.orderEvents.publish(em, { type: 'refund.requested', organizationId, orderId, refundId: requested.id });
    return requested.id;
  }

  /**
   * refund.requested: asks the provider for a ledger row still requested and records its answer
   * (the same key as any retry: never two refunds). A row answered already is left as it is.
   */
  async finishRequested(organizationId: string, refundId: string): Promise<Recorded | null> {
    const entry = await this.em.fork().findOne(OrderRefund, { id: refundId, organizationId });
    if (!entry || entry.status !== 'requested') return entry ? standingOf(entry) : null;
    const order = await this.em.fork().findOneOrFail(Order, { id: entry.orderId });
    return this.ledger.finish(this.ledger.requestedOf(entry, order.paymentIntentId ?? ''));
  }

  /** Steps (b) and (c) of a requested refund (RefundLedger.finish). */
  finish(requested: RequestedRefund, options: { answer?: boolean } = {}): Promise<Recorded> {
    return this.ledger.finish(requested, options);
  }

  /** The refunds ledger of one order, oldest first (RefundLedger.list). */
  list(organizationId: string, orderId: string): Promise<OrderRefundOut[]> {
    return this.ledger.list(organizationId, orderId);
  }

  /** A refund made or changed at the provider (RefundProviderSync.providerUpdate). */
  providerUpdate(...args: Parameters<RefundProviderSync['providerUpdate']>): ReturnType<RefundProviderSync['providerUpdate']> {
    return this.providerSync.providerUpdate(...args);
  }

  /** A seat of a session the studio cancelled, refunded in full (BookingRefunds.refundCancelledSeat). */
  refundCancelledSeat(...args: Parameters<BookingRefunds['refundCancelledSeat']>): ReturnType<BookingRefunds['refundCancelledSeat']> {
    return this.bookings.refundCancelledSeat(...args);
  }

  /** A booking cancelled by its policy (BookingRefunds.refundBooking). */
  refundBooking(...args: Parameters<BookingRefunds['refundBooking']>): Promise<void> {
    return this.bookings.refundBooking(...args);
  }

  /** What the Remove student dialog offers (RefundQuotes). */
  removalQuote(ctx: RequestContext, enrollmentId: string): ReturnType<RefundQuotes['removalQuote']> {
    return this.quotes.removalQuote(ctx, enrollmentId);
  }

  /** The same for an appointment (RefundQuotes). */
  appointmentRemovalQuote(ctx: RequestContext, appointmentId: string): ReturnType<RefundQuotes['appointmentRemovalQuote']> {
    return this.quotes.appointmentRemovalQuote(ctx, appointmentId);
  }

  private async requireOrder(ctx: RequestContext, orderId: string): Promise<void> {
    if (!(await this.em.count(Order, { id: orderId, organization: ctx.organizationId }))) throw refundErrors.orderNotFound();
  }
}
