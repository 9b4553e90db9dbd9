import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { formatCents, UNHONOURED_PAYMENT_MESSAGES as U, type OrderActivityAction } from '@studio/contracts';
import { isRefusal } from '../../common/domain-error';
import { isUuid } from '../../common/uuid-param.pipe';
import { MailService } from '../notifications/mail.service';
import { PaymentEvent, PaymentEvents } from '../payments/payment-events';
import { CheckoutCreated, PaymentNotFoundError, PaymentsPort } from '../payments/payments.port';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvents } from './order-events';
import { ENDED_ORDER_REFUND_REASON, RefundsService, UNSEATED_REFUND_REASON } from './refunds.service';
import { crashPoint } from '../../common/crash-point';

export type Ended = 'payment_link_expired' | 'payment_link_cancelled';
type EndedEvent = Extract<PaymentEvent, { type: 'checkout.expired' | 'checkout.cancelled' }>;

/**
 * How a pending order's payment ends (payment links and store checkouts alike, issue 31: every
 * provider payment ends matched to what it bought or to a refund).
 *
 * - A payment (the provider's payment.succeeded, or the expiry job asking the provider) is recorded
 *   on its order under the order's row lock, whatever the order's state: a pending order's held seats
 *   become its booking; an order that had ended (the session cancelled, the link cancelled or expired,
 *   replaced by a newer checkout) or whose seats were gone is marked paid and its refund is requested
 *   in the same transaction (RefundsService.requestUnhonoured, carried out from the outbox), with the
 *   reason on the order. A repeated event finds the payment recorded and changes nothing.
 * - Expired or cancelled at the provider, or ended by the app: pending → failed, the hold released,
 *   order.failed announced; when the app ends it, checkout.close closes its page at the provider.
 * - A payment page is recorded on its order only while the order is pending (recordPage); an order
 *   still without a page when its page deadline passes (its checkout died between the hold and the
 *   page) releases its hold.
 */
@Injectable()
export class PaymentSettlementService implements OnModuleInit {
  private readonly logger = new Logger('PaymentSettlement');

  constructor(
    private readonly em: EntityManager,
    private readonly seats: EnrollmentsService,
    private readonly activity: OrderActivityService,
    private readonly refunds: RefundsService,
    private readonly payments: PaymentsPort,
    private readonly events: PaymentEvents,
    private readonly orderEvents: OrderEvents,
    private readonly mail: MailService,
  ) {}

  onModuleInit(): void {
    this.events.on('payment.succeeded', 'orders.payment-links', (e) =>
      this.paid(e.organizationId, e.orderId, e.sessionId, e.paymentIntentId, e.amountCents),
    );
    const endedBy = (action: Ended) => async (e: EndedEvent) => {
      await this.ended(e.organizationId, e.orderId, e.sessionId, action);
    };
    this.events.on('checkout.expired', 'orders.payment-links', endedBy('payment_link_expired'));
    this.events.on('checkout.cancelled', 'orders.payment-links', endedBy('payment_link_cancelled'));
    this.orderEvents.on('refund.requested', 'orders.unhonoured-refund', (e) => this.refundRequested(e.organizationId, e.orderId, e.refundId));
    this.orderEvents.on('checkout.close', 'orders.checkout-close', (e) => this.closePage(e.organizationId, e.orderId, e.checkoutSessionId));
  }

