import { createHash, randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  ORDER_MESSAGES,
  POLICIES,
  REFUNDABLE_STATUSES,
  REFUND_MESSAGES as M,
  WORKBENCH_SOURCE,
  refundRefusal,
  refundableShare,
  type RefundBody,
  type RefundOrigin,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { PaymentEvent, PaymentEvents } from '../payments/payment-events';
import { OverRefundError, PaymentNotFoundError, PaymentsPort } from '../payments/payments.port';
import { EnrollmentRemovalHooks, RemovalRefund, RemovalTarget } from '../scheduling/enrollment-removal.hooks';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { OrderRefund } from './entities/order-refund.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvent, OrderEvents } from './order-events';
import { statusAfterRefund } from './order-status';
import { isUuid } from '../../common/uuid-param.pipe';

type OrderRefundedEvent = Extract<OrderEvent, { type: 'order.refunded' }>;
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

/**
 * The idempotency key of one refund action at the provider. With the client's key (the
 * Idempotency-Key of the call), a retry after a refund the provider made but this database never
 * committed (a crash between the two) is the same action: the provider answers its first refund
 * instead of refunding again. Without one, the ledger row's id.
 */
function providerKey(orderId: string, amountCents: number, ledgerId: string, clientKey?: string): string {
  // The amount is part of it: after a refusal the same dialog may send another amount, which is another request.
  return clientKey ? `order-refund-${orderId}-${createHash('sha256').update(clientKey).digest('hex')}-${amountCents}` : `order-refund-${ledgerId}`;
}

/** A refund the provider refused or could not make: recorded as refund_failed after the rollback. */
class ProviderRefundError extends Error {
  constructor(
    readonly api: ApiError,
    readonly amountCents: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * Refunds of orders (issue 9, spec 001 §4–§6): the rules, the order row lock, one idempotency key
 * per refund action to the provider, the refunds ledger and the money audit. Also the refund of
 * Remove student, registered with scheduling's removal hooks.
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
  ) {}

  onModuleInit(): void {
    this.removalHooks.registerRefund((ctx, em, target, refund) => this.refundOnRemoval(ctx, em, target, refund));
    this.paymentEvents.on('refund.updated', 'orders.refunds', (event) => this.providerUpdate(event));
  }

  /**
   * A refund made or changed at the provider (PaymentEvents refund.updated, from Stripe's refund and
   * charge.refunded webhooks). Its ledger row is found by the provider's refund id in the event's
   * organization only. The row's status follows the provider's; a refund that failed or was
   * canceled gives its amount back to the order (refunded amount and status) and writes a
   * refund_failed history line, under the order's row lock, once; after the commit,
   * order.refund_failed is announced (the loyalty module gives back the points a full refund took).
   * Enrollments are not touched: a student removed with the refund stays removed.
   *
   * A refund in no ledger that names no order (every refund this app makes names its order) was
   * made at the provider itself, e.g. in the Stripe dashboard: while pending or succeeded it is
   * recorded on the order of its payment (recordAtProvider), once. Any other unknown refund is
   * logged and ignored.
   */
  async providerUpdate(event: RefundUpdatedEvent): Promise<void> {
    const { organizationId, providerRefundId } = event;
    if (!isUuid(organizationId)) return this.logger.warn(`Refund ${providerRefundId}: organization_id is not an id, ignored`);
    if (!Object.hasOwn(REFUND_STAGE, event.status)) return this.logger.warn(`Refund ${providerRefundId}: unknown status ${event.status}, ignored`);
    const connection = this.em.getConnection();
    const row = await ledgerOrderOf(connection, organizationId, providerRefundId);
    // Not in the ledger yet: the refund may be one whose transaction is still open (it holds the order's
    // lock while it asks the provider), so the order of its payment is locked and the ledger read again.
    // Oldest first: a refund made at the provider on a payment several orders name is the oldest's.
    const byPayment =
      row || !event.paymentIntentId
        ? []
        : await connection.execute<{ order_id: string }[]>(
            `select id as order_id from customer_order where organization_id = ? and payment_intent_id = ? order by created_at, id`,
            [organizationId, event.paymentIntentId],
          );
    const orderIds = row ? [row.order_id] : byPayment.map((r) => r.order_id);
    for (const orderId of orderIds) {
      // Announced once, by the delivery that changed the row (published in its transaction): a
      // repeated delivery changes nothing and announces nothing.
      const applied = await this.queue.run(orderId, () => this.em.transactional((em) => this.providerUpdateLocked(em as EntityManager, event, orderId)));
      if (!applied) continue;
      return;
    }
    // In no order's ledger, even under their locks: made at the provider itself when it names no order.
    if (!row && byPayment.length > 0 && event.orderReference === null && !reversed(event.status)) {
      const target = byPayment[0].order_id;
      const applied = await this.queue.run(target, () =>
        this.em.transactional((em) => this.providerUpdateLocked(em as EntityManager, event, target, { recordAtProvider: true })),
      );
      if (applied) return;
    }
    this.logger.warn(`Refund ${providerRefundId} (${event.status}) is not in the refunds of organization ${organizationId}: ignored`);
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
  ): Promise<{ announce: OrderEvent | null } | null> {
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
    const from = Object.hasOwn(REFUND_STAGE, entry.status) ? REFUND_STAGE[entry.status] : REFUND_STAGE.succeeded;
    if (entry.status === event.status || reversed(entry.status) || REFUND_STAGE[event.status] < from) return { announce: null };
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
    return { announce: failed };
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
  private async recordAtProviderLocked(em: EntityManager, event: RefundUpdatedEvent, orderId: string): Promise<{ announce: OrderEvent | null } | null> {
    if (await ledgerOrderOf(em, event.organizationId, event.providerRefundId)) return { announce: null };
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
    if (inserted.length === 0) return { announce: null };
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
    if (counted === 0) return { announce: null };
    return {
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
   * POST /api/admin/order/{id}/refund: refunds `amount` cents, or all that is left. A repeated
   * `idempotencyKey` (a retried action) answers without refunding again.
   */
  async refund(ctx: RequestContext, orderId: string, body: RefundBody, idempotencyKey?: string): Promise<void> {
    await this.requireOrder(ctx, orderId);
    const hasMethod = (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
    try {
      await this.queue.run(orderId, () =>
        this.em.transactional((em) => this.refundLocked(ctx, em as EntityManager, orderId, { amountCents: body.amount, reason: body.reason ?? '', idempotencyKey, hasMethod })),
      );
    } catch (error) {
      throw await this.afterFailure(ctx, orderId, error);
    }
  }

  /** Remove student's refund: inside the removal's transaction, so a refusal keeps the student enrolled. */
  private async refundOnRemoval(ctx: RequestContext, em: EntityManager, target: RemovalTarget, refund: RemovalRefund): Promise<void> {
    try {
      if (!target.orderId) throw new ApiError(HttpStatus.CONFLICT, M.notRefundable);
      const hasMethod = (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
      // The enrollment names the action: a removal retried after a refund whose commit was lost refunds once.
      // Its announcement is published in the removal's transaction: a removal that rolls back
      // announces nothing (its retry refunds once at the provider, by the idempotency key).
      await this.refundLocked(ctx, em, target.orderId, {
        amountCents: refund.amountCents,
        reason: refund.reason,
        hasMethod,
        idempotencyKey: `remove-enrollment-${target.enrollmentId}`,
      });
    } catch (error) {
      const api = target.orderId ? await this.afterFailure(ctx, target.orderId, error) : (error as ApiError);
      // The dialog tells a refused refund ("Failed to refund order. Please try again.") from a failed removal.
      if (api instanceof ApiError) {
        const response = api.getResponse() as { message: string; errors?: Record<string, string> };
        throw new ApiError(api.getStatus(), response.message, { ...response.errors, refund: response.message });
      }
      throw api;
    }
  }

  /** Records refund_failed for a provider failure (its own transaction: the refund's rolled back) and answers the error to throw. */
  private async afterFailure(ctx: RequestContext, orderId: string, error: unknown): Promise<unknown> {
    if (!(error instanceof ProviderRefundError)) return error;
    const em = this.em.fork();
    this.activity.record(em as EntityManager, {
      organizationId: ctx.organizationId,
      orderId,
      action: 'refund_failed',
      actorUserId: ctx.userId,
      amountCents: error.amountCents,
      detail: error.detail,
    });
    await em.flush();
    return error.api;
  }

  private async requireOrder(ctx: RequestContext, orderId: string): Promise<void> {
    if (!(await this.em.count(Order, { id: orderId, organization: ctx.organizationId }))) throw notFound(ORDER_MESSAGES.notFound);
  }

  /**
   * The refund itself, in `em`'s transaction: locks the order row (SELECT … FOR NO KEY UPDATE: the
   * row lock of an update that keeps the key, so concurrent refunds queue on it while the audit's
   * foreign key to the order can still be written by a failure record), reads the
   * refunded amount inside the lock, checks every rule, asks the provider with the ledger row's id
   * as idempotency key, then writes the ledger row, the order and the audit.
   */
  private async refundLocked(
    ctx: RequestContext,
    em: EntityManager,
    orderId: string,
    input: { amountCents?: number; reason: string; idempotencyKey?: string; hasMethod: boolean },
  ): Promise<OrderRefundedEvent | null> {
    const [row] = await em.execute<{ id: string }[]>(`select id from customer_order where id = ? and organization_id = ? for no key update`, [
      orderId,
      ctx.organizationId,
    ]);
    if (!row) throw notFound(ORDER_MESSAGES.notFound);
    const order = await em.findOneOrFail(Order, { id: orderId }, { refresh: true });
    if (input.idempotencyKey) {
      const done = await em.findOne(OrderRefund, { orderId, idempotencyKey: input.idempotencyKey });
      if (done) return null;
    }
    if (!(REFUNDABLE_STATUSES as readonly string[]).includes(order.status)) throw new ApiError(HttpStatus.CONFLICT, M.notRefundable);
    if (order.totalCents === 0) throw new ApiError(HttpStatus.CONFLICT, M.zeroTotal);
    if (!order.paymentIntentId) throw new ApiError(HttpStatus.CONFLICT, M.neverCharged);
    if (order.source !== WORKBENCH_SOURCE) throw new ApiError(HttpStatus.CONFLICT, M.notWorkbench(order.source));
    const remaining = order.totalCents - order.refundedCents;
    if (remaining <= 0) throw new ApiError(HttpStatus.CONFLICT, M.notRefundable);
    const amount = input.amountCents ?? remaining;
    if (amount > remaining) throw new ApiError(HttpStatus.BAD_REQUEST, M.exceedsRemaining(remaining), { amount: M.exceedsRemaining(remaining) });
    if (!input.hasMethod) throw new ApiError(HttpStatus.CONFLICT, M.noPaymentMethod);

    const entry = em.create(OrderRefund, {
      orderId,
      organizationId: ctx.organizationId,
      amountCents: amount,
      reason: input.reason,
      actorUserId: ctx.userId,
      idempotencyKey: input.idempotencyKey ?? null,
    });
    let result;
    try {
      result = await this.payments.refund({ paymentIntentId: order.paymentIntentId, amountCents: amount, idempotencyKey: providerKey(orderId, amount, entry.id, input.idempotencyKey), reason: input.reason || undefined, organizationId: ctx.organizationId, orderId });
    } catch (error) {
      const detail = (error as Error).message;
      if (error instanceof OverRefundError) throw new ProviderRefundError(new ApiError(HttpStatus.CONFLICT, detail), amount, detail);
      if (error instanceof PaymentNotFoundError) throw new ProviderRefundError(new ApiError(HttpStatus.CONFLICT, M.neverCharged), amount, detail);
      this.logger.error(`Refund of order ${orderId} failed at the provider: ${detail}`);
      throw new ProviderRefundError(new ApiError(HttpStatus.BAD_GATEWAY, M.providerFailed), amount, detail);
    }
    if (result.status === 'failed' || result.status === 'canceled') {
      const detail = M.providerRefused(result.status);
      throw new ProviderRefundError(new ApiError(HttpStatus.CONFLICT, detail), amount, detail);
    }
    // The provider's amount: a replayed key answers the refund it made the first time.
    const moved = result.amountCents;
    entry.amountCents = moved;
    entry.providerRefundId = result.refundId;
    entry.status = result.status;
    order.refundedCents += moved;
    order.status = statusAfterRefund(order.totalCents, order.refundedCents, order.status);
    this.activity.record(em, {
      organizationId: ctx.organizationId,
      orderId,
      action: 'refund',
      actorUserId: ctx.userId,
      amountCents: moved,
      detail: input.reason,
    });
    await em.flush();
    const refunded: OrderRefundedEvent = {
      type: 'order.refunded',
      organizationId: ctx.organizationId,
      orderId,
      studentId: order.student.id,
      full: order.status === 'refunded',
      amountCents: moved,
      refundId: entry.id,
    };
    // In the refund's transaction (the outbox): the loyalty module takes back the points of a full refund.
    await this.orderEvents.publish(em, refunded);
    return refunded;
  }

  /** The refunds ledger of one order, oldest first, with the admins' names (the read-only join to app_user of identity/actor-name, in this one query). */
  async list(organizationId: string, orderId: string): Promise<OrderRefundOut[]> {
    const actor = actorNameSql('r.actor_user_id');
    const rows = await this.em.getConnection().execute<
      ({ id: string; amount_cents: number; reason: string; status: string; provider_refund_id: string | null; origin: RefundOrigin; created_at: Date } & ActorNameColumns)[]
    >(
      `select r.id, r.amount_cents, r.reason, r.status, r.provider_refund_id, r.origin, ${actor.columns}, r.created_at
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
      actor: actorName(r),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  /**
   * What the Remove student dialog offers: the order's paid and refundable amounts and the share the
   * course's cancellation policy refunds now (refundableShare), as a suggested amount.
   */
  async removalQuote(ctx: RequestContext, enrollmentId: string) {
    const context = await this.enrollments.removalContext(ctx, enrollmentId);
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
    const refundable = order && (refusal === null || refusal === M.noPaymentMethod) ? Math.max(0, order.totalCents - order.refundedCents) : 0;
    return {
      order: order
        ? { order_id: order.id, order_number: order.orderNumber, status: order.status, total: order.totalCents, refunded_amount: order.refundedCents }
        : null,
      refundable,
      suggested_amount: Math.min(refundable, Math.round((order?.totalCents ?? 0) * share)),
      share,
      policy: policy ? { id: policy.id, name: policy.name, rule: policy.rule } : null,
      starts_at: context.startsAt.toISOString(),
      has_payment_method: hasPaymentMethod,
      refusal,
    };
  }
}
