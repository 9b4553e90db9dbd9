import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { REFUND_MESSAGES as M } from '@studio/contracts';
import { isUuid } from '../../common/uuid-param.pipe';
import { PaymentEvent, PaymentEvents } from '../payments/payment-events';
import { OrderRefund } from './entities/order-refund.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvent, OrderEvents } from './order-events';
import { statusAfterRefund } from './order-status';
import { MONEY_TAKEN, REFUND_STAGE, reversed, type RefundOutcome } from './refund-ledger.model';
import { RefundLedger } from './refund-ledger.service';

/*
 * Provider sync of the refunds ledger (issue 19, 21): a refund made or changed at the payment
 * provider (PaymentEvents refund.updated, from Stripe's refund and charge.refunded webhooks and the
 * refund reconciler's comparison with the provider's list) brought into the ledger: a requested
 * row's answer recorded, a row following the provider's status (a refund that failed later gives
 * its amount back), or a refund made in the Stripe dashboard recorded on its order, once.
 */

type RefundFailedEvent = Extract<OrderEvent, { type: 'order.refund_failed' }>;
type RefundUpdatedEvent = Extract<PaymentEvent, { type: 'refund.updated' }>;

/** The provider's reason as the refunds list shows it: requested_by_customer → Requested by customer. */
const reasonText = (reason: string | null) => (reason ? (reason.charAt(0).toUpperCase() + reason.slice(1)).replace(/_/g, ' ').slice(0, 500) : '');
/** The provider as the history names it ("Refunded $12.00 in Stripe"). */
const providerName = (provider: string) => (provider === 'stripe' ? 'Stripe' : provider.charAt(0).toUpperCase() + provider.slice(1));

/**
 * The order whose refunds ledger holds the provider's refund in the organization (any origin), or
 * undefined: what tells a refund we know from one made at the provider.
 */
async function ledgerOrderOf(
  db: { execute: EntityManager['execute'] },
  organizationId: string,
  providerRefundId: string,
): Promise<{ order_id: string } | undefined> {
  const [row] = await db.execute<{ order_id: string }[]>(
    `select order_id from order_refund where organization_id = ? and provider_refund_id = ? limit 1`,
    [organizationId, providerRefundId],
  );
  return row;
}

@Injectable()
export class RefundProviderSync implements OnModuleInit {
  private readonly logger = new Logger(RefundProviderSync.name);

  constructor(
    private readonly em: EntityManager,
    private readonly ledger: RefundLedger,
    private readonly activity: OrderActivityService,
    private readonly orderEvents: OrderEvents,
    private readonly paymentEvents: PaymentEvents,
  ) {}

  onModuleInit(): void {
    this.paymentEvents.on('refund.updated', 'orders.refunds', async (event) => {
      await this.providerUpdate(event);
    });
  }

