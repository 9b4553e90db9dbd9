import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { PaymentNotFoundError, PaymentsPort, ProviderRefund } from '../payments/payments.port';
import { PaymentSettlementService } from './payment-settlement.service';
import { RefundsService } from './refunds.service';

export const REFUND_RECONCILE_QUEUE = 'orders-refund-reconcile';
export const REFUND_RECONCILE_SCHEDULER = 'orders.refunds.reconcile';

export interface ReconcileOptions {
  /** A ledger row still `requested` this long after it was recorded lost its answer: asked again (1 minute). */
  requestedOlderThanMs: number;
  /** Orders with refund activity (a ledger row or a refund history line) this recent are compared with the provider (24 hours). */
  windowMs: number;
  /** Rows and orders handled per batch. */
  batch: number;
  /** How often the job runs (5 minutes); it also runs once at start. */
  everyMs: number;
}

export const DEFAULT_RECONCILE_OPTIONS: ReconcileOptions = {
  requestedOlderThanMs: 60_000,
  windowMs: 24 * 3600_000,
  batch: 200,
  everyMs: 5 * 60_000,
};

/** What one pass repaired (also logged). */
export interface ReconcileReport {
  /** Requested rows whose answer is now recorded (made or refused). */
  finished: number;
  /** Requested rows the provider still did not answer. */
  stillRequested: number;
  /** Provider refunds in no ledger row, now recorded. */
  recorded: number;
  /** Ledger rows whose status followed the provider's (a refund failed or canceled there). */
  corrected: number;
  /** Ledger rows the provider does not list (flagged in the log: a person should look). */
  missingAtProvider: string[];
  /** Payments the app could not honour that had no refund (issue 31), now requested. */
  unhonoured: number;
}

/**
 * The refund reconciler (issue 19): a repeatable job (every 5 minutes, and once at start; any number
 * of workers, each pass idempotent: every change is made under the order's row lock by
 * RefundsService, which records each answer once).
 *
 * (i) Every ledger row still `requested` after a minute (its process died between the provider's
 * refund and our commit, or the provider did not answer) is asked again with the same idempotency
 * key, so the provider answers the refund it made (or makes it, or refuses it), and the answer is
 * recorded as the refund call records it (points taken back, Remove student's enrollment removed).
 *
 * (ii) For each order with a payment and refund activity in the window, the provider's refunds are
 * compared with the ledger: a refund in no ledger row is recorded (origin `provider`, as a dashboard
 * refund from a webhook), a row whose refund failed or was canceled at the provider follows it (its
 * amount given back), and a row the provider does not list is flagged in the log.
 */
@Injectable()
export class RefundReconciler implements OnApplicationBootstrap {
  private readonly logger = new Logger('RefundReconciler');
  /** The thresholds; tests set their own. */
  options: ReconcileOptions = { ...DEFAULT_RECONCILE_OPTIONS };

  constructor(
    private readonly orm: MikroORM,
    private readonly em: EntityManager,
    private readonly refunds: RefundsService,
    private readonly settlement: PaymentSettlementService,
    private readonly payments: PaymentsPort,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.queue.process(REFUND_RECONCILE_QUEUE, () => this.job());
    try {
      // One schedule however many processes upsert it; its first job runs now.
      await this.queue.upsertScheduler(
        REFUND_RECONCILE_QUEUE,
        REFUND_RECONCILE_SCHEDULER,
        'reconcile',
        {},
        {
          everyMs: this.options.everyMs,
          attempts: 3,
          backoffMs: 10_000,
        },
      );
    } catch (error) {
      this.logger.warn(`Could not schedule the refund reconciler: ${(error as Error).message}`);
    }
  }

  @CreateRequestContext() // the job's entry: its one MikroORM context
  private async job(): Promise<void> {
    await this.run();
  }

