import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { CREDIT_MESSAGES, REFUND_MESSAGES as M, refundRefusal, refundSplit, type RefundDestination, type RefundOrigin, type RefundRequest } from '@studio/contracts';
import { refusalStatus } from '../../common/domain-error';
import { IdempotencyStore } from '../../common/idempotency/idempotency.store';
import { RequestContext } from '../../common/request-context';
import { OverRefundError, PaymentNotFoundError, PaymentsPort } from '../payments/payments.port';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { AppointmentsService } from '../scheduling/appointments.service';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { WalletService } from '../wallet/wallet.service';
import { OrderRefund } from './entities/order-refund.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvents } from './order-events';
import { statusAfterRefund } from './order-status';
import {
  BOOKING_CANCEL_REASONS,
  KeyedQueue,
  MONEY_TAKEN,
  providerRefundKey,
  refundErrors,
  reversed,
  standingOf,
  type Recorded,
  type RefundOutcome,
  type RequestedRefund,
} from './refund-ledger.model';

/*
 * The refunds ledger's state machine (issue 9, spec 001 §4–§6; issue 19: in two steps, reconciled
 * with the provider; issue 33: judged by the one request rule of libs/contracts). A refund is
 * (a) recorded as `requested` under the order's row lock, once the rule holds, with its amount
 * reserved on the order (counted in `refunded_cents`: concurrent refunds can never pass the total),
 * and committed; (b) asked of the provider outside any transaction, with the ledger row's id as
 * idempotency key; (c) recorded in a second transaction: made (history line, what follows a refund
 * made, order.refunded published in that transaction) or refused (row failed, amount given back,
 * refund_failed history line). An unknown answer leaves the row requested for the reconciler.
 * Also the ledger's read (the order drawer's refunds list). Refusals raise DomainError.
 */

/** One ledger row as the order drawer shows it. */
export interface OrderRefundOut {
  refund_id: string;
  amount: number;
  reason: string;
  actor: string | null;
  status: string;
  provider_refund_id: string | null;
  origin: RefundOrigin;
  refund_to: RefundDestination;
  created_at: string;
}

/** The order as the request rule reads it (the API's snake_case, cents). */
export const refundRuleOrder = (order: Order): RefundRequest['order'] => ({
  source: order.source,
  status: order.status,
  total: order.totalCents,
  refunded_amount: order.refundedCents,
  stripe_payment_intent_id: order.paymentIntentId ?? null,
});

