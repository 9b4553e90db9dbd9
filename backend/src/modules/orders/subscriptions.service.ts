import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { SUBSCRIPTION_MESSAGES, type RenewalIntervalUnit, type SubscriptionStatus } from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { PaymentsPort, type PaymentProviderName } from '../payments/payments.port';
import { SubscriptionEvent, SubscriptionEvents } from '../payments/subscription-events';
import { ProductsService } from '../products/products.service';
import { StudentsService } from '../students/students.service';
import { Order } from './entities/order.entity';
import { SubscriptionInvoice } from './entities/subscription-invoice.entity';
import { Subscription } from './entities/subscription.entity';
import { OrderActivityService } from './order-activity.service';
import { isUuid } from '../../common/uuid-param.pipe';
import { Inject } from '@nestjs/common';
import { JOB_QUEUE, type JobQueue } from '../../queue/job-queue';
import { DemoPaymentsAdapter } from '../payments/demo/demo-payments.adapter';
import { SubscriptionCancel } from './subscription-cancel';
import { SubscriptionMembership } from './subscription-membership';

export const SUBSCRIPTION_QUEUE = 'subscriptions';
export const RENEW_DEMO_JOB = 'renew-demo';

/** A demo subscription's renewal at the end of the period ending `dueAt` (ISO 8601). */
export interface RenewDemoJob {
  organizationId: string;
  subscriptionId: string;
  dueAt: string;
}

/** A store order's subscription, as its paid checkout started it. */
export interface StartedSubscription {
  organizationId: string;
  orderId: string;
  studentId: string;
  productId: string;
  productPriceId: string | null;
  planName: string;
  amountCents: number;
  intervalUnit: RenewalIntervalUnit;
  intervalCount: number;
  checkoutSessionId: string;
  paymentIntentId: string | null;
  receiptUrl: string | null;
}

const M = SUBSCRIPTION_MESSAGES;
const isTerminal = (status: SubscriptionStatus) => status !== 'active';

/** A subscription as the demo data or a demo checkout opens it. */
export interface OpenedSubscription {
  studentId: string;
  orderId?: string | null;
  productId?: string | null;
  productPriceId?: string | null;
  planName: string;
  amountCents: number;
  intervalUnit: RenewalIntervalUnit;
  intervalCount: number;
  provider: PaymentProviderName;
  providerSubscriptionId: string;
  currentPeriodEnd: Date | null;
  createdAt?: Date;
}

/** The context of what the provider did: no admin, the subscription's organization. */
const providerContext = (organizationId: string): RequestContext => ({ organizationId, userId: '', role: 'owner', sessionId: 'payment-provider' });

/**
 * Subscriptions: kept from the provider's announcements (SubscriptionEvents, from Stripe's webhooks),
 * shown in the subscription drawer, cancelled now through the provider. Every change is forward-only
 * (active, then expired or cancelled; a period end only grows; an older event never overwrites a
 * newer one), so events that come twice or out of order end in the same state.
 */
