import { MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
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
import { StripeCustomer } from './stripe-customer.entity';

/**
 * The SDK, loaded on first use rather than at boot (issue 12: the API starts in under 3 s; a
 * studio without Stripe never needs it).
 */
export function stripeSdk(): typeof Stripe {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('stripe') as typeof Stripe;
}

/** Builds the SDK client; `apiBase` (tests: a local fake) sets its host, port and protocol. */
export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const Stripe = stripeSdk();
  if (!apiBase) return new Stripe(secretKey);
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    maxNetworkRetries: 1,
  });
}

/** Our renewal units in Stripe's recurring intervals. */
const STRIPE_INTERVAL = { days: 'day', weeks: 'week', months: 'month', years: 'year' } as const;

/** Stripe's refusals of a refund larger than what is left (the charge fully or partly refunded already). */
const OVER_REFUND_CODES = new Set(['amount_too_large', 'charge_already_refunded']);

/**
 * Stripe, through its official SDK: payment links are Checkout Sessions (payment mode), the studio's
 * cards are saved by Checkout in setup mode on a Stripe customer per studio, refunds carry our
 * idempotency key, receipts are the charge's receipt_url.
 */
export class StripePaymentsAdapter extends PaymentsPort {
  readonly provider = 'stripe' as const;

  constructor(
    private readonly stripe: Stripe,
    private readonly orm: MikroORM,
  ) {
    super();
  }