  /** One pass: (i) then (ii). Callable directly (tests, an operator's shell). */
  async run(overrides: Partial<ReconcileOptions> = {}): Promise<ReconcileReport> {
    const options = { ...this.options, ...overrides };
    const report: ReconcileReport = {
      finished: 0,
      stillRequested: 0,
      recorded: 0,
      corrected: 0,
      missingAtProvider: [],
      unhonoured: 0,
    };
    await this.sweepUnhonoured(options, report);
    await this.finishRequested(options, report);
    await this.compareWithProvider(options, report);
    const repaired = report.finished + report.recorded + report.corrected + report.unhonoured;
    if (repaired > 0 || report.stillRequested > 0 || report.missingAtProvider.length > 0) {
      this.logger.warn(
        `Refunds reconciled: ${report.unhonoured} unhonoured payments given a refund, ${report.finished} requested refunds finished, ${report.stillRequested} still unanswered, ${report.recorded} provider refunds recorded, ${report.corrected} corrected, ${report.missingAtProvider.length} missing at the provider${report.missingAtProvider.length ? ` (${report.missingAtProvider.join(', ')})` : ''}`,
      );
    }
    return report;
  }

  private connection() {
    return this.orm.em.getConnection();
  }

  /**
   * (0) Payments the app recorded as not honoured (issue 31) with no refund in the ledger, of any
   * age: an order that had ended unpaid yet holds a payment, or a payment recorded with the reason it
   * found no seat. Since the refund is requested in the transaction that records such a payment, these
   * are what an older version (or a person's edit) left; each gets its refund requested now, under the
   * order's lock (PaymentSettlementService.refundUnhonoured decides again), and (i) asks the provider.
   */
  private async sweepUnhonoured(options: ReconcileOptions, report: ReconcileReport): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const orders = await this.connection().execute<{ id: string; organization_id: string }[]>(
        `select o.id, o.organization_id
           from customer_order o
          where o.payment_intent_id is not null and o.link_expires_at is not null
            and not exists (select 1 from order_refund r where r.order_id = o.id)
            and (o.status = 'failed'
                 or (o.status = 'paid' and exists (select 1 from order_activity a
                                                     where a.order_id = o.id and a.action = 'payment_received' and a.detail <> '')))
            and o.id > ?
          order by o.id
          limit ?`,
        [after, options.batch],
      );
      for (const order of orders) if (await this.settlement.refundUnhonoured(order.organization_id, order.id)) report.unhonoured += 1;
      if (orders.length < options.batch) return;
      after = orders[orders.length - 1].id;
    }
  }

  /** (i) Requested rows older than the threshold, oldest first, in batches (keyset on created_at, id). */
  private async finishRequested(options: ReconcileOptions, report: ReconcileReport): Promise<void> {
    const before = new Date(Date.now() - options.requestedOlderThanMs);
    let cursor: [Date, string] = [new Date(0), '00000000-0000-0000-0000-000000000000'];
    for (;;) {
      const rows = await this.connection().execute<
        {
          id: string;
          order_id: string;
          organization_id: string;
          amount_cents: number;
          reason: string;
          payment_intent_id: string | null;
          created_at: Date;
        }[]
      >(
        `select r.id, r.order_id, r.organization_id, r.amount_cents - r.wallet_cents as amount_cents, r.reason, o.payment_intent_id, r.created_at
           from order_refund r join customer_order o on o.id = r.order_id
          where r.status = 'requested' and r.created_at <= ? and (r.created_at, r.id) > (?, ?)
          order by r.created_at, r.id
          limit ?`,
        [before, cursor[0], cursor[1], options.batch],
      );
      for (const row of rows) {
        if (!row.payment_intent_id) {
          this.logger.error(
            `Refund ${row.id} of order ${row.order_id} is requested on an order never charged: left for a person`,
          );
          report.stillRequested += 1;
          continue;
        }
        const recorded = await this.refunds.finish({
          id: row.id,
          orderId: row.order_id,
          organizationId: row.organization_id,
          amountCents: Number(row.amount_cents),
          reason: row.reason,
          paymentIntentId: row.payment_intent_id,
        });
        if (recorded.state === 'requested') report.stillRequested += 1;
        else {
          report.finished += 1;
          this.logger.warn(
            `Refund ${row.id} of order ${row.order_id} was left requested: recorded as ${recorded.state}`,
          );
        }
      }
      if (rows.length < options.batch) return;
      const last = rows[rows.length - 1];
      cursor = [new Date(last.created_at), last.id];
    }
  }

  /** (ii) Orders with a payment and refund activity in the window, in batches by id. */
  private async compareWithProvider(options: ReconcileOptions, report: ReconcileReport): Promise<void> {
    const since = new Date(Date.now() - options.windowMs);
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const orders = await this.connection().execute<
        { id: string; organization_id: string; payment_intent_id: string }[]
      >(
        `select o.id, o.organization_id, o.payment_intent_id
           from customer_order o
          where o.id in (select r.order_id from order_refund r where r.created_at >= ?
                         union
                         select a.order_id from order_activity a where a.order_id is not null and a.action in ('refund', 'refund_failed') and a.created_at >= ?)
            and o.payment_intent_id is not null and o.id > ?
          order by o.id
          limit ?`,
        [since, since, after, options.batch],
      );
      for (const order of orders) await this.compareOrder(order, report);
      if (orders.length < options.batch) return;
      after = orders[orders.length - 1].id;
    }
  }

  private async compareOrder(
    order: { id: string; organization_id: string; payment_intent_id: string },
    report: ReconcileReport,
  ): Promise<void> {
    let listed: ProviderRefund[];
    try {
      listed = await this.payments.listRefunds(order.payment_intent_id);
    } catch (error) {
      if (error instanceof PaymentNotFoundError)
        this.logger.warn(`Order ${order.id}: the provider does not know payment ${order.payment_intent_id}`);
      else
        this.logger.warn(
          `Order ${order.id}: could not list the provider's refunds (${(error as Error).message}); next pass`,
        );
      return;
    }
    type LedgerRow = {
      id: string;
      order_id: string;
      status: string;
      provider_refund_id: string | null;
      origin: string;
    };
    const ledger = await this.connection().execute<LedgerRow[]>(
      `select id, order_id, status, provider_refund_id, origin from order_refund
        where organization_id = ? and (order_id = ? or provider_refund_id in (${listed.map(() => '?').join(', ') || 'null'}))`,
      [order.organization_id, order.id, ...listed.map((r) => r.refundId)],
    );
    const byProviderId = new Map<string, LedgerRow>(
      ledger.filter((r: LedgerRow) => r.provider_refund_id).map((r: LedgerRow) => [r.provider_refund_id!, r]),
    );
    for (const refund of listed) {
      const row = byProviderId.get(refund.refundId);
      if (row && row.status === refund.status) continue;
      const done = await this.refunds.providerUpdate({
        type: 'refund.updated',
        provider: this.payments.provider,
        organizationId: order.organization_id,
        providerRefundId: refund.refundId,
        paymentIntentId: order.payment_intent_id,
        status: refund.status,
        amountCents: refund.amountCents,
        failureReason: refund.failureReason,
        orderReference: refund.orderId,
        ledgerRefundId: refund.ledgerRefundId,
        reason: refund.reason,
      });
      if (done === 'recorded') {
        report.recorded += 1;
        this.logger.warn(
          `Order ${order.id}: refund ${refund.refundId} of ${refund.amountCents} cents at the provider was in no ledger: recorded`,
        );
      } else if (done === 'completed') report.finished += 1;
      else if (done === 'updated') {
        report.corrected += 1;
        this.logger.warn(
          `Order ${order.id}: refund ${refund.refundId} is ${refund.status} at the provider: the ledger follows`,
        );
      }
    }
    const listedIds = new Set(listed.map((r) => r.refundId));
    for (const row of ledger) {
      if (
        row.order_id !== order.id ||
        !row.provider_refund_id ||
        row.status === 'requested' ||
        listedIds.has(row.provider_refund_id)
      )
        continue;
      if (row.status === 'failed' || row.status === 'canceled') continue;
      report.missingAtProvider.push(row.id);
      this.logger.error(
        `Order ${order.id}: ledger refund ${row.id} (${row.provider_refund_id}) is not among the provider's refunds of payment ${order.payment_intent_id}`,
      );
    }
  }
}