  /**
   * A refund made or changed at the provider (PaymentEvents refund.updated, from Stripe's refund and
   * charge.refunded webhooks, and the refund reconciler's comparison with the provider's list), in
   * the event's organization only. Answers what it did:
   *
   * - `completed`: the refund names a ledger row still `requested` (its answer was never recorded: a
   *   crash, or the webhook came first): its answer is recorded as the refund call records it.
   * - `updated`: its ledger row (by the provider's refund id) follows the provider's status; a
   *   refund that failed or was canceled gives its amount back to the order and writes a
   *   refund_failed history line, once, and order.refund_failed is published (the loyalty module
   *   gives back the points a full refund took). Enrollments are not touched.
   * - `recorded`: in no ledger, pending or succeeded: recorded on the order of its payment (the
   *   order the refund names when it is one of them, else the oldest), origin `provider`, once: a
   *   refund made in the Stripe dashboard, or one this app made whose row was lost.
   * - `none`: nothing to do (already so, unknown, failed before it was ever recorded).
   */
  async providerUpdate(event: RefundUpdatedEvent): Promise<'completed' | 'updated' | 'recorded' | 'none'> {
    const { organizationId, providerRefundId } = event;
    if (!isUuid(organizationId)) {
      this.logger.warn(`Refund ${providerRefundId}: organization_id is not an id, ignored`);
      return 'none';
    }
    if (!Object.hasOwn(REFUND_STAGE, event.status)) {
      this.logger.warn(`Refund ${providerRefundId}: unknown status ${event.status}, ignored`);
      return 'none';
    }
    const connection = this.em.getConnection();
    const row = await ledgerOrderOf(connection, organizationId, providerRefundId);
    if (!row && event.ledgerRefundId && isUuid(event.ledgerRefundId)) {
      const [requested] = await connection.execute<{ id: string }[]>(
        `select id from order_refund where id = ? and organization_id = ? and status = 'requested'`,
        [event.ledgerRefundId, organizationId],
      );
      if (requested) {
        const outcome: RefundOutcome = reversed(event.status)
          ? {
              kind: 'refused',
              status: event.status as 'failed' | 'canceled',
              message: M.providerRefused(event.status),
              detail: M.providerRefused(event.failureReason ?? event.status),
            }
          : { kind: 'made', refundId: providerRefundId, status: event.status, amountCents: event.amountCents };
        const recorded = await this.ledger.recordOutcome(requested.id, organizationId, outcome);
        if (recorded) return 'completed';
      }
    }
    // Not in the ledger: the orders of its payment in the organization, oldest first (a refund made at
    // the provider on a payment several orders name is the oldest's, unless it names one of them).
    const byPayment =
      row || !event.paymentIntentId
        ? []
        : await connection.execute<{ order_id: string }[]>(
            `select id as order_id from customer_order where organization_id = ? and payment_intent_id = ? order by created_at, id`,
            [organizationId, event.paymentIntentId],
          );
    if (row) {
      const applied = await this.ledger.serialised(row.order_id, () => this.em.transactional((em) => this.providerUpdateLocked(em as EntityManager, event, row.order_id)));
      return applied?.changed ? 'updated' : 'none';
    }
    if (byPayment.length > 0 && !reversed(event.status)) {
      const named = byPayment.find((o) => o.order_id === event.orderReference);
      const target = (named ?? byPayment[0]).order_id;
      const applied = await this.ledger.serialised(target, () =>
        this.em.transactional((em) => this.providerUpdateLocked(em as EntityManager, event, target, { recordAtProvider: true })),
      );
      if (applied?.changed) {
        if (event.orderReference) this.logger.warn(`Refund ${providerRefundId} of order ${event.orderReference} was in no ledger: recorded on order ${target}`);
        return 'recorded';
      }
      if (applied) return 'none';
    }
    this.logger.warn(`Refund ${providerRefundId} (${event.status}) is not in the refunds of organization ${organizationId}: ignored`);
    return 'none';
  }

  /**
   * Null when the refund is not this order's; else the event to announce after the commit (a
   * refund that failed just now, or one made at the provider recorded just now), whether or not
   * anything changed. With `recordAtProvider`, a refund in no ledger of the organization is
   * recorded on this order.
   */
  private async providerUpdateLocked(
    em: EntityManager,
    event: RefundUpdatedEvent,
    orderId: string,
    options: { recordAtProvider?: boolean } = {},
  ): Promise<{ announce: OrderEvent | null; changed: boolean } | null> {
    const [locked] = await em.execute<{ id: string }[]>(`select id from customer_order where id = ? and organization_id = ? for no key update`, [
      orderId,
      event.organizationId,
    ]);
    if (!locked) return null;
    const entry = await em.findOne(OrderRefund, { orderId, organizationId: event.organizationId, providerRefundId: event.providerRefundId }, { refresh: true });
    if (!entry) {
      const recorded = options.recordAtProvider ? await this.recordAtProviderLocked(em, event, orderId) : null;
      if (recorded?.announce) await this.orderEvents.publish(em, recorded.announce);
      return recorded;
    }
    // Still requested (its answer not recorded yet): the refund call or the reconciler records it.
    if (entry.status === 'requested') return { announce: null, changed: false };
    const from = Object.hasOwn(REFUND_STAGE, entry.status) ? REFUND_STAGE[entry.status] : REFUND_STAGE.succeeded;
    if (entry.status === event.status || reversed(entry.status) || REFUND_STAGE[event.status] < from) return { announce: null, changed: false };
    entry.status = event.status;
    let failed: RefundFailedEvent | null = null;
    if (reversed(event.status)) {
      const order = await em.findOneOrFail(Order, { id: orderId }, { refresh: true });
      const before = order.status;
      // What this ledger counted when the refund was made is what is given back.
      order.refundedCents = Math.max(0, order.refundedCents - entry.amountCents);
      if (order.status === 'refunded' || order.status === 'partial_refund') order.status = statusAfterRefund(order.totalCents, order.refundedCents, order.status);
      failed = {
        type: 'order.refund_failed',
        organizationId: event.organizationId,
        orderId,
        studentId: order.student.id,
        // Only when this refund's amount was what made the order refunded (a provider refund that counted 0 was not).
        wasFull: before === 'refunded' && order.status !== 'refunded',
        amountCents: entry.amountCents,
        refundId: entry.id,
      };
      this.activity.record(em, {
        organizationId: event.organizationId,
        orderId,
        action: 'refund_failed',
        actorUserId: null,
        amountCents: entry.amountCents,
        detail: M.providerReversed(entry.amountCents, event.failureReason ?? event.status),
      });
    }
    await em.flush();
    if (failed) await this.orderEvents.publish(em, failed);
    return { announce: failed, changed: true };
  }

