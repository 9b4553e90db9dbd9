import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  CREDIT_MESSAGES,
  ORDER_MESSAGES,
  POLICIES,
  REFUNDABLE_STATUSES,
  REFUND_MESSAGES as M,
  SESSION_CANCEL_MESSAGES,
  WORKBENCH_SOURCE,
  bookingUseOut,
  creditRefundRefusal,
  refundDestinationText,
  refundRefusal,
  refundSplit,
  refundableShare,
  type RefundBody,
  type RefundDestination,
  type RefundOrigin,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { IdempotencyStore } from '../../common/idempotency/idempotency.store';
import { RequestContext } from '../../common/request-context';
import { PaymentEvent, PaymentEvents } from '../payments/payment-events';
import { OverRefundError, PaymentNotFoundError, PaymentsPort } from '../payments/payments.port';
import { EnrollmentRemovalHooks, RemovalRefund, RemovalTarget } from '../scheduling/enrollment-removal.hooks';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { AppointmentsService } from '../scheduling/appointments.service';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { OrderRefund } from './entities/order-refund.entity';
import { Order } from './entities/order.entity';
import { WalletService } from '../wallet/wallet.service';
import { OrderActivityService } from './order-activity.service';
import { OrderEvent, OrderEvents } from './order-events';
import { statusAfterRefund } from './order-status';
import { isUuid } from '../../common/uuid-param.pipe';
import { MANAGE_MESSAGES } from '@studio/contracts';

/** The ledger reasons of a booking cancelled by its policy (issue 23): the manage link's, and the admin's Cancel booking. */
const BOOKING_CANCEL_REASONS = new Set<string>([MANAGE_MESSAGES.cancelledByStudent, MANAGE_MESSAGES.cancelledByStudio]);

type RefundFailedEvent = Extract<OrderEvent, { type: 'order.refund_failed' }>;
type RefundUpdatedEvent = Extract<PaymentEvent, { type: 'refund.updated' }>;


/**
 * A refund's statuses at the provider by how far along they are: a ledger row only moves forward,
 * so a late delivery of an older change changes nothing. failed and canceled are final (the money
 * never left); a succeeded refund can still fail (Stripe: rarely, days later).
 */
const REFUND_STAGE: Record<string, number> = { pending: 0, requires_action: 0, succeeded: 1, failed: 2, canceled: 2 };
const reversed = (status: string) => status === 'failed' || status === 'canceled';
/** The statuses of an order whose money was taken: a refund made at the provider moves them (statusAfterRefund). */
const MONEY_TAKEN = new Set<string>(['paid', 'partial_refund', 'refunded']);
/** The provider's reason as the refunds list shows it: requested_by_customer → Requested by customer. */
const reasonText = (reason: string | null) => (reason ? (reason.charAt(0).toUpperCase() + reason.slice(1)).replace(/_/g, ' ').slice(0, 500) : '');
/** Where a ledger row stands: requested, refused (failed or canceled, with what its call answered) or made. */
const standingOf = (entry: OrderRefund): Recorded =>
  entry.status === 'requested'
    ? { state: 'requested' }
    : reversed(entry.status)
      ? { state: 'refused', message: entry.failureMessage ?? M.providerRefused(entry.status) }
      : { state: 'made' };
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

/**
 * Runs the work of one key after the work before it with the same key, in this process. Refunds
 * of one order wait here rather than each holding a pooled connection while it waits for the row
 * lock (the demo provider needs a connection of its own while the lock is held); the row lock is
 * what serialises them across API replicas.
 */
