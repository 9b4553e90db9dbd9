import { formatCents } from '@studio/contracts';
import { LockMode, MikroORM, TransactionContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { PaymentEvents } from '../payment-events';
import {
  CheckoutCreated,
  CheckoutState,
  CreateCheckoutInput,
  CreateSetupInput,
  OverRefundError,
  PaymentMethodSummary,
  PaymentNotFoundError,
  PaymentsPort,
  ProviderRefund,
  RefundInput,
  RefundResult,
  SubscriptionCancelled,
} from '../payments.port';
import { DemoCheckoutSession, DemoPayment, DemoPaymentMethod, DemoRefund, DemoRefundRefusal } from './demo-ledger.entities';
import { DemoSubscription } from './demo-subscription.entity';

export const DEMO_SESSION_ID = /^dcs_[a-f0-9]{32}$/;
export const DEMO_PAYMENT_ID = /^dpi_[a-f0-9]{32}$/;
const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

/** Where the demo pages are served (see DemoPaymentPagesController). */
export const demoPaths = {
  session: (id: string) => `/api/pay/demo/${id}`,
  receipt: (id: string) => `/api/pay/demo/receipt/${id}`,
};

/**
 * The built-in payment provider, the default when no Stripe key is set (as Medusa ships its system
 * provider): payment links open a page of this app labelled "Demo payment, no card is charged";
 * payments, refunds and saved cards are rows of its own ledger. Nothing leaves the machine.
 */
export class DemoPaymentsAdapter extends PaymentsPort {
  readonly provider = 'demo' as const;

  constructor(
    private readonly orm: MikroORM,
    private readonly events: PaymentEvents,
    /** Absolute base of this app's public address, without a trailing slash. */
    private readonly baseUrl: string,
    /** The embedded database (PGlite) has one connection: see em(). */
    private readonly embedded = false,
  ) {
    super();
  }

  /**
   * The ledger's own unit of work. On PostgreSQL it is a separate connection, so the ledger commits
   * whatever the caller does, as a real provider would. The embedded database has a single
   * connection: a caller's open transaction (a refund under its order lock, a cancellation) holds
   * it, and a second unit of work would wait for it forever, so there the ledger joins that
   * transaction.
   */
  private em(): EntityManager {
    const joined = this.embedded ? TransactionContext.getEntityManager(this.orm.em.name) : undefined;
    return (joined ?? this.orm.em.fork()) as EntityManager;
  }

  async createCheckout(input: CreateCheckoutInput): Promise<CheckoutCreated> {
    const em = this.em();
    // Idempotent as Stripe's key (the order and its expiry): a retried or resumed checkout gets the same page.
    const made = await em.findOne(DemoCheckoutSession, { orderId: input.orderId, mode: 'payment', expiresAt: input.expiresAt });
    if (made) return { sessionId: made.id, url: this.baseUrl + demoPaths.session(made.id) };
    const session = em.create(DemoCheckoutSession, {
      id: newId('dcs'),
      organizationId: input.organizationId,
      orderId: input.orderId,
      mode: 'payment',
      amountCents: input.lines.reduce((sum, l) => sum + l.unitAmountCents * l.quantity, 0),
      currency: input.currency ?? 'usd',
      customerEmail: input.customerEmail,
      lines: input.lines,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: input.expiresAt,
      subscription: input.subscription ?? null,
    });
    await em.persistAndFlush(session);
    return { sessionId: session.id, url: this.baseUrl + demoPaths.session(session.id) };
  }

  /** Closes an open page (as Stripe's expire): it answers `expired` from now on; a paid one stays paid. */
  async expireCheckout(sessionId: string): Promise<CheckoutState['status']> {
    return this.em().transactional(async (em) => {
      const changed = await em.nativeUpdate(DemoCheckoutSession, { id: sessionId, status: 'open' }, { status: 'expired', completedAt: new Date() });
      const session = await em.findOne(DemoCheckoutSession, { id: sessionId }, { refresh: true });
      if (!session) throw new PaymentNotFoundError(`No such checkout session: ${sessionId}`);
      if (changed && session.mode === 'payment')
        await this.events.publish(em as EntityManager, { type: 'checkout.expired', provider: 'demo', sessionId, orderId: session.orderId ?? null, organizationId: session.organizationId });
      return session.status;
    });
  }

  async retrieveCheckout(sessionId: string): Promise<CheckoutState> {
    await this.expireIfDue(sessionId);
    const session = await this.em().findOne(DemoCheckoutSession, { id: sessionId, mode: 'payment' });
    if (!session) throw new PaymentNotFoundError(`No such checkout session: ${sessionId}`);
    return {
      sessionId,
      status: session.status,
      paymentIntentId: session.paymentId ?? null,
      amountTotalCents: session.amountCents,
      orderId: session.orderId ?? null,
      subscriptionId: session.subscriptionId ?? null,
    };
  }

  /**
   * A refund in the demo ledger, committed on its own unit of work as a provider commits (the caller
   * asks outside its transactions; on the embedded database a caller's open transaction is joined,
   * see em()). As Stripe: the same idempotency key answers its first answer, the refund made or the
   * same refusal, and a key sent again with another payment or amount is an error.
   */
  async refund(input: RefundInput): Promise<RefundResult> {
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('A refund is a whole number of cents above 0');
    const answer = await this.em().transactional(async (em) => {
      // The payment row is locked: concurrent refunds of one payment queue here, so their sum
      // never passes the amount captured, and a repeated key finds the first refund.
      const payment = await em.findOne(DemoPayment, { id: input.paymentIntentId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!payment) return { refusal: { code: 'payment_not_found', message: `No such payment: ${input.paymentIntentId}` } };
      const previous = await em.findOne(DemoRefund, { idempotencyKey: input.idempotencyKey });
      const refused = previous ? null : await em.findOne(DemoRefundRefusal, { idempotencyKey: input.idempotencyKey });
      const first = previous ?? refused;
      if (first) {
        const sameRequest = (previous?.paymentId ?? refused?.paymentId) === payment.id && first.amountCents === input.amountCents;
        if (!sameRequest) throw new Error(`Keys for idempotent requests can only be used with the same parameters they were first used with (${input.idempotencyKey})`);
        if (previous) return { refund: previous };
        return { refusal: { code: refused!.code, message: refused!.message } };
      }
      const remaining = payment.amountCents - payment.refundedCents;
      const message =
        remaining <= 0
          ? `Payment ${payment.id} has already been refunded.`
          : input.amountCents > remaining
            ? `Refund amount (${formatCents(input.amountCents)}) is greater than unrefunded amount on payment (${formatCents(remaining)})`
            : null;
      if (message) {
        em.create(DemoRefundRefusal, { idempotencyKey: input.idempotencyKey, paymentId: payment.id, amountCents: input.amountCents, code: 'over_refund', message });
        return { refusal: { code: 'over_refund', message } };
      }
      const refund = em.create(DemoRefund, {
        id: newId('dre'),
        paymentId: payment.id,
        amountCents: input.amountCents,
        reason: input.reason ?? null,
        idempotencyKey: input.idempotencyKey,
        metadata: {
          ...(input.organizationId ? { organization_id: input.organizationId } : {}),
          ...(input.orderId ? { order_id: input.orderId } : {}),
          ...(input.ledgerRefundId ? { order_refund_id: input.ledgerRefundId } : {}),
        },
      });
      payment.refundedCents += input.amountCents;
      return { refund };
    });
    if ('refusal' in answer) {
      const { code, message } = answer.refusal!;
      throw code === 'payment_not_found' ? new PaymentNotFoundError(message) : new OverRefundError(message);
    }
    return { refundId: answer.refund.id, status: 'succeeded', amountCents: answer.refund.amountCents };
  }

  async listRefunds(paymentIntentId: string): Promise<ProviderRefund[]> {
    const em = this.em();
    if (!(await em.count(DemoPayment, { id: paymentIntentId }))) throw new PaymentNotFoundError(`No such payment: ${paymentIntentId}`);
    const refunds = await em.find(DemoRefund, { paymentId: paymentIntentId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return refunds.map((r) => ({
      refundId: r.id,
      status: 'succeeded' as const,
      amountCents: r.amountCents,
      paymentIntentId,
      createdAt: r.createdAt,
      reason: null,
      failureReason: null,
      organizationId: r.metadata?.organization_id ?? null,
      orderId: r.metadata?.order_id ?? null,
      ledgerRefundId: r.metadata?.order_refund_id ?? null,
    }));
  }

  async receiptUrl(paymentIntentId: string): Promise<string | null> {
    const payment = await this.em().findOne(DemoPayment, { id: paymentIntentId });
    return payment ? this.baseUrl + demoPaths.receipt(payment.id) : null;
  }

  async listPaymentMethods(organizationId: string): Promise<PaymentMethodSummary[]> {
    const methods = await this.em().find(DemoPaymentMethod, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return methods.map((m) => ({ id: m.id, brand: m.brand, last4: m.last4, expMonth: m.expMonth, expYear: m.expYear }));
  }

  async createSetup(input: CreateSetupInput): Promise<{ url: string }> {
    const em = this.em();
    const session = em.create(DemoCheckoutSession, {
      id: newId('dcs'),
      organizationId: input.organizationId,
      mode: 'setup',
      amountCents: 0,
      lines: [],
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: new Date(Date.now() + 24 * 3600_000),
    });
    await em.persistAndFlush(session);
    return { url: this.baseUrl + demoPaths.session(session.id) };
  }

  // The demo pages' side (DemoPaymentPagesController): what the payer sees and does.

  /** The session as the page shows it, expired first if its time has passed; null when unknown. */
  async sessionForPage(sessionId: string): Promise<DemoCheckoutSession | null> {
    if (!DEMO_SESSION_ID.test(sessionId)) return null;
    await this.expireIfDue(sessionId);
    return this.em().findOne(DemoCheckoutSession, { id: sessionId });
  }

  async paymentForReceipt(paymentId: string): Promise<{ payment: DemoPayment; refunds: DemoRefund[]; session: DemoCheckoutSession | null } | null> {
    if (!DEMO_PAYMENT_ID.test(paymentId)) return null;
    const em = this.em();
    const payment = await em.findOne(DemoPayment, { id: paymentId });
    if (!payment) return null;
    const refunds = await em.find(DemoRefund, { paymentId }, { orderBy: { createdAt: 'asc' } });
    return { payment, refunds, session: await em.findOne(DemoCheckoutSession, { id: payment.sessionId }) };
  }

  /**
   * The payer clicked Pay: records the payment (payment mode) or a demo card (setup mode). Clicking
   * twice, or on a link no longer open, changes nothing. Answers the session after the click.
   */
  async pay(sessionId: string): Promise<DemoCheckoutSession | null> {
    if (!DEMO_SESSION_ID.test(sessionId)) return null;
    await this.expireIfDue(sessionId);
    // The announcement commits with the payment (the outbox): a crash after the payer's click can
    // neither lose the seat's settlement nor pay twice.
    return this.em().transactional(async (em) => {
      const found = await em.findOne(DemoCheckoutSession, { id: sessionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found || found.status !== 'open') return found;
      found.status = 'paid';
      found.completedAt = new Date();
      if (found.mode === 'payment') {
        const payment = em.create(DemoPayment, {
          id: newId('dpi'),
          organizationId: found.organizationId,
          sessionId: found.id,
          amountCents: found.amountCents,
          currency: found.currency,
          customerEmail: found.customerEmail ?? null,
        });
        em.persist(payment);
        found.paymentId = payment.id;
        if (found.subscription) {
          // A subscription checkout: the first period is this payment; the renewals bill the next.
          const subscription = em.create(DemoSubscription, {
            id: newId('dsub'),
            organizationId: found.organizationId,
            amountCents: found.amountCents,
            currentPeriodEnd: addInterval(found.completedAt, found.subscription.intervalUnit, found.subscription.intervalCount),
          });
          em.persist(subscription);
          found.subscriptionId = subscription.id;
        }
        await em.flush();
        await this.events.publish(em as EntityManager, {
          type: 'payment.succeeded',
          provider: 'demo',
          sessionId,
          orderId: found.orderId ?? null,
          organizationId: found.organizationId,
          paymentIntentId: payment.id,
          amountCents: payment.amountCents,
        });
      } else {
        const method = em.create(DemoPaymentMethod, {
          id: newId('dpm'),
          organizationId: found.organizationId,
          brand: 'visa',
          last4: '4242',
          expMonth: 12,
          expYear: new Date().getUTCFullYear() + 3,
        });
        em.persist(method);
        await em.flush();
        await this.events.publish(em as EntityManager, { type: 'payment_method.added', provider: 'demo', organizationId: found.organizationId, paymentMethodId: method.id });
      }
      return found;
    });
  }

  /** The payer clicked Cancel: an open link becomes cancelled; otherwise nothing changes. */
  async cancel(sessionId: string): Promise<DemoCheckoutSession | null> {
    if (!DEMO_SESSION_ID.test(sessionId)) return null;
    await this.expireIfDue(sessionId);
    return this.em().transactional(async (em) => {
      const changed = await em.nativeUpdate(DemoCheckoutSession, { id: sessionId, status: 'open' }, { status: 'cancelled', completedAt: new Date() });
      const session = await em.findOne(DemoCheckoutSession, { id: sessionId }, { refresh: true });
      if (changed && session?.mode === 'payment') {
        await this.events.publish(em as EntityManager, { type: 'checkout.cancelled', provider: 'demo', sessionId, orderId: session.orderId ?? null, organizationId: session.organizationId });
      }
      return session;
    });
  }

  /** Cancels a demo subscription now; one already cancelled answers when it was. */
  async cancelSubscription(providerSubscriptionId: string): Promise<SubscriptionCancelled> {
    const em = this.em();
    await em.nativeUpdate(DemoSubscription, { id: providerSubscriptionId, status: 'active' }, { status: 'canceled', canceledAt: new Date() });
    const subscription = await em.findOne(DemoSubscription, { id: providerSubscriptionId });
    if (!subscription) throw new PaymentNotFoundError(`No such subscription: ${providerSubscriptionId}`);
    return { providerSubscriptionId, cancelledAt: subscription.canceledAt ?? new Date() };
  }

  /** Opens a subscription in the demo ledger (the demo data; a demo subscription checkout later). */
  async openSubscription(organizationId: string, amountCents: number, createdAt = new Date()): Promise<string> {
    const em = this.em();
    const subscription = em.create(DemoSubscription, { id: newId('dsub'), organizationId, amountCents, createdAt });
    await em.persistAndFlush(subscription);
    return subscription.id;
  }

  /**
   * A demo subscription's renewal falls due: the next period is charged (a payment in the ledger,
   * once per period: the invoice id is the subscription's and the period's) and the period moves on.
   * Answers the invoice, or null when the subscription is cancelled, unknown or not due at `now`.
   */
  async chargeRenewal(
    providerSubscriptionId: string,
    dueAt: Date,
    intervalUnit: 'days' | 'weeks' | 'months' | 'years',
    intervalCount: number,
    now = new Date(),
  ): Promise<{ invoiceId: string; amountCents: number; paidAt: Date; periodEnd: Date; receiptUrl: string | null } | null> {
    return this.em().transactional(async (em) => {
      const sub = await em.findOne(DemoSubscription, { id: providerSubscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!sub?.currentPeriodEnd || dueAt.getTime() > now.getTime()) return null;
      const invoiceId = `din_${sub.id.slice(5)}_${dueAt.getTime()}`;
      const periodEnd = addInterval(dueAt, intervalUnit, intervalCount);
      // Charged already (the job ran before): the same invoice again, nothing charged twice.
      if (sub.currentPeriodEnd.getTime() > dueAt.getTime()) {
        return { invoiceId, amountCents: sub.amountCents, paidAt: dueAt, periodEnd, receiptUrl: null };
      }
      if (sub.status !== 'active' || sub.currentPeriodEnd.getTime() !== dueAt.getTime()) return null;
      // The renewal's payment hangs on the checkout that started the subscription (its plan).
      const started = await em.findOne(DemoCheckoutSession, { subscriptionId: sub.id });
      if (!started) return null;
      const payment = em.create(DemoPayment, {
        id: newId('dpi'),
        organizationId: sub.organizationId,
        sessionId: started.id,
        amountCents: sub.amountCents,
        currency: 'usd',
        customerEmail: started.customerEmail ?? null,
      });
      em.persist(payment);
      sub.currentPeriodEnd = periodEnd;
      return { invoiceId, amountCents: sub.amountCents, paidAt: dueAt, periodEnd, receiptUrl: this.baseUrl + demoPaths.receipt(payment.id) };
    });
  }

  /** The demo ledger's subscription, or null. */
  findSubscription(providerSubscriptionId: string): Promise<DemoSubscription | null> {
    return this.em().findOne(DemoSubscription, { id: providerSubscriptionId });
  }

  /** An open link past its expiry becomes expired, once (the conditional update), and says so. */
  private async expireIfDue(sessionId: string): Promise<void> {
    await this.em().transactional(async (em) => {
      const changed = await em.nativeUpdate(DemoCheckoutSession, { id: sessionId, status: 'open', expiresAt: { $lte: new Date() } }, { status: 'expired' });
      if (!changed) return;
      const session = await em.findOne(DemoCheckoutSession, { id: sessionId }, { refresh: true });
      if (session?.mode === 'payment') {
        await this.events.publish(em as EntityManager, { type: 'checkout.expired', provider: 'demo', sessionId, orderId: session.orderId ?? null, organizationId: session.organizationId });
      }
    });
  }
}

/** A date `count` units later (calendar months and years, as a plan bills). */
export function addInterval(from: Date | null | undefined, unit: 'days' | 'weeks' | 'months' | 'years', count: number): Date {
  const next = new Date(from ?? Date.now());
  if (unit === 'days') next.setUTCDate(next.getUTCDate() + count);
  else if (unit === 'weeks') next.setUTCDate(next.getUTCDate() + 7 * count);
  else if (unit === 'months') next.setUTCMonth(next.getUTCMonth() + count);
  else next.setUTCFullYear(next.getUTCFullYear() + count);
  return next;
}