  /**
   * Records a refund made at the provider itself (the Stripe dashboard) on `orderId`, whose row is
   * locked: a ledger row of origin `provider` (no admin), the order's refunded amount and status
   * (statusAfterRefund, scope amount), a refund history line, and, after the commit, the same
   * order.refunded as a refund made here (the loyalty module takes back the points of a full
   * refund). The amount counted never goes beyond the order's total: the rest is logged and said in
   * the history line. Enrollments are not touched: removing a student stays the admin's decision.
   *
   * Once per refund and organization: under this lock the ledger is read again across all orders,
   * and the insert is a compare-and-set on the unique index order_refund_provider_once (a delivery
   * racing this one on another order, or another API replica, inserts nothing).
   */
  private async recordAtProviderLocked(
    em: EntityManager,
    event: RefundUpdatedEvent,
    orderId: string,
  ): Promise<{ announce: OrderEvent | null; changed: boolean } | null> {
    if (await ledgerOrderOf(em, event.organizationId, event.providerRefundId)) return { announce: null, changed: false };
    const order = await em.findOneOrFail(Order, { id: orderId }, { refresh: true });
    const amount = Math.max(0, Math.trunc(event.amountCents));
    if (amount <= 0) {
      this.logger.warn(`Refund ${event.providerRefundId} made at ${event.provider} moves ${event.amountCents} cents: ignored`);
      return null;
    }
    const counted = Math.min(amount, Math.max(0, order.totalCents - order.refundedCents));
    if (counted < amount) {
      this.logger.warn(
        `Refund ${event.providerRefundId} made at ${event.provider} of ${amount} cents on order ${orderId}: ${counted} counted, the order's total of ${order.totalCents} cents is reached`,
      );
    }
    const id = randomUUID();
    const inserted = await em.execute<{ id: string }[]>(
      `insert into order_refund (id, order_id, organization_id, amount_cents, reason, actor_user_id, provider_refund_id, status, idempotency_key, origin, created_at)
       values (?, ?, ?, ?, ?, null, ?, ?, null, 'provider', ?)
       on conflict (organization_id, provider_refund_id) where origin = 'provider' do nothing
       returning id`,
      [id, orderId, event.organizationId, counted, reasonText(event.reason), event.providerRefundId, event.status, new Date()],
    );
    if (inserted.length === 0) return { announce: null, changed: false };
    const provider = providerName(event.provider);
    if (counted > 0) {
      order.refundedCents += counted;
      // An order sold as paid follows its refunds; another (fraudulent, pending, failed) keeps its status.
      if (MONEY_TAKEN.has(order.status)) order.status = statusAfterRefund(order.totalCents, order.refundedCents, order.status, 'amount');
    }
    this.activity.record(em, {
      organizationId: event.organizationId,
      orderId,
      action: 'refund',
      actorUserId: null,
      amountCents: counted,
      detail: counted < amount ? M.refundedAtProviderCapped(amount, counted, provider) : M.refundedAtProvider(amount, provider),
    });
    await em.flush();
    if (counted === 0) return { announce: null, changed: true };
    return {
      changed: true,
      announce: {
        type: 'order.refunded',
        organizationId: event.organizationId,
        orderId,
        studentId: order.student.id,
        full: order.status === 'refunded',
        amountCents: counted,
        refundId: id,
      },
    };
  }
}