class KeyedQueue {
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

/** The idempotency key of a refund at the provider: its ledger row, so asking again (a retry, the reconciler) is the same request. */
export const providerRefundKey = (ledgerId: string) => `order-refund-${ledgerId}`;

/** A ledger row still `requested`: what asking the provider needs. */
/** The ledger's reason and key of the refund of a payment that found no seat (refundUnseated). */
export const UNSEATED_REFUND_REASON = 'The seats were no longer available when the payment completed';
/** The ledger's reason of the refund of a payment on an order that had ended (cancelled or expired) before it completed. */
export const ENDED_ORDER_REFUND_REASON = 'The order had been cancelled or had expired when the payment completed';
const UNSEATED_REFUND_KEY = 'store:unseated';

interface RequestedRefund {
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
type Recorded = { state: 'made' } | { state: 'refused'; message: string } | { state: 'requested' };

/**
 * Refunds of orders (issue 9, spec 001 §4–§6; issue 19: in two steps, reconciled with the provider).
 *
 * A refund is (a) recorded as `requested` under the order's row lock, once every rule holds, with its
 * amount reserved on the order (counted in `refunded_cents`: the one rule, so concurrent refunds can
 * never pass the total), and committed; (b) asked of the provider outside any transaction, with the
 * ledger row's id as idempotency key; (c) recorded in a second transaction: made (history line,
 * order.refunded published in that transaction) or refused (row failed, amount given back,
 * refund_failed history line). When the provider's answer is unknown (no answer, a 5xx) or never
 * recorded (a crash), the row stays requested and the refund reconciler asks again with the same
 * key. Also the refund of Remove student, registered with scheduling's removal hooks.
 */
@Injectable()
export class RefundsService implements OnModuleInit {
  private readonly queue = new KeyedQueue();
  private readonly logger = new Logger(RefundsService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly activity: OrderActivityService,
    private readonly enrollments: EnrollmentsService,
    private readonly removalHooks: EnrollmentRemovalHooks,
    private readonly orderEvents: OrderEvents,
    private readonly paymentEvents: PaymentEvents,
    private readonly idempotency: IdempotencyStore,
    private readonly appointments: AppointmentsService,
    private readonly wallet: WalletService,
  ) {}