  /**
   * A payment completed. Recorded once on its order (its payment intent); honoured (the held seats
   * or time booked, order.paid and the store's confirmation announced) or, when the order had ended
   * or its seats were gone, refunded: the refund requested in this same transaction.
   */
  async paid(organizationId: string, orderId: string | null, sessionId: string, paymentIntentId: string, amountCents: number): Promise<void> {
    const receiptUrl = await this.payments.receiptUrl(paymentIntentId).catch((error: Error) => {
      this.logger.warn(`No receipt for ${paymentIntentId}: ${error.message}`);
      return null;
    });
    await this.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const order = await this.lockedOrder(em, organizationId, orderId, sessionId);
      if (!order) return;
      if (order.paymentIntentId === paymentIntentId) return; // recorded before: a repeated event
      if (order.paymentIntentId) {
        // A second payment of one order: each checkout page is made once per order (its key), so
        // this is a person's case, not the app's: flagged loudly, never ignored quietly.
        this.logger.error(`Order ${order.id} was paid twice (${order.paymentIntentId}, then ${paymentIntentId}): refund the second at the provider`);
        return;
      }
      const wasPending = order.status === 'pending';
      order.paymentIntentId = paymentIntentId;
      order.receiptUrl = receiptUrl;
      let refusal: string | null = wasPending ? null : U.orderEnded;
      if (wasPending) {
        try {
          // The held seat becomes the enrollment; scheduling announces it in this transaction.
          // An appointment's confirmation is its own for a payment link; a store order's is store_order.paid's.
          await this.seats.convertHold({ organizationId }, em, order.id, { confirmAppointment: !order.accessTokenHash });
        } catch (error) {
          if (!isRefusal(error)) throw error;
          // The payment completed as the hold ran out and the seats went to someone else (or the session was cancelled).
          refusal = U.notSeated(error.message);
          this.logger.warn(`Order ${order.id} paid without a seat: ${error.message}; refunding it`);
        }
      } else this.logger.warn(`Order ${order.id} was ${order.status} when its payment ${paymentIntentId} completed; refunding it`);
      order.status = 'paid';
      this.activity.record(em, { organizationId, orderId: order.id, action: 'payment_received', amountCents, detail: refusal ?? '' });
      await em.flush();
      if (refusal) {
        await this.refunds.requestUnhonoured(em, organizationId, order.id, wasPending ? UNSEATED_REFUND_REASON : ENDED_ORDER_REFUND_REASON);
        return;
      }
      const lines = await em.find(OrderLine, { order: order.id });
      // Once per move to paid, with the move (the outbox): loyalty points and the like.
      await this.orderEvents.publish(em, {
        type: 'order.paid',
        organizationId,
        orderId: order.id,
        studentId: order.student.id,
        loyaltyPoints: lines.reduce((sum, l) => sum + l.loyaltyPoints * l.quantity, 0),
      });
      // A store order's confirmation (a payment link's order has none: the studio sent the link).
      if (order.accessTokenHash) await this.orderEvents.publish(em, { type: 'store_order.paid', organizationId, orderId: order.id });
    });
    crashPoint('payment.after-settlement');
  }

  /**
   * Expired or cancelled: pending → failed, the held seat is freed, order.failed announced. With
   * `close` (the app ended it, not the provider), its page is closed at the provider (checkout.close).
   * Answers whether the order ended now.
   */
  async ended(organizationId: string, orderId: string | null, sessionId: string | null, action: Ended, detail = '', close = false): Promise<boolean> {
    return this.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const order = await this.lockedOrder(em, organizationId, orderId, sessionId);
      if (!order || order.status !== 'pending') return false;
      // Another page's end (not the one recorded on the order) ends nothing.
      if (sessionId !== null && order.checkoutSessionId && order.checkoutSessionId !== sessionId) return false;
      await this.endLocked(em, order, action, detail, close);
      return true;
    });
  }

  /** ended()'s work on an order the caller locked (in its transaction): also used to replace a checkout. */
  async endLocked(em: EntityManager, order: Order, action: Ended, detail: string, close: boolean): Promise<void> {
    const organizationId = order.organization.id;
    order.status = 'failed';
    await this.seats.releaseHold({ organizationId }, em, order.id);
    this.activity.record(em, { organizationId, orderId: order.id, action: action satisfies OrderActivityAction, detail });
    await em.flush();
    // With the move to failed (the outbox): the points and wallet money a store order used are given back.
    await this.orderEvents.publish(em, { type: 'order.failed', organizationId, orderId: order.id });
    if (close && order.checkoutSessionId)
      await this.orderEvents.publish(em, { type: 'checkout.close', organizationId, orderId: order.id, checkoutSessionId: order.checkoutSessionId });
  }

  /**
   * Records the provider's page on its order, only while the order is still pending (its hold alive):
   * `then` runs in the same transaction (a link's history line and mail). Answers the order as it
   * stands, and whether the page was recorded; a page not recorded is closed at the provider here,
   * so nobody can pay an order that ended.
   */
  async recordPage(
    organizationId: string,
    orderId: string,
    page: CheckoutCreated,
    then?: (em: EntityManager) => Promise<void>,
  ): Promise<{ recorded: boolean; order: Order | null }> {
    const answer = await this.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const order = await em.findOne(Order, { id: orderId, organization: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!order || order.status !== 'pending') return { recorded: false, order };
      // Recorded already (a resumed twin of this call): the same page, nothing run twice.
      if (order.checkoutSessionId === page.sessionId) return { recorded: true, order };
      if (order.checkoutSessionId) return { recorded: false, order };
      order.checkoutSessionId = page.sessionId;
      order.checkoutUrl = page.url;
      await em.flush();
      await then?.(em);
      return { recorded: true, order };
    });
    if (!answer.recorded && answer.order?.checkoutSessionId !== page.sessionId) await this.closePage(organizationId, orderId, page.sessionId);
    return answer;
  }

  /**
   * The page deadline of a pending order: still without a page (its checkout died between the hold
   * and the provider's page), it ends and its hold is released.
   */
  async pageDeadline(organizationId: string, orderId: string): Promise<boolean> {
    const ended = await this.failWithoutPage(organizationId, orderId, U.noPage);
    if (ended) this.logger.warn(`Order ${orderId} had no payment page at its deadline: its hold is released`);
    return ended;
  }

  /**
   * Ends a pending order that has no page recorded (its page could not be made, or not in time);
   * one whose page a resumed twin of the call recorded meanwhile is left alone. Answers whether it ended.
   */
  async failWithoutPage(organizationId: string, orderId: string, detail: string): Promise<boolean> {
    return this.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const order = await em.findOne(Order, { id: orderId, organization: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!order || order.status !== 'pending' || order.checkoutSessionId) return false;
      await this.endLocked(em, order, 'payment_link_cancelled', detail, false);
      return true;
    });
  }

  /**
   * The reconciler's repair (issue 31): an order holding a payment it did not honour and no refund
   * (left so by an older version) gets its refund requested now, under its lock, with refund.requested.
   * Answers whether one was requested.
   */
  async refundUnhonoured(organizationId: string, orderId: string): Promise<boolean> {
    return this.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const order = await em.findOne(Order, { id: orderId, organization: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!order?.paymentIntentId || order.refundedCents > 0) return false;
      const ended = order.status === 'failed';
      if (ended) {
        order.status = 'paid';
        this.activity.record(em, { organizationId, orderId, action: 'payment_received', amountCents: order.totalCents - order.walletCents, detail: U.orderEnded });
        await em.flush();
      } else if (order.status !== 'paid') return false;
      this.logger.warn(`Order ${orderId} held a payment it did not honour and no refund: refund requested`);
      return (await this.refunds.requestUnhonoured(em, organizationId, orderId, ended ? ENDED_ORDER_REFUND_REASON : UNSEATED_REFUND_REASON)) !== null;
    });
  }

  /** checkout.close: the page can no longer be paid; a payment faster than the close is recorded (and refunded). */
  private async closePage(organizationId: string, orderId: string, checkoutSessionId: string): Promise<void> {
    crashPoint('checkout-close.before-provider');
    let status: string;
    try {
      status = await this.payments.expireCheckout(checkoutSessionId);
    } catch (error) {
      if (error instanceof PaymentNotFoundError) return;
      throw error;
    }
    if (status !== 'paid') return;
    const state = await this.payments.retrieveCheckout(checkoutSessionId);
    if (state.paymentIntentId) await this.paid(organizationId, orderId, checkoutSessionId, state.paymentIntentId, state.amountTotalCents);
  }

  /** refund.requested: the buyer is told (once), then the provider is asked (the reconciler asks again if it does not answer). */
  private async refundRequested(organizationId: string, orderId: string, refundId: string): Promise<void> {
    const order = await this.em.fork().findOne(Order, { id: orderId, organization: organizationId }, { populate: ['student', 'organization'] });
    if (order) {
      const [row] = await this.em.getConnection().execute<{ amount_cents: number; reason: string }[]>(
        `select amount_cents, reason from order_refund where id = ? and organization_id = ?`,
        [refundId, organizationId],
      );
      const what = order.description.replace(/[\r\n]+/g, ' ').trim();
      await this.mail.enqueue({
        to: order.student.email,
        subject: U.mailSubject(what).slice(0, 300),
        text: [
          `Hello ${order.student.firstName},`,
          '',
          `Your payment of ${formatCents(row ? Number(row.amount_cents) : order.totalCents)} to ${order.organization.name} for ${what} (order #${order.orderNumber}) could not be honoured: ${(row?.reason ?? ENDED_ORDER_REFUND_REASON).toLowerCase()}.`,
          'It is being refunded in full to the card you paid with; nothing else is needed from you.',
        ].join('\n'),
        dedupeKey: `unhonoured-refund:${refundId}`,
      });
    }
    crashPoint('refund.before-provider');
    await this.refunds.finishRequested(organizationId, refundId);
  }

  /**
   * The payment-link or store order an outcome is about (by our order id, else by its page), locked,
   * whatever its state; null when unknown, another organization's, or not a checkout's. A payment
   * through a page that is not the order's recorded one is money taken all the same: paid() records it.
   */
  private async lockedOrder(em: EntityManager, organizationId: string, orderId: string | null, sessionId: string | null): Promise<Order | null> {
    if (orderId !== null && !isUuid(orderId)) return null;
    if (orderId === null && sessionId === null) return null;
    const where = orderId ? { id: orderId, organization: organizationId } : { checkoutSessionId: sessionId, organization: organizationId };
    const order = await em.findOne(Order, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!order || !order.linkExpiresAt) return null;
    return order;
  }
}