  async createCheckout(input: CreateCheckoutInput): Promise<CheckoutCreated> {
    const currency = input.currency ?? 'usd';
    const metadata = { organization_id: input.organizationId, order_id: input.orderId };
    const plan = input.subscription;
    // Checkout in subscription mode: the plan's recurring price; the subscription carries who it is
    // for (its webhooks name the studio, the order, the student and the product).
    const recurring = plan
      ? { interval: STRIPE_INTERVAL[plan.intervalUnit], interval_count: plan.intervalCount }
      : undefined;
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: plan ? 'subscription' : 'payment',
        line_items: input.lines.map((line) => ({
          quantity: line.quantity,
          price_data: {
            currency,
            unit_amount: line.unitAmountCents,
            product_data: { name: line.name },
            ...(recurring ? { recurring } : {}),
          },
        })),
        customer_email: input.customerEmail,
        client_reference_id: input.orderId,
        metadata,
        ...(plan
          ? {
              subscription_data: {
                metadata: {
                  ...metadata,
                  student_id: plan.studentId,
                  product_id: plan.productId,
                  product_price_id: plan.productPriceId,
                  plan_name: plan.planName.slice(0, 500),
                },
              },
            }
          : { payment_intent_data: { metadata } }),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      },
      // A retried call makes one session; a new link for the same order (a new expiry) makes another.
      { idempotencyKey: `checkout-${input.orderId}-${input.expiresAt.getTime()}` },
    );
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
    return { sessionId: session.id, url: session.url };
  }

  /** Expires an open Checkout Session (POST /v1/checkout/sessions/{id}/expire); one no longer open answers its state. */
  async expireCheckout(sessionId: string): Promise<CheckoutState['status']> {
    try {
      await this.notFoundAs(() => this.stripe.checkout.sessions.expire(sessionId), `No such checkout session: ${sessionId}`);
      return 'expired';
    } catch (error) {
      if (!(error instanceof stripeSdk().errors.StripeInvalidRequestError)) throw error;
      // Stripe refuses to expire a session that is complete or expired already: its state is the answer.
      const state = await this.retrieveCheckout(sessionId);
      if (state.status === 'open') throw error;
      return state.status;
    }
  }

  async retrieveCheckout(sessionId: string): Promise<CheckoutState> {
    const session = await this.notFoundAs(() => this.stripe.checkout.sessions.retrieve(sessionId), `No such checkout session: ${sessionId}`);
    const paid = session.status === 'complete' && session.payment_status === 'paid';
    const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    return {
      sessionId: session.id,
      status: paid ? 'paid' : session.status === 'expired' ? 'expired' : 'open',
      paymentIntentId: paid ? paymentIntent : null,
      amountTotalCents: session.amount_total ?? 0,
      orderId: session.client_reference_id ?? null,
      subscriptionId: typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null),
    };
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('A refund is a whole number of cents above 0');
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          amount: input.amountCents,
          reason: 'requested_by_customer',
          // The studio and order: refund.updated / refund.failed webhooks are attributed by these.
          metadata: {
            ...(input.reason ? { reason: input.reason.slice(0, 500) } : {}),
            ...(input.organizationId ? { organization_id: input.organizationId } : {}),
            ...(input.orderId ? { order_id: input.orderId } : {}),
            ...(input.ledgerRefundId ? { order_refund_id: input.ledgerRefundId } : {}),
          },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { refundId: refund.id, status: (refund.status ?? 'pending') as RefundResult['status'], amountCents: refund.amount };
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) {
        if (error.code && OVER_REFUND_CODES.has(error.code)) throw new OverRefundError(error.message);
        if (error.code === 'resource_missing') throw new PaymentNotFoundError(error.message);
      }
      throw error;
    }
  }

  async listRefunds(paymentIntentId: string): Promise<ProviderRefund[]> {
    const refunds = await this.notFoundAs(
      () => this.stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 }).autoPagingToArray({ limit: 10_000 }),
      `No such payment: ${paymentIntentId}`,
    );
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    // Stripe lists newest first; the same second keeps that order reversed.
    return [...refunds]
      .reverse()
      .map((r) => ({
        refundId: r.id,
        status: (r.status ?? 'pending') as ProviderRefund['status'],
        amountCents: r.amount,
        paymentIntentId,
        createdAt: new Date(r.created * 1000),
        reason: text(r.reason),
        failureReason: text(r.failure_reason),
        organizationId: text(r.metadata?.organization_id),
        orderId: text(r.metadata?.order_id),
        ledgerRefundId: text(r.metadata?.order_refund_id),
      }))
      .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
  }

  async receiptUrl(paymentIntentId: string): Promise<string | null> {
    const intent = await this.notFoundAs(
      () => this.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] }),
      `No such payment: ${paymentIntentId}`,
    );
    const charge = intent.latest_charge;
    return charge && typeof charge !== 'string' ? (charge.receipt_url ?? null) : null;
  }

  async listPaymentMethods(organizationId: string): Promise<PaymentMethodSummary[]> {
    const customer = await this.findCustomer(organizationId);
    if (!customer) return [];
    const list = await this.stripe.paymentMethods.list({ customer: customer.customerId, type: 'card', limit: 100 });
    return list.data
      .filter((m) => m.card)
      .map((m) => ({ id: m.id, brand: m.card!.brand, last4: m.card!.last4, expMonth: m.card!.exp_month, expYear: m.card!.exp_year }));
  }

  async createSetup(input: CreateSetupInput): Promise<{ url: string }> {
    const customerId = await this.customerFor(input.organizationId);
    const session = await this.stripe.checkout.sessions.create({
      mode: 'setup',
      customer: customerId,
      currency: 'usd',
      metadata: { organization_id: input.organizationId },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error(`Stripe answered setup session ${session.id} without a url`);
    return { url: session.url };
  }

  async cancelSubscription(providerSubscriptionId: string): Promise<SubscriptionCancelled> {
    const ended = (subscription: Stripe.Subscription): SubscriptionCancelled => ({
      providerSubscriptionId: subscription.id,
      cancelledAt: new Date((subscription.canceled_at ?? subscription.ended_at ?? Math.floor(Date.now() / 1000)) * 1000),
    });
    try {
      // Now, not at period end: no final invoice and no proration credit.
      return ended(await this.stripe.subscriptions.cancel(providerSubscriptionId, { invoice_now: false, prorate: false }));
    } catch (error) {
      if (!(error instanceof stripeSdk().errors.StripeInvalidRequestError)) throw error;
      // Stripe answers an ended subscription's cancel as missing ("No such subscription"), though it
      // can still be retrieved: when it ended elsewhere (the dashboard, unpaid), that end is the answer.
      const current = await this.notFoundAs(() => this.stripe.subscriptions.retrieve(providerSubscriptionId), `No such subscription: ${providerSubscriptionId}`);
      if (current.status === 'canceled' || current.status === 'incomplete_expired') return ended(current);
      throw error;
    }
  }

  private em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  private findCustomer(organizationId: string) {
    return this.em().findOne(StripeCustomer, { organizationId });
  }

  /** The studio's Stripe customer, created once (the idempotency key covers two first calls at once). */
  private async customerFor(organizationId: string): Promise<string> {
    const existing = await this.findCustomer(organizationId);
    if (existing) return existing.customerId;
    const customer = await this.stripe.customers.create({ metadata: { organization_id: organizationId } }, { idempotencyKey: `studio-customer-${organizationId}` });
    await this.em().getConnection().execute(
      `insert into "stripe_customer" ("organization_id", "customer_id") values (?, ?) on conflict ("organization_id") do nothing`,
      [organizationId, customer.id],
    );
    return (await this.findCustomer(organizationId))?.customerId ?? customer.id;
  }

  private async notFoundAs<T>(call: () => Promise<T>, message: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError && error.code === 'resource_missing') throw new PaymentNotFoundError(message);
      throw error;
    }
  }
}