  onModuleInit(): void {
    this.removalHooks.registerRefund((ctx, target, refund) => this.refundOnRemoval(ctx, target, refund, { returnUse: refund.returnUse }));
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
        const recorded = await this.recordOutcome(requested.id, organizationId, outcome);
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
      const applied = await this.queue.run(row.order_id, () => this.em.transactional((em) => this.providerUpdateLocked(em as EntityManager, event, row.order_id)));
      return applied?.changed ? 'updated' : 'none';
    }
    if (byPayment.length > 0 && !reversed(event.status)) {
      const named = byPayment.find((o) => o.order_id === event.orderReference);
      const target = (named ?? byPayment[0]).order_id;
      const applied = await this.queue.run(target, () =>
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

  /**
   * POST /api/admin/order/{id}/refund: refunds `amount` cents, or all that is left. `clientKey` (the
   * Idempotency-Key header) names the action: a call that finds its row (a retry after a crash)
   * finishes that refund instead of making another.
   */
  async refund(ctx: RequestContext, orderId: string, body: RefundBody, clientKey?: string): Promise<void> {
    await this.requireOrder(ctx, orderId);
    const hasMethod = (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
    const requested = await this.queue.run(orderId, () =>
      this.em.transactional((em) =>
        this.requestLocked(ctx, em as EntityManager, orderId, {
          amountCents: body.amount,
          reason: body.reason ?? '',
          clientKey,
          hasMethod,
          refundTo: body.refund_to,
        }),
      ),
    );
    if (requested) await this.finish(requested, { answer: true });
  }

  /**
   * A payment that completed after its seats were gone (its hold ran out and they were taken): the
   * whole payment goes back at once, through the ledger like any refund (asked by nobody), so a buyer
   * is never charged for a seat they did not get. Once per order (its key), however often it is asked.
   * The studio's card on file is not needed: the money goes back from the payment just taken.
   */
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
    const requested = await this.requestLocked({ organizationId, userId: null }, em, orderId, {
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
    return this.finish(this.requestedOf(entry, order.paymentIntentId ?? ''));
  }

  /**
   * The studio cancelled the session (issue 23) and refunds everyone in full: the seat's order is
   * refunded all that is left, through the ledger like Remove student's refund (the row names the
   * enrollment, so a second delivery finds it and refunds nothing twice; its id is the provider's
   * idempotency key), and the enrollment is removed in the transaction that records the refund made
   * (order.refunded with it: the loyalty module takes back the points earned and gives back those
   * redeemed). Answers what became of the money; an order the rules refuse (none, nothing charged,
   * sold elsewhere, already refunded, no payment method) is `not_refunded` with the rule's message;
   * a provider's refusal `refund_failed`. Throws when the provider's answer is unknown: the ledger row
   * stays requested, and the caller's retry asks again with the same key.
   */
  async refundCancelledSeat(
    organizationId: string,
    seat: { enrollmentId: string; orderId: string | null; reason: string; actorUserId: string | null; refundTo?: RefundDestination },
  ): Promise<{ outcome: 'refunded' | 'credited' | 'not_refunded' | 'refund_failed'; cents: number; note: string | null }> {
    const orderId = seat.orderId;
    if (!orderId) return { outcome: 'not_refunded', cents: 0, note: SESSION_CANCEL_MESSAGES.noOrder };
    const hasMethod = (await this.payments.listPaymentMethods(organizationId)).length > 0;
    let requested: RequestedRefund | null;
    try {
      requested = await this.queue.run(orderId, () =>
        this.em.fork().transactional((em) =>
          this.requestLocked({ organizationId, userId: seat.actorUserId }, em as EntityManager, orderId, {
            reason: seat.reason,
            enrollmentId: seat.enrollmentId,
            hasMethod,
            refundTo: seat.refundTo,
            // The studio cancelled: the membership booking or pack credit it used always comes back.
            returnUse: true,
          }),
        ),
      );
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() < 500) return { outcome: 'not_refunded', cents: 0, note: error.message };
      throw error;
    }
    if (requested) {
      const recorded = await this.finish(requested);
      if (recorded.state === 'requested') throw new Error(`Refund ${requested.id} of order ${orderId}: the provider's answer is unknown; asked again on retry`);
      if (recorded.state === 'refused') return { outcome: 'refund_failed', cents: 0, note: recorded.message };
    }
    // Made, now or by an earlier delivery: the enrollment's ledger row says how much.
    const [made] = await this.em.getConnection().execute<{ amount_cents: number; refund_to: RefundDestination }[]>(
      `select amount_cents, refund_to from order_refund
        where organization_id = ? and order_id = ? and enrollment_id = ? and status not in ('requested', 'failed', 'canceled')
        order by created_at desc limit 1`,
      [organizationId, orderId, seat.enrollmentId],
    );
    if (!made) throw new Error(`Refund of enrollment ${seat.enrollmentId} on order ${orderId} is not recorded yet; asked again on retry`);
    return { outcome: made.refund_to === 'store_credit' ? 'credited' : 'refunded', cents: Number(made.amount_cents), note: null };
  }

  /**
   * A booking cancelled by its policy (issue 23: the student from the manage link, or an admin's
   * Cancel booking): the removal's refund, naming the enrollment or appointment, so the seat is
   * freed (or the appointment cancelled) in the transaction that records the refund made, and a
   * second call (a double click, a retried request, a concurrent one) finds the same ledger row and
   * refunds once. The money goes back from the booking's own payment: no studio card is needed.
   * `userId` null: the student asked. A refused refund throws (409, errors.refund) and keeps the booking.
   */
  async refundBooking(
    ctx: Pick<RequestContext, 'organizationId'> & { userId: string | null },
    target: RemovalTarget,
    refund: RemovalRefund,
    options: { returnUse?: boolean } = {},
  ): Promise<void> {
    await this.refundOnRemoval(ctx, target, refund, { fromPayment: true, returnUse: options.returnUse });
  }

  /**
   * Remove student's refund: recorded as requested naming the enrollment, asked of the provider,
   * and the enrollment removed in the transaction that records the refund made. A refused refund
   * (or one refused by the rules) leaves the student enrolled; the error names `refund`.
   */
  private async refundOnRemoval(
    ctx: Pick<RequestContext, 'organizationId'> & { userId: string | null },
    target: RemovalTarget,
    refund: RemovalRefund,
    options: { fromPayment?: boolean; returnUse?: boolean } = {},
  ): Promise<void> {
    try {
      const orderId = target.orderId;
      if (!orderId) throw new ApiError(HttpStatus.CONFLICT, M.notRefundable);
      const hasMethod =
        options.fromPayment || refund.refundTo === 'store_credit' || (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
      const requested = await this.queue.run(orderId, () =>
        this.em.transactional((em) =>
          this.requestLocked(ctx, em as EntityManager, orderId, {
            amountCents: refund.amountCents,
            reason: refund.reason,
            hasMethod,
            enrollmentId: target.enrollmentId,
            appointmentId: target.appointmentId,
            appointmentNotify: target.appointmentId ? target.notify : undefined,
            refundTo: refund.refundTo,
            returnUse: options.returnUse,
          }),
        ),
      );
      if (requested) await this.finish(requested, { answer: true });
      else {
        // Its refund was made already (a removal retried after a crash): the removal follows it.
        await this.em.transactional((em) =>
          target.appointmentId
            ? this.appointments.cancelRefunded(em as EntityManager, ctx.organizationId, target.appointmentId, target.notify)
            : this.enrollments.removeRefunded(em as EntityManager, ctx.organizationId, target.enrollmentId!),
        );
      }
    } catch (error) {
      // The dialog tells a refused refund ("Failed to refund order. Please try again.") from a failed removal.
      if (error instanceof ApiError) {
        const response = error.getResponse() as { message: string; errors?: Record<string, string> };
        throw new ApiError(error.getStatus(), response.message, { ...response.errors, refund: response.message });
      }
      throw error;
    }
  }

  private async requireOrder(ctx: RequestContext, orderId: string): Promise<void> {
    if (!(await this.em.count(Order, { id: orderId, organization: ctx.organizationId }))) throw notFound(ORDER_MESSAGES.notFound);
  }

  /**
   * Step (a), in `em`'s transaction: locks the order row (SELECT … FOR NO KEY UPDATE), checks every
   * rule against the amount left (total minus `refunded_cents`, which counts every refund requested,
   * pending or made), records the refund as `requested` and reserves its amount on the order.
   * Answers the row to ask the provider about, or null when the action's refund was made already.
   * The same action (the client's key, or Remove student's enrollment) finds its row instead: still
   * requested, it is asked again; refused, it answers the same refusal.
   */
  private async requestLocked(
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
    if (!row) throw notFound(ORDER_MESSAGES.notFound);
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
      if (reversed(same.status)) throw new ApiError(HttpStatus.CONFLICT, same.failureMessage ?? M.notRefundable);
      return null;
    }
    const refundTo = input.refundTo ?? 'card';
    // Gift-card and store-credit money the order used (issue 24): refunded first (refundSplit).
    const walletPaid = (await this.wallet.orderMoneyUses(ctx.organizationId, orderId, em)).reduce((sum, use) => sum + use.cents, 0);
    if (!(REFUNDABLE_STATUSES as readonly string[]).includes(order.status)) throw new ApiError(HttpStatus.CONFLICT, M.notRefundable);
    if (order.totalCents === 0) throw new ApiError(HttpStatus.CONFLICT, M.zeroTotal);
    if (!order.paymentIntentId && walletPaid === 0) throw new ApiError(HttpStatus.CONFLICT, M.neverCharged);
    if (order.source !== WORKBENCH_SOURCE) throw new ApiError(HttpStatus.CONFLICT, M.notWorkbench(order.source));
    const remaining = order.totalCents - order.refundedCents;
    if (remaining <= 0) throw new ApiError(HttpStatus.CONFLICT, M.notRefundable);
    const amount = input.amountCents ?? remaining;
    if (amount > remaining) throw new ApiError(HttpStatus.BAD_REQUEST, M.exceedsRemaining(remaining), { amount: M.exceedsRemaining(remaining) });
    const split = refundSplit({
      total_cents: order.totalCents,
      refunded_cents: order.refundedCents,
      wallet_paid_cents: walletPaid,
      amount_cents: amount,
      refund_to: refundTo,
    });
    // Only the card part is asked of the provider: it needs a charge and a payment method on file.
    if (split.to_card_cents > 0 && !order.paymentIntentId) throw new ApiError(HttpStatus.CONFLICT, CREDIT_MESSAGES.neverChargedCard);
    if (split.to_card_cents > 0 && !input.hasMethod) throw new ApiError(HttpStatus.CONFLICT, M.noPaymentMethod);

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
  private async applyMade(em: EntityManager, entry: OrderRefund, order: Order): Promise<void> {
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
            if (error instanceof ApiError && error.getStatus() === HttpStatus.CONFLICT) toCredit += use.cents;
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

  private requestedOf(entry: OrderRefund, paymentIntentId: string): RequestedRefund {
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
    if (recorded.state === 'refused') throw new ApiError(HttpStatus.CONFLICT, recorded.message);
    if (recorded.state === 'requested') throw new ApiError(HttpStatus.BAD_GATEWAY, M.providerFailed);
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
    return this.queue.run(found.order_id, () =>
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

  /**
   * What the Remove student dialog offers: the order's paid and refundable amounts and the share the
   * course's cancellation policy refunds now (refundableShare), as a suggested amount.
   */
  async removalQuote(ctx: RequestContext, enrollmentId: string) {
    return this.quoteFor(ctx, await this.enrollments.removalContext(ctx, enrollmentId), { enrollmentId });
  }

  /** The same quote for Remove student on an appointment (issue 22): its order, its start, its course's policy. */
  async appointmentRemovalQuote(ctx: RequestContext, appointmentId: string) {
    return this.quoteFor(ctx, await this.appointments.removalContext(ctx, appointmentId), { appointmentId });
  }

  private async quoteFor(
    ctx: RequestContext,
    context: { orderId: string | null; startsAt: Date; cancelPolicyId: number },
    booking: { enrollmentId?: string; appointmentId?: string },
  ) {
    const order = context.orderId ? await this.em.findOne(Order, { id: context.orderId, organization: ctx.organizationId }) : null;
    const policy = POLICIES.find((p) => p.id === context.cancelPolicyId && p.kind === 'cancellation') ?? null;
    const msBeforeStart = context.startsAt.getTime() - Date.now();
    const share = policy ? refundableShare(policy.id, msBeforeStart) : 0;
    const hasPaymentMethod = (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
    // The drawer's rules (libs/contracts), plus the source: why this order cannot be refunded, if it cannot.
    const refusal = !order
      ? null
      : order.source !== WORKBENCH_SOURCE
        ? M.notWorkbench(order.source)
        : refundRefusal(
            { status: order.status, total: order.totalCents, refunded_amount: order.refundedCents, stripe_payment_intent_id: order.paymentIntentId ?? null },
            hasPaymentMethod,
          );
    // Issue 24: store credit needs no payment method, and refunds an order paid by wallet money.
    const walletPaid = order ? (await this.wallet.orderMoneyUses(ctx.organizationId, order.id)).reduce((sum, use) => sum + use.cents, 0) : 0;
    const creditRefusal = !order
      ? null
      : order.source !== WORKBENCH_SOURCE
        ? M.notWorkbench(order.source)
        : creditRefundRefusal(
            { status: order.status, total: order.totalCents, refunded_amount: order.refundedCents, stripe_payment_intent_id: order.paymentIntentId ?? null },
            walletPaid,
          );
    const remaining = order ? Math.max(0, order.totalCents - order.refundedCents) : 0;
    const refundable = order && (refusal === null || refusal === M.noPaymentMethod || creditRefusal === null) ? remaining : 0;
    const suggested = Math.min(refundable, Math.round((order?.totalCents ?? 0) * share));
    const splitOf = (refundTo: RefundDestination) =>
      refundSplit({
        total_cents: order?.totalCents ?? 0,
        refunded_cents: order?.refundedCents ?? 0,
        wallet_paid_cents: walletPaid,
        amount_cents: suggested,
        refund_to: refundTo,
      });
    // The membership booking or pack credit that covered it: Remove student gives it back unless the owner keeps it.
    const use = bookingUseOut(await this.wallet.useOfBooking(ctx.organizationId, booking), true);
    return {
      order: order
        ? { order_id: order.id, order_number: order.orderNumber, status: order.status, total: order.totalCents, refunded_amount: order.refundedCents }
        : null,
      refundable,
      suggested_amount: suggested,
      share,
      policy: policy ? { id: policy.id, name: policy.name, rule: policy.rule } : null,
      starts_at: context.startsAt.toISOString(),
      has_payment_method: hasPaymentMethod,
      refusal,
      credit_refusal: order ? creditRefusal : null,
      wallet_paid_cents: walletPaid,
      outcomes: { card: refundDestinationText(splitOf('card')), store_credit: refundDestinationText(splitOf('store_credit')) },
      use,
    };
  }
}
