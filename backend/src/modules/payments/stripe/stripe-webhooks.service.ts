import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type Stripe from 'stripe';
import { ApiError } from '../../../common/api-error';
import { Clock } from '../../../common/clock';
import { APP_CONFIG } from '../../../config/config.module';
import { AppConfig } from '../../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../../queue/job-queue';
import { PaymentEvent, PaymentEvents } from '../payment-events';
import { SubscriptionEvent, SubscriptionEvents, SubscriptionReference } from '../subscription-events';
import { StripeCustomer } from './stripe-customer.entity';
import { idOf, INTERVALS, seconds, subscriptionStatus, textOr, unlessMissing } from './stripe-event-fields';
import { stripeClient } from './stripe-payments.adapter';
import { StripeWebhookEvent } from './stripe-webhook-event.entity';

/** Stripe's own default, and the rule: a signature older than this is refused (replays). */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
export const STRIPE_WEBHOOK_QUEUE = 'stripe-webhooks';
const HANDLE_EVENT_JOB = 'handle-event';

export const STRIPE_WEBHOOK_MESSAGES = {
  notConfigured: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET is not set)',
  missingSignature: 'Missing Stripe-Signature header',
  badSignature: 'Invalid Stripe signature',
  notAnEvent: 'The body is not a Stripe event',
} as const;

/**
 * Stripe's webhooks: the signature is checked on the raw bytes with the SDK (300 s tolerance), each
 * event is stored once by its id, and handled by a queue job that carries only that id. Handling
 * translates the event into PaymentEvents (payments, expiries, saved cards) and SubscriptionEvents
 * (subscriptions and their paid invoices); the modules that listen make them idempotent and
 * forward-only, so a repeated or late event changes nothing.
 */