@Injectable()
export class RefundLedger {
  /** One order's refunds, one after the other in this process (KeyedQueue). */
  private readonly queue = new KeyedQueue();
  private readonly logger = new Logger(RefundLedger.name);

  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly activity: OrderActivityService,
    private readonly enrollments: EnrollmentsService,
    private readonly orderEvents: OrderEvents,
    private readonly idempotency: IdempotencyStore,
    private readonly appointments: AppointmentsService,
    private readonly wallet: WalletService,
  ) {}

  /** Runs `work` after the refunds work of the same order already queued in this process. */
  serialised<T>(orderId: string, work: () => Promise<T>): Promise<T> {
    return this.queue.run(orderId, work);
  }

  /**
   * Step (a), in `em`'s transaction: locks the order row (SELECT … FOR NO KEY UPDATE), checks every
   * rule against the amount left (total minus `refunded_cents`, which counts every refund requested,
   * pending or made), records the refund as `requested` and reserves its amount on the order.
   * Answers the row to ask the provider about, or null when the action's refund was made already.
   * The same action (the client's key, or Remove student's enrollment) finds its row instead: still
   * requested, it is asked again; refused, it answers the same refusal.
   */
  async request(
    // Who asked: an admin, or nobody (the store's own refund of a payment that found no seat).
    ctx: Pick<RequestContext, 'organizationId'> & { userId: string | null },
    em: EntityManager,
    orderId: string,
    input: {
      amountCents?: number;
      reason: string;
      clientKey?: string;
      enrollmentId?: string;
      /** Remove student on an appointment (issue 22): the appointment cancelled once the refund is made. */
      appointmentId?: string;
      appointmentNotify?: boolean;
      hasMethod: boolean;
      /** Where it goes (issue 24): the card (default) or the student's store credit, made at once. */
      refundTo?: RefundDestination;
      /** A removal's refund: give back the use that covered the booking when the refund is made. */
      returnUse?: boolean;
    },
  ): Promise<RequestedRefund | null> {
    // A refund made at once (no card part) removes the seat in this transaction: the seat lock first,
    // before the order's, in the order recordOutcome takes them.
    if (input.enrollmentId) await this.enrollments.lockSeatOf(em, ctx.organizationId, input.enrollmentId);
    const [row] = await em.execute<{ id: string }[]>(`select id from customer_order where id = ? and organization_id = ? for no key update`, [
      orderId,
      ctx.organizationId,
    ]);
    if (!row) throw refundErrors.orderNotFound();
    const order = await em.findOneOrFail(Order, { id: orderId }, { refresh: true });
    let same = input.clientKey
      ? await em.findOne(OrderRefund, { orderId, idempotencyKey: input.clientKey }, { refresh: true })
      : input.enrollmentId
        ? await em.findOne(OrderRefund, { orderId, enrollmentId: input.enrollmentId, status: { $nin: ['failed', 'canceled'] } }, { refresh: true })
        : input.appointmentId
          ? await em.findOne(OrderRefund, { orderId, appointmentId: input.appointmentId, status: { $nin: ['failed', 'canceled'] } }, { refresh: true })
          : null;
    if (same && input.clientKey && same.status !== 'requested' && same.createdAt.getTime() < Date.now() - this.idempotency.options.ttlMs) {
      // The key expired with its answer (IdempotencyStore): it names a new action now, and moves to its row.
      await em.nativeUpdate(OrderRefund, { id: same.id }, { idempotencyKey: null });
      same = null;
    }
    if (same) {
      if (same.status === 'requested') return this.requestedOf(same, order.paymentIntentId ?? '');
      if (reversed(same.status)) throw refundErrors.refusedBefore(same.failureMessage ?? null);
      return null;
    }
    const refundTo = input.refundTo ?? 'card';
    // Gift-card and store-credit money the order used (issue 24): refunded first (refundSplit).
    const walletPaid = (await this.wallet.orderMoneyUses(ctx.organizationId, orderId, em)).reduce((sum, use) => sum + use.cents, 0);
    const remaining = order.totalCents - order.refundedCents;
    const amount = input.amountCents ?? remaining;
    // The one request rule (libs/contracts): the quotes and the order drawer ask it the same.
    const refusal = refundRefusal({
      order: refundRuleOrder(order),
      wallet_paid_cents: walletPaid,
      has_payment_method: input.hasMethod,
      amount_cents: amount,
      refund_to: refundTo,
    });
    if (refusal) throw refundErrors.refused(refusal);
    const split = refundSplit({
      total_cents: order.totalCents,
      refunded_cents: order.refundedCents,
      wallet_paid_cents: walletPaid,
      amount_cents: amount,
      refund_to: refundTo,
    });

    const entry = em.create(OrderRefund, {
      orderId,
      organizationId: ctx.organizationId,
      amountCents: amount,
      reason: input.reason,
      actorUserId: ctx.userId,
      status: 'requested',
      idempotencyKey: input.clientKey ?? null,
      enrollmentId: input.enrollmentId ?? null,
      appointmentId: input.appointmentId ?? null,
      appointmentNotify: input.appointmentNotify ?? true,
      refundTo,
      walletCents: split.wallet_cents,
      returnUse: input.returnUse ?? false,
    });
    // Reserved: a concurrent refund sees it as refunded until the provider refuses it.
    order.refundedCents += amount;
    await em.flush();
    if (split.to_card_cents === 0) {
      // Nothing for the card: made at once, with no provider call (store credit, wallet money back).
      entry.status = 'succeeded';
      if (MONEY_TAKEN.has(order.status)) order.status = statusAfterRefund(order.totalCents, order.refundedCents, order.status);
      await this.applyMade(em, entry, order);
      return null;
    }
    return this.requestedOf(entry, order.paymentIntentId!);
  }

  /**
   * What follows a refund made, in the transaction that records it: the history line, the seat
   * removed or the appointment cancelled (a removal's refund), the wallet's part (issue 24: gift-card
   * and credit money back to its holdings when the whole order is refunded at once, else to store
   * credit; a store-credit refund's amount to the student's store credit, key refund:<id>; the use
   * that covered the booking given back), and order.refunded announced (the outbox: loyalty follows).
   */
  async applyMade(em: EntityManager, entry: OrderRefund, order: Order): Promise<void> {
    const organizationId = entry.organizationId;
    this.activity.record(em, {
      organizationId,
      orderId: order.id,
      action: 'refund',
      actorUserId: entry.actorUserId ?? null,
      amountCents: entry.amountCents,
      detail: entry.refundTo === 'store_credit' ? [entry.reason, CREDIT_MESSAGES.storeCredit].filter(Boolean).join(' · ') : entry.reason,
    });
    await em.flush();
    if (entry.enrollmentId) await this.enrollments.removeRefunded(em, organizationId, entry.enrollmentId);
    if (entry.appointmentId) await this.appointments.cancelRefunded(em, organizationId, entry.appointmentId, entry.appointmentNotify);
    const actorUserId = entry.actorUserId ?? undefined;
    let toCredit = entry.refundTo === 'store_credit' ? entry.amountCents - entry.walletCents : 0;
    if (entry.walletCents > 0) {
      // The whole order at once: each gift card or credit gets its use back (refundSplit's rule 2).
      if (entry.amountCents === order.totalCents) {
        for (const use of await this.wallet.orderMoneyUses(organizationId, order.id, em)) {
          if (use.returned) continue;
          try {
            await this.wallet.returnUse({ organizationId, useEntryId: use.entry_id, actorUserId, note: entry.reason || undefined }, em);
          } catch (error) {
            // Its holding expired since: the money goes to store credit instead.
            if (refusalStatus(error) === HttpStatus.CONFLICT) toCredit += use.cents;
            else throw error;
          }
        }
      } else toCredit += entry.walletCents;
    }
    if (toCredit > 0)
      await this.wallet.grantStoreCredit(
        { organizationId, studentId: order.student.id, amount: toCredit, key: `refund:${entry.id}`, orderId: order.id, actorUserId, note: entry.reason || undefined },
        em,
      );
    if (entry.returnUse)
      await this.wallet.returnBookingUse(organizationId, { enrollmentId: entry.enrollmentId, appointmentId: entry.appointmentId }, { actorUserId }, em);
    await this.orderEvents.publish(em, {
      type: 'order.refunded',
      organizationId,
      orderId: order.id,
      studentId: order.student.id,
      full: order.status === 'refunded',
      amountCents: entry.amountCents,
      refundId: entry.id,
      // A booking cancelled by its policy (its reason): the points it redeemed come back in proportion.
      ...(BOOKING_CANCEL_REASONS.has(entry.reason) ? { orderTotalCents: order.totalCents } : {}),
    });
  }

  requestedOf(entry: OrderRefund, paymentIntentId: string): RequestedRefund {
    return {
      id: entry.id,
      orderId: entry.orderId,
      organizationId: entry.organizationId,
      // The provider is asked for the card's part only: the wallet's part goes back to the wallet.
      amountCents: entry.amountCents - entry.walletCents,
      reason: entry.reason,
      paymentIntentId,
    };
  }

  /**
   * Steps (b) and (c) of a requested refund: asks the provider (outside any transaction) and records
   * its answer. With `answer`, throws what the refund call answers: 409 for a refusal, 502 when the
   * provider's answer is unknown (the row stays requested for the reconciler).
   */
  async finish(requested: RequestedRefund, options: { answer?: boolean } = {}): Promise<Recorded> {
    const outcome = await this.ask(requested);
    const recorded = (await this.recordOutcome(requested.id, requested.organizationId, outcome)) ?? { state: 'requested' as const };
    if (!options.answer) return recorded;
    if (recorded.state === 'refused') throw refundErrors.providerRefused(recorded.message);
    if (recorded.state === 'requested') throw refundErrors.providerUnknown();
    return recorded;
  }

  /** Step (b): the provider's answer to the refund, with the ledger row's key (a second ask answers the first refund). */
  private async ask(requested: RequestedRefund): Promise<RefundOutcome> {
    try {
      const result = await this.payments.refund({
        paymentIntentId: requested.paymentIntentId,
        amountCents: requested.amountCents,
        idempotencyKey: providerRefundKey(requested.id),
        reason: requested.reason || undefined,
        organizationId: requested.organizationId,
        orderId: requested.orderId,
        ledgerRefundId: requested.id,
      });
      if (result.status === 'failed' || result.status === 'canceled') {
        const message = M.providerRefused(result.status);
        return { kind: 'refused', status: result.status, message, detail: message };
      }
      return { kind: 'made', refundId: result.refundId, status: result.status, amountCents: result.amountCents };
    } catch (error) {
      const detail = (error as Error).message;
      if (error instanceof OverRefundError) return { kind: 'refused', status: 'failed', message: detail, detail };
      if (error instanceof PaymentNotFoundError) return { kind: 'refused', status: 'failed', message: M.neverCharged, detail };
      this.logger.error(`Refund ${requested.id} of order ${requested.orderId}: the provider's answer is unknown (${detail}); the reconciler asks again`);
      return { kind: 'unknown', detail };
    }
  }

  /**
   * Step (c): records the provider's answer on a requested row, in one transaction (Remove student's
   * session seat lock first, then the order's row lock). Made: the provider's refund id and status,
   * the provider's amount, the order's status, a refund history line, the enrollment removed (Remove
   * student), and order.refunded published (the loyalty module takes the points of a full refund
   * back). Refused: the row failed (or canceled), its amount given back, a refund_failed history
   * line. Unknown: nothing. Once: a row no longer requested (the webhook, the reconciler or another
   * process recorded it) is answered as it stands. Null when the row is not the organization's.
   */
  async recordOutcome(ledgerId: string, organizationId: string, outcome: RefundOutcome): Promise<Recorded | null> {
    const [found] = await this.em
      .getConnection()
      .execute<{ order_id: string }[]>(`select order_id from order_refund where id = ? and organization_id = ?`, [ledgerId, organizationId]);
    if (!found) return null;
    if (outcome.kind === 'unknown') return this.standing(ledgerId);
    return this.serialised(found.order_id, () =>
      this.em.transactional(async (tx) => {
        const em = tx as EntityManager;
        const current = await em.findOneOrFail(OrderRefund, { id: ledgerId }, { refresh: true });
        if (current.status !== 'requested') return standingOf(current);
        if (outcome.kind === 'made' && current.enrollmentId) await this.enrollments.lockSeatOf(em, organizationId, current.enrollmentId);
        await em.execute(`select id from customer_order where id = ? for no key update`, [found.order_id]);
        const entry = await em.findOneOrFail(OrderRefund, { id: ledgerId }, { refresh: true });
        if (entry.status !== 'requested') return standingOf(entry);
        const order = await em.findOneOrFail(Order, { id: found.order_id }, { refresh: true });
        if (outcome.kind === 'refused') {
          entry.status = outcome.status;
          entry.failureMessage = outcome.message;
          order.refundedCents = Math.max(0, order.refundedCents - entry.amountCents);
          if (order.status === 'refunded' || order.status === 'partial_refund') order.status = statusAfterRefund(order.totalCents, order.refundedCents, order.status);
          this.activity.record(em, {
            organizationId,
            orderId: order.id,
            action: 'refund_failed',
            actorUserId: entry.actorUserId ?? null,
            amountCents: entry.amountCents,
            detail: outcome.detail,
          });
          await em.flush();
          return { state: 'refused' as const, message: outcome.message };
        }
        // The provider's amount (the same as reserved: the key is this row's), plus the wallet's part.
        const made = outcome.amountCents + entry.walletCents;
        order.refundedCents = Math.max(0, order.refundedCents + made - entry.amountCents);
        entry.amountCents = made;
        entry.providerRefundId = outcome.refundId;
        entry.status = outcome.status;
        if (MONEY_TAKEN.has(order.status)) order.status = statusAfterRefund(order.totalCents, order.refundedCents, order.status);
        // In the transaction that records it (the outbox): the loyalty module takes back the points of a full refund.
        await this.applyMade(em, entry, order);
        return { state: 'made' as const };
      }),
    );
  }

  private async standing(ledgerId: string): Promise<Recorded> {
    return standingOf(await this.em.fork().findOneOrFail(OrderRefund, { id: ledgerId }));
  }

  /** The refunds ledger of one order, oldest first, with the admins' names (the read-only join to app_user of identity/actor-name, in this one query). */
  async list(organizationId: string, orderId: string): Promise<OrderRefundOut[]> {
    const actor = actorNameSql('r.actor_user_id');
    const rows = await this.em.getConnection().execute<
      ({
        id: string;
        amount_cents: number;
        reason: string;
        status: string;
        provider_refund_id: string | null;
        origin: RefundOrigin;
        refund_to: RefundDestination;
        created_at: Date;
      } & ActorNameColumns)[]
    >(
      `select r.id, r.amount_cents, r.reason, r.status, r.provider_refund_id, r.origin, r.refund_to, ${actor.columns}, r.created_at
         from order_refund r ${actor.join}
        where r.organization_id = ? and r.order_id = ?
        order by r.created_at, r.id`,
      [organizationId, orderId],
    );
    return rows.map((r) => ({
      refund_id: r.id,
      amount: Number(r.amount_cents),
      reason: r.reason,
      status: r.status,
      provider_refund_id: r.provider_refund_id,
      origin: r.origin,
      refund_to: r.refund_to,
      actor: actorName(r),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }
}