@Injectable()
export class SubscriptionsService implements OnModuleInit {
  private readonly logger = new Logger('Subscriptions');

  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly events: SubscriptionEvents,
    private readonly activity: OrderActivityService,
    private readonly students: StudentsService,
    private readonly products: ProductsService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly membership: SubscriptionMembership,
    private readonly cancelling: SubscriptionCancel,
  ) {}

  onModuleInit(): void {
    this.events.on('subscription.changed', (event) => this.applyChange(event));
    this.events.on('subscription.invoice_paid', (event) => this.recordInvoice(event));
    this.queue.process(SUBSCRIPTION_QUEUE, async (job) => {
      if (job.name === RENEW_DEMO_JOB) await this.renewDemo(job.data as RenewDemoJob);
    });
  }

  /**
   * A store order of a subscription product was paid: the subscription its checkout started (the
   * provider's, named by the checkout), recorded once (Stripe's webhooks may have recorded it first:
   * the provider's id is unique). On the demo provider the first period's invoice is recorded too
   * (Stripe sends its own invoice.paid), and its renewal job is queued for the period's end.
   */
  async startFromCheckout(input: StartedSubscription): Promise<void> {
    const state = await this.payments.retrieveCheckout(input.checkoutSessionId);
    if (!state.subscriptionId) throw new Error(`Checkout ${input.checkoutSessionId} of order ${input.orderId} started no subscription yet`);
    const demo = this.payments instanceof DemoPaymentsAdapter ? this.payments : null;
    const periodEnd = demo ? ((await demo.findSubscription(state.subscriptionId))?.currentPeriodEnd ?? null) : null;
    await this.em.execute(
      `insert into "subscription" ("id", "organization_id", "student_id", "order_id", "product_id", "product_price_id", "plan_name", "amount_cents", "currency",
         "interval_unit", "interval_count", "provider", "provider_subscription_id", "status", "current_period_end", "provider_event_at", "created_at")
       select gen_random_uuid(), o.id, ?, ?, ?, ?, ?, ?, 'usd', ?, ?, ?, ?, 'active', ?, 0, now() from "organization" o where o.id = ?
       on conflict ("provider", "provider_subscription_id") do nothing`,
      [
        input.studentId,
        input.orderId,
        input.productId,
        input.productPriceId,
        input.planName,
        input.amountCents,
        input.intervalUnit,
        input.intervalCount,
        this.payments.provider,
        state.subscriptionId,
        periodEnd,
        input.organizationId,
      ],
    );
    // A membership product's holding (issue 24); a retried start (the outbox) finds the row and grants once.
    await this.em.fork().transactional(async (em) => {
      const sub = await em.findOne(Subscription, { provider: this.payments.provider, providerSubscriptionId: state.subscriptionId });
      if (sub) await this.membership.follow(em, sub);
    });
    if (!demo || !periodEnd) return;
    await this.recordInvoice({
      type: 'subscription.invoice_paid',
      provider: 'demo',
      providerSubscriptionId: state.subscriptionId,
      organizationId: input.organizationId,
      providerInvoiceId: `din_${input.orderId}`,
      amountCents: input.amountCents,
      currency: 'usd',
      paidAt: new Date(),
      hostedInvoiceUrl: input.receiptUrl,
      periodEnd,
    });
    const sub = await this.em.fork().findOne(Subscription, { provider: 'demo', providerSubscriptionId: state.subscriptionId });
    if (sub) await this.scheduleRenewal(input.organizationId, sub.id, periodEnd);
  }

  /**
   * The demo provider's renewal (a scheduled job at each period's end): the next period is charged in
   * the demo ledger and its invoice recorded here (the billing history), then the next renewal is
   * queued. Idempotent: the invoice of a period is one row, however often the job runs. Nothing
   * happens for a subscription that is no longer active, or before `dueAt`.
   */
  async renewDemo(job: RenewDemoJob, now = new Date()): Promise<void> {
    const demo = this.payments instanceof DemoPaymentsAdapter ? this.payments : null;
    const sub = await this.em.fork().findOne(Subscription, { id: job.subscriptionId, organization: job.organizationId });
    if (!demo || !sub || sub.provider !== 'demo' || sub.status !== 'active') return;
    const charged = await demo.chargeRenewal(sub.providerSubscriptionId, new Date(job.dueAt), sub.intervalUnit, sub.intervalCount, now);
    if (!charged) return;
    await this.recordInvoice({
      type: 'subscription.invoice_paid',
      provider: 'demo',
      providerSubscriptionId: sub.providerSubscriptionId,
      organizationId: job.organizationId,
      providerInvoiceId: charged.invoiceId,
      amountCents: charged.amountCents,
      currency: 'usd',
      paidAt: charged.paidAt,
      hostedInvoiceUrl: charged.receiptUrl,
      periodEnd: charged.periodEnd,
    });
    await this.scheduleRenewal(job.organizationId, sub.id, charged.periodEnd);
  }

  private async scheduleRenewal(organizationId: string, subscriptionId: string, dueAt: Date): Promise<void> {
    await this.queue.add<RenewDemoJob>(
      SUBSCRIPTION_QUEUE,
      RENEW_DEMO_JOB,
      { organizationId, subscriptionId, dueAt: dueAt.toISOString() },
      {
        jobId: `renew-demo-${subscriptionId}-${dueAt.getTime()}`,
        delayMs: Math.max(0, dueAt.getTime() - Date.now()),
        attempts: 10,
        backoffMs: 30_000,
      },
    );
  }

  /** One subscription of the caller's organization (spec 001 §3); another organization's answers 404. */
  async get(ctx: RequestContext, id: string) {
    const sub = await this.em.findOne(Subscription, { id, organization: ctx.organizationId }, { populate: ['student'] });
    if (!sub) throw notFound(M.notFound);
    const [invoices, activity] = await Promise.all([
      this.em.find(
        SubscriptionInvoice,
        { organizationId: ctx.organizationId, provider: sub.provider, providerSubscriptionId: sub.providerSubscriptionId },
        { orderBy: { paidAt: 'desc', id: 'asc' } },
      ),
      this.activity.list(ctx.organizationId, { subscriptionId: sub.id }),
    ]);
    const s = sub.student;
    return {
      subscription_id: sub.id,
      status: sub.status,
      created_at: sub.createdAt.toISOString(),
      current_period_end: sub.currentPeriodEnd?.toISOString() ?? null,
      cancelled_at: sub.cancelledAt?.toISOString() ?? null,
      order_id: sub.orderId ?? null,
      provider: sub.provider,
      provider_subscription_id: sub.providerSubscriptionId,
      plan: {
        name: sub.planName,
        product_id: sub.productId ?? null,
        amount: sub.amountCents,
        currency: sub.currency,
        interval_unit: sub.intervalUnit,
        interval_count: sub.intervalCount,
      },
      Student: { student_id: s.id, first_name: s.firstName, last_name: s.lastName, email: s.email, phone: s.phone ?? null },
      subscription_invoices: invoices.map((i) => ({
        invoice_id: i.id,
        provider_invoice_id: i.providerInvoiceId,
        amount: i.amountCents,
        currency: i.currency,
        paid_at: i.paidAt.toISOString(),
        receipt_url: i.hostedInvoiceUrl ?? null,
      })),
      activity,
    };
  }

  /** The subscriptions bought with an order (the order drawer's Subscriptions section), oldest first. */
  async listForOrder(organizationId: string, orderId: string) {
    const subs = await this.em.find(Subscription, { organization: organizationId, orderId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return subs.map((s) => ({ subscription_id: s.id, status: s.status, created_at: s.createdAt.toISOString(), plan_name: s.planName }));
  }

  /** Cancels now, not at period end (SubscriptionCancel: the provider is asked outside any transaction); answers the subscription. */
  async cancel(ctx: RequestContext, id: string) {
    await this.cancelling.cancel(ctx, id);
    return this.get(ctx, id);
  }

  /** Records a subscription as it starts (the demo data; a demo checkout of a subscription product). */
  async open(ctx: RequestContext, input: OpenedSubscription): Promise<Subscription> {
    return this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, input.studentId);
      return em.create(Subscription, {
        organization: em.getReference(Organization, ctx.organizationId),
        student,
        orderId: input.orderId ?? null,
        productId: input.productId ?? null,
        productPriceId: input.productPriceId ?? null,
        planName: input.planName,
        amountCents: input.amountCents,
        intervalUnit: input.intervalUnit,
        intervalCount: input.intervalCount,
        provider: input.provider,
        providerSubscriptionId: input.providerSubscriptionId,
        status: 'active',
        currentPeriodEnd: input.currentPeriodEnd,
        createdAt: input.createdAt ?? new Date(),
      });
    });
  }

  /** Records a paid invoice of a subscription (once per provider invoice id). */
  async recordInvoice(event: Extract<SubscriptionEvent, { type: 'subscription.invoice_paid' }>): Promise<void> {
    const known = await this.em.findOne(Subscription, { provider: event.provider, providerSubscriptionId: event.providerSubscriptionId });
    const organizationId = known?.organization.id ?? event.organizationId;
    // Not ours to know yet (no metadata, subscription not seen): fail, so the job retries later.
    if (!organizationId || !isUuid(organizationId)) throw new Error(`Invoice ${event.providerInvoiceId}: subscription ${event.providerSubscriptionId} is not known yet`);
    await this.em.transactional(async (em) => {
      await em.execute(
        `insert into "subscription_invoice" ("id", "organization_id", "provider", "provider_subscription_id", "provider_invoice_id", "amount_cents", "currency", "paid_at", "hosted_invoice_url")
         select gen_random_uuid(), o.id, ?, ?, ?, ?, ?, ?, ? from "organization" o where o.id = ?
         on conflict ("provider", "provider_invoice_id") do nothing`,
        [event.provider, event.providerSubscriptionId, event.providerInvoiceId, event.amountCents, event.currency, event.paidAt, event.hostedInvoiceUrl, organizationId],
      );
      // A paid period extends an active subscription (the period end only grows).
      if (event.periodEnd) {
        await em.execute(
          `update "subscription" set "current_period_end" = greatest(coalesce("current_period_end", ?), ?), "updated_at" = now()
           where "provider" = ? and "provider_subscription_id" = ? and "status" = 'active'`,
          [event.periodEnd, event.periodEnd, event.provider, event.providerSubscriptionId],
        );
        // A membership's new period (issue 24): last period's leftover ends, this one's bookings granted.
        const sub = await em.findOne(Subscription, { provider: event.provider, providerSubscriptionId: event.providerSubscriptionId }, { refresh: true });
        if (sub) await this.membership.follow(em, sub);
      }
    });
  }

  /** Applies what the provider says about a subscription, forward only; creates it when first seen. */
  async applyChange(event: Extract<SubscriptionEvent, { type: 'subscription.changed' }>): Promise<void> {
    const { reference } = event;
    if (!isUuid(reference.organizationId)) return this.logger.warn(`Subscription ${event.providerSubscriptionId}: organization_id is not an id, ignored`);
    const where = { provider: event.provider, providerSubscriptionId: event.providerSubscriptionId };
    if (!(await this.em.findOne(Subscription, where))) {
      const created = await this.createFromProvider(event);
      if (!created) return;
    }
    await this.em.transactional(async (em) => {
      const sub = await em.findOneOrFail(Subscription, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (sub.organization.id !== reference.organizationId) return;
      // Cancelled: recorded as the admin's when an admin's cancel is under way (its intent), else the provider's.
      if (!isTerminal(sub.status) && event.status === 'cancelled') await this.cancelling.markCancelled(em, sub, event.cancelledAt);
      else if (!isTerminal(sub.status) && isTerminal(event.status)) {
        sub.status = event.status;
        sub.cancelledAt = null;
        sub.cancelRequestedAt = null;
        sub.cancelRequestedBy = null;
      }
      if (event.currentPeriodEnd && (!sub.currentPeriodEnd || event.currentPeriodEnd > sub.currentPeriodEnd)) sub.currentPeriodEnd = event.currentPeriodEnd;
      if (event.occurredAt >= Number(sub.providerEventAt)) {
        sub.providerEventAt = event.occurredAt;
        sub.amountCents = event.amountCents;
        sub.currency = event.currency;
        sub.intervalUnit = event.intervalUnit;
        sub.intervalCount = event.intervalCount;
        if (event.planName) sub.planName = event.planName;
      }
      await this.membership.follow(em, sub);
    });
  }

  /** The first time a provider subscription is seen: the row, active, for its student. */
  private async createFromProvider(event: Extract<SubscriptionEvent, { type: 'subscription.changed' }>): Promise<boolean> {
    const { reference } = event;
    const ctx = providerContext(reference.organizationId);
    const studentId = await this.studentOf(ctx, reference.studentId, reference.orderId);
    if (!studentId) {
      this.logger.warn(`Subscription ${event.providerSubscriptionId}: no student of organization ${reference.organizationId} in its metadata, ignored`);
      return false;
    }
    const productId = reference.productId && isUuid(reference.productId) ? reference.productId : null;
    const product = productId ? await this.products.requireProduct(ctx, productId).catch(() => null) : null;
    const orderId = reference.orderId && isUuid(reference.orderId) && (await this.em.count(Order, { id: reference.orderId, organization: ctx.organizationId })) ? reference.orderId : null;
    await this.em.execute(
      `insert into "subscription" ("id", "organization_id", "student_id", "order_id", "product_id", "product_price_id", "plan_name", "amount_cents", "currency",
         "interval_unit", "interval_count", "provider", "provider_subscription_id", "status", "current_period_end", "provider_event_at", "created_at")
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, 0, ?)
       on conflict ("provider", "provider_subscription_id") do nothing`,
      [
        ctx.organizationId,
        studentId,
        orderId,
        product?.id ?? null,
        product && reference.productPriceId && isUuid(reference.productPriceId) ? reference.productPriceId : null,
        event.planName ?? product?.name ?? 'Subscription',
        event.amountCents,
        event.currency,
        event.intervalUnit,
        event.intervalCount,
        event.provider,
        event.providerSubscriptionId,
        event.currentPeriodEnd,
        event.startedAt,
      ],
    );
    return true;
  }

  private async studentOf(ctx: RequestContext, studentId: string | null, orderId: string | null): Promise<string | null> {
    if (studentId && isUuid(studentId)) {
      const student = await this.students.requireStudent(ctx, studentId).catch(() => null);
      if (student) return student.id;
    }
    if (orderId && isUuid(orderId)) {
      const order = await this.em.findOne(Order, { id: orderId, organization: ctx.organizationId });
      if (order) return order.student.id;
    }
    return null;
  }
}