@Injectable()
export class StripeWebhooksService implements OnModuleInit {
  private readonly logger = new Logger('StripeWebhooks');
  /** The SDK for verifying signatures and, with a secret key, reading objects an event only names. */
  private client: Stripe | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orm: MikroORM,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly paymentEvents: PaymentEvents,
    private readonly subscriptionEvents: SubscriptionEvents,
    private readonly clock: Clock,
  ) {}

  /** Built on the first delivery, not at boot: loading the SDK is a start cost most studios skip. */
  private get stripe(): Stripe {
    this.client ??= stripeClient(this.config.STRIPE_SECRET_KEY ?? 'sk_test_webhooks_only', this.config.STRIPE_API_BASE);
    return this.client;
  }

  onModuleInit(): void {
    this.queue.process(STRIPE_WEBHOOK_QUEUE, async (job) => {
      if (job.name !== HANDLE_EVENT_JOB) return;
      const { eventId } = job.data as { eventId: string };
      await RequestContext.create(this.orm.em, () => this.handle(eventId));
    });
  }

  /**
   * Verifies and records one delivery, and queues its handling. A delivery of an event already
   * recorded is accepted and changes nothing (a job of the same id is not queued twice).
   */
  async receive(
    rawBody: unknown,
    signature: string | undefined,
  ): Promise<{ received: true; duplicate: boolean }> {
    const secret = this.config.STRIPE_WEBHOOK_SECRET;
    // Not a Stripe deployment: this endpoint does not exist here (Stripe retries any non-2xx for days,
    // so deliveries sent before the secret is set still arrive once it is).
    if (!secret) throw new ApiError(HttpStatus.NOT_FOUND, STRIPE_WEBHOOK_MESSAGES.notConfigured);
    if (!signature) throw new ApiError(HttpStatus.BAD_REQUEST, STRIPE_WEBHOOK_MESSAGES.missingSignature);
    const payload = Buffer.isBuffer(rawBody) ? rawBody : Buffer.alloc(0);
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        payload,
        signature,
        secret,
        STRIPE_SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        // The signature's age as the app's clock reads it (a test moves the clock instead of waiting).
        this.clock.nowMs(),
      );
    } catch {
      throw new ApiError(HttpStatus.BAD_REQUEST, STRIPE_WEBHOOK_MESSAGES.badSignature);
    }
    if (
      !event ||
      typeof event.id !== 'string' ||
      event.id.length > 255 ||
      typeof event.type !== 'string' ||
      event.type.length > 255 ||
      typeof event.created !== 'number' ||
      !event.data?.object
    ) {
      throw new ApiError(HttpStatus.BAD_REQUEST, STRIPE_WEBHOOK_MESSAGES.notAnEvent);
    }
    const em = this.orm.em.fork() as EntityManager;
    const inserted = await em.getConnection().execute<{ id: string }[]>(
      `insert into "stripe_webhook_event" ("id", "type", "payload", "stripe_created_at") values (?, ?, ?, ?)
       on conflict ("id") do nothing returning "id"`,
      [event.id, event.type, JSON.stringify(event), new Date(event.created * 1000)],
    );
    const stored = await em.findOne(StripeWebhookEvent, { id: event.id });
    // Queued again while not yet handled: a delivery that arrives after a lost job still gets it done.
    if (stored && !stored.processedAt) {
      await this.queue.add(
        STRIPE_WEBHOOK_QUEUE,
        HANDLE_EVENT_JOB,
        { eventId: event.id },
        { jobId: `stripe-event-${event.id}` },
      );
    }
    return { received: true, duplicate: inserted.length === 0 };
  }

  /**
   * Handles one recorded event, once: its PaymentEvents are published (the outbox) in the same
   * transaction that marks it handled, so a crash either leaves it to handle again or has announced
   * it exactly once. Subscription changes are applied by their listeners before that (idempotent and
   * forward-only: a retried job applies them again harmlessly).
   */
  async handle(eventId: string): Promise<void> {
    const em = this.orm.em.fork() as EntityManager;
    const row = await em.findOne(StripeWebhookEvent, { id: eventId });
    if (!row || row.processedAt) return;
    const out: PaymentEvent[] = [];
    await this.translate(row.payload as unknown as Stripe.Event, out);
    await em.transactional(async (tx) => {
      const marked = await tx.nativeUpdate(StripeWebhookEvent, { id: eventId, processedAt: null }, { processedAt: new Date() });
      if (!marked) return; // handled meanwhile by another run of the job
      for (const event of out) await this.paymentEvents.publish(tx as EntityManager, event);
    });
  }

  private async translate(event: Stripe.Event, out: PaymentEvent[]): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.checkoutCompleted(event.data.object, out);
      case 'checkout.session.expired':
        return this.checkoutExpired(event.data.object, out);
      case 'setup_intent.succeeded':
        return this.setupSucceeded(event.data.object, out);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscriptionChanged(event.data.object, event.created);
      case 'invoice.paid':
        return this.invoicePaid(event.data.object, event.created);
      case 'refund.created':
      case 'refund.updated':
      case 'refund.failed':
        return this.refundChanged(event.data.object, out);
      // A charge refunded (fully or in part): each of its refunds, ours or made in the Stripe dashboard.
      case 'charge.refunded':
        return this.chargeRefunded(event.data.object, out);
      // API versions before 2024-10 announced a refund's changes on the charge's name; the object is the refund.
      case 'charge.refund.updated':
        return this.refundChanged(event.data.object as Stripe.Refund, out);
      default:
        this.logger.debug(`Ignored Stripe event ${event.type} ${event.id}`);
    }
  }

  private async checkoutCompleted(session: Stripe.Checkout.Session, out: PaymentEvent[]): Promise<void> {
    const organizationId = textOr(session.metadata?.organization_id);
    if (!organizationId)
      return this.logger.warn(`Checkout session ${session.id} has no organization_id metadata: ignored`);
    if (session.mode === 'payment') {
      if (session.payment_status !== 'paid') return;
      const paymentIntentId = idOf(session.payment_intent);
      if (!paymentIntentId)
        return this.logger.warn(`Paid checkout session ${session.id} has no payment intent: ignored`);
      out.push({
          type: 'payment.succeeded',
          provider: 'stripe',
          sessionId: session.id,
          orderId: textOr(session.client_reference_id) ?? textOr(session.metadata?.order_id),
          organizationId,
          paymentIntentId,
          amountCents: session.amount_total ?? 0,
        });
    } else if (session.mode === 'subscription') {
      // A store subscription's first period is paid: its order settles like a payment link's. The
      // payment is the first invoice's (the subscription itself arrives as customer.subscription.*).
      if (session.payment_status !== 'paid') return;
      const invoiceId = idOf(session.invoice);
      if (!invoiceId) return this.logger.warn(`Paid subscription checkout ${session.id} has no invoice: ignored`);
      out.push({
        type: 'payment.succeeded',
        provider: 'stripe',
        sessionId: session.id,
        orderId: textOr(session.client_reference_id) ?? textOr(session.metadata?.order_id),
        organizationId,
        paymentIntentId: invoiceId,
        amountCents: session.amount_total ?? 0,
      });
    } else if (session.mode === 'setup') {
      const setupIntentId = idOf(session.setup_intent);
      if (!setupIntentId) return;
      const intent =
        typeof session.setup_intent === 'object' && session.setup_intent
          ? session.setup_intent
          : await this.stripe.setupIntents.retrieve(setupIntentId);
      const paymentMethodId = idOf(intent.payment_method);
      if (paymentMethodId)
        out.push({ type: 'payment_method.added', provider: 'stripe', organizationId, paymentMethodId });
    }
  }

  private async checkoutExpired(session: Stripe.Checkout.Session, out: PaymentEvent[]): Promise<void> {
    const organizationId = textOr(session.metadata?.organization_id);
    if (!organizationId || session.mode === 'setup') return;
    out.push({
        type: 'checkout.expired',
        provider: 'stripe',
        sessionId: session.id,
        orderId: textOr(session.client_reference_id) ?? textOr(session.metadata?.order_id),
        organizationId,
      });
  }

  /** A card saved (Checkout in setup mode): the studio is found by its Stripe customer. */
  private async setupSucceeded(intent: Stripe.SetupIntent, out: PaymentEvent[]): Promise<void> {
    const paymentMethodId = idOf(intent.payment_method);
    const customerId = idOf(intent.customer);
    if (!paymentMethodId) return;
    let organizationId = textOr(intent.metadata?.organization_id);
    if (!organizationId && customerId) {
      organizationId =
        (await this.orm.em.fork().findOne(StripeCustomer, { customerId }))?.organizationId ?? null;
    }
    if (!organizationId) return this.logger.warn(`SetupIntent ${intent.id} is not a studio's: ignored`);
    out.push({ type: 'payment_method.added', provider: 'stripe', organizationId, paymentMethodId });
  }

  /**
   * A refund made or changed (a pending refund succeeded, failed or was canceled; a refund made in
   * the Stripe dashboard). The studio is the refund's organization_id metadata (refunds made by the
   * adapter carry it), else its payment intent's (our Checkout sets it there); a refund neither names
   * is not a studio's and is ignored.
   *
   * A refund that names no order (no order_id metadata: not made by this app, e.g. in the dashboard)
   * is read again from Stripe when this deployment has a secret key, unless `current` (just listed
   * from Stripe): the orders module records such a refund from this event, so it takes the refund's
   * state now, not the event's (a refund.created delivered after the refund.failed of the same
   * refund must not record a refund whose money never left). `intentOrganization` is the payment
   * intent's studio when the caller resolved it already (one charge's refunds share it).
   */
  private async refundChanged(refund: Stripe.Refund, out: PaymentEvent[], options: { current?: boolean; intentOrganization?: () => Promise<string | null> } = {}): Promise<void> {
    if (typeof refund?.id !== 'string' || typeof refund.status !== 'string') return this.logger.warn('A refund event without a refund id or status: ignored');
    if (!options.current && !textOr(refund.metadata?.order_id) && this.config.STRIPE_SECRET_KEY) {
      const current = await this.currentRefund(refund.id);
      if (!current) return this.logger.warn(`Refund ${refund.id} is not known to Stripe: ignored`);
      refund = current;
    }
    const status = refund.status;
    if (typeof status !== 'string') return this.logger.warn(`Refund ${refund.id} has no status: ignored`);
    const organizationId =
      textOr(refund.metadata?.organization_id) ??
      (options.intentOrganization ? await options.intentOrganization() : await this.paymentIntentOrganization(refund.payment_intent));
    if (!organizationId) return this.logger.warn(`Refund ${refund.id} names no studio (no organization_id metadata on it or its payment intent): ignored`);
    out.push({
        type: 'refund.updated',
        provider: 'stripe',
        organizationId,
        providerRefundId: refund.id,
        paymentIntentId: idOf(refund.payment_intent),
        status,
        amountCents: refund.amount ?? 0,
        failureReason: textOr(refund.failure_reason),
        orderReference: textOr(refund.metadata?.order_id),
        ledgerRefundId: textOr(refund.metadata?.order_refund_id),
        reason: textOr(refund.reason),
      });
  }

  /**
   * charge.refunded: every refund of the charge, in the order Stripe lists them. The event's charge
   * lists them only when expanded (API versions since 2022-11-15 leave `refunds` out), so they are
   * listed from Stripe, which also gives their state now; without a secret key only an expanded
   * list can be read. Each goes the way of refundChanged: ours find their ledger rows, one made in
   * the dashboard is recorded once, however many events announce it.
   */
  private async chargeRefunded(charge: Stripe.Charge, out: PaymentEvent[]): Promise<void> {
    if (typeof charge?.id !== 'string') return this.logger.warn('A charge.refunded event without a charge id: ignored');
    let refunds: Stripe.Refund[];
    let current = false;
    if (this.config.STRIPE_SECRET_KEY) {
      const listed = await unlessMissing(async () => {
        const all: Stripe.Refund[] = [];
        for await (const refund of this.stripe.refunds.list({ charge: charge.id, limit: 100 })) all.push(refund);
        return all;
      });
      // Not this account's charge: nothing to record.
      if (!listed) return this.logger.warn(`Charge ${charge.id} is not known to Stripe: ignored`);
      refunds = listed;
      current = true;
    } else if (charge.refunds?.data && !charge.refunds.has_more) {
      refunds = charge.refunds.data;
    } else {
      return this.logger.warn(`Charge ${charge.id} refunded: its refunds are not in the event and this deployment cannot read them (no STRIPE_SECRET_KEY): ignored`);
    }
    let intentOrganization: Promise<string | null> | null = null;
    const organization = () => (intentOrganization ??= this.paymentIntentOrganization(charge.payment_intent ?? refunds[0]?.payment_intent));
    for (const refund of refunds) await this.refundChanged(refund, out, { current, intentOrganization: organization });
  }

  /** The refund as Stripe has it now, or null when Stripe does not know it. */
  private currentRefund(refundId: string): Promise<Stripe.Refund | null> {
    return unlessMissing(() => this.stripe.refunds.retrieve(refundId));
  }

  /** The organization_id metadata of a payment intent, read from Stripe when the event only names it. */
  private async paymentIntentOrganization(intent: string | Stripe.PaymentIntent | null | undefined): Promise<string | null> {
    if (intent && typeof intent === 'object') return textOr(intent.metadata?.organization_id);
    const intentId = textOr(intent);
    // Without a secret key this deployment only verifies webhooks: it cannot read Stripe's objects.
    if (!intentId || !this.config.STRIPE_SECRET_KEY) return null;
    // Not this account's payment: nothing to resolve.
    const found = await unlessMissing(() => this.stripe.paymentIntents.retrieve(intentId));
    return found ? textOr(found.metadata?.organization_id) : null;
  }

  private reference(metadata: Stripe.Metadata | null | undefined): SubscriptionReference | null {
    const organizationId = textOr(metadata?.organization_id);
    if (!organizationId) return null;
    return {
      organizationId,
      orderId: textOr(metadata?.order_id),
      studentId: textOr(metadata?.student_id),
      productId: textOr(metadata?.product_id),
      productPriceId: textOr(metadata?.product_price_id),
    };
  }

  private async subscriptionChanged(subscription: Stripe.Subscription, occurredAt: number): Promise<void> {
    const reference = this.reference(subscription.metadata);
    if (!reference)
      return this.logger.warn(`Subscription ${subscription.id} has no organization_id metadata: ignored`);
    const item = subscription.items?.data?.[0];
    const price = item?.price;
    const event: SubscriptionEvent = {
      type: 'subscription.changed',
      provider: 'stripe',
      providerSubscriptionId: subscription.id,
      reference,
      status: subscriptionStatus(subscription.status),
      planName: textOr(subscription.metadata?.plan_name) ?? textOr(price?.nickname),
      amountCents: price?.unit_amount ?? 0,
      currency: price?.currency ?? subscription.currency ?? 'usd',
      intervalUnit: INTERVALS[price?.recurring?.interval ?? 'month'] ?? 'months',
      intervalCount: Math.min(Math.max(price?.recurring?.interval_count ?? 1, 1), 365),
      currentPeriodEnd: seconds(item?.current_period_end),
      cancelledAt:
        subscription.status === 'canceled'
          ? (seconds(subscription.ended_at) ??
            seconds(subscription.canceled_at) ??
            new Date(occurredAt * 1000))
          : null,
      startedAt:
        seconds(subscription.start_date) ?? seconds(subscription.created) ?? new Date(occurredAt * 1000),
      occurredAt,
    };
    await this.subscriptionEvents.emit(event);
  }

  private async invoicePaid(invoice: Stripe.Invoice, occurredAt: number): Promise<void> {
    const details = invoice.parent?.subscription_details;
    // API versions before 2025-03 named the subscription on the invoice itself.
    const legacy = invoice as unknown as { subscription?: string | { id: string } | null };
    const providerSubscriptionId = idOf(details?.subscription) ?? idOf(legacy.subscription);
    if (!invoice.id || !providerSubscriptionId) return; // a one-off invoice: not a subscription's
    const periodEnds = (invoice.lines?.data ?? []).map((line) => line.period?.end ?? 0);
    await this.subscriptionEvents.emit({
      type: 'subscription.invoice_paid',
      provider: 'stripe',
      providerSubscriptionId,
      organizationId: textOr(details?.metadata?.organization_id) ?? textOr(invoice.metadata?.organization_id),
      providerInvoiceId: invoice.id,
      amountCents: invoice.amount_paid ?? 0,
      currency: invoice.currency ?? 'usd',
      paidAt: seconds(invoice.status_transitions?.paid_at) ?? new Date(occurredAt * 1000),
      hostedInvoiceUrl: textOr(invoice.hosted_invoice_url),
      periodEnd: seconds(Math.max(0, ...periodEnds)),
    });
  }
}
