/**
 * The payment provider, as the orders module needs it (payment links, refunds, receipts, the
 * studio's payment methods on file). Two adapters: the built-in demo provider (the default, no keys,
 * no network) and Stripe (STRIPE_SECRET_KEY). The class is also the Nest injection token.
 *
 * Amounts are integer cents. Ids are the provider's (Stripe: cs_..., pi_..., re_...; demo: dcs_...,
 * dpi_..., dre_...): the orders module stores them as opaque strings.
 */

export type PaymentProviderName = 'demo' | 'stripe';

/** One line of a checkout: what the payer sees and pays. */
export interface CheckoutLine {
  name: string;
  unitAmountCents: number;
  quantity: number;
}

/**
 * A checkout that starts a subscription (Stripe Checkout in subscription mode): the one line is the
 * plan's price per interval, paid now for the first period; the provider then bills each period.
 */
export interface CheckoutSubscription {
  intervalUnit: 'days' | 'weeks' | 'months' | 'years';
  intervalCount: number;
  /** Kept by the provider with the subscription (Stripe: its metadata), so its events name these. */
  studentId: string;
  productId: string;
  productPriceId: string;
  planName: string;
}

export interface CreateCheckoutInput {
  organizationId: string;
  /** Our order; the provider keeps it as a reference (Stripe: client_reference_id and metadata). */
  orderId: string;
  lines: CheckoutLine[];
  customerEmail: string;
  /** Where the payer lands after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
  /** When the link stops working (Stripe accepts 30 minutes to 24 hours from now). */
  expiresAt: Date;
  /** ISO 4217, lower case; usd by default. */
  currency?: string;
  /** Set: the payment starts a subscription of this plan. */
  subscription?: CheckoutSubscription;
}

export interface CheckoutCreated {
  sessionId: string;
  /** The page to send the payer to (the payment link). */
  url: string;
}

/** open: not paid yet; paid: money captured; expired: the link ran out; cancelled: the payer cancelled (demo only). */
export type CheckoutStatus = 'open' | 'paid' | 'expired' | 'cancelled';

export interface CheckoutState {
  sessionId: string;
  status: CheckoutStatus;
  /** Set once paid: what refunds and receipts refer to. */
  paymentIntentId: string | null;
  amountTotalCents: number;
  /** Our order id, as given to createCheckout. */
  orderId: string | null;
  /** The subscription a paid subscription checkout started (Stripe: sub_...; demo: dsub_...), else null. */
  subscriptionId?: string | null;
}

export interface RefundInput {
  paymentIntentId: string;
  amountCents: number;
  /** One key per refund action: the same key twice refunds once and answers the first refund. */
  idempotencyKey: string;
  /** Free text, kept with the provider's refund. */
  reason?: string;
  /** Kept with the provider's refund (Stripe: metadata), so its later changes name the studio and order. */
  organizationId?: string;
  orderId?: string;
  /** Our refunds ledger row (Stripe: metadata order_refund_id): tells the refund's later changes which row they are of. */
  ledgerRefundId?: string;
}

export interface RefundResult {
  refundId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
  amountCents: number;
}

/** One refund of a payment as the provider lists it (what the refund reconciler compares with the ledger). */
export interface ProviderRefund extends RefundResult {
  paymentIntentId: string;
  createdAt: Date;
  /** The provider's reason (Stripe: requested_by_customer, duplicate, fraudulent), if any. */
  reason: string | null;
  failureReason: string | null;
  /** What the refund names (Stripe: its metadata), null for a refund made at the provider itself. */
  organizationId: string | null;
  orderId: string | null;
  ledgerRefundId: string | null;
}

export interface PaymentMethodSummary {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CreateSetupInput {
  organizationId: string;
  successUrl: string;
  cancelUrl: string;
}

export interface SubscriptionCancelled {
  providerSubscriptionId: string;
  cancelledAt: Date;
}

/** A refund larger than what is left to refund on the payment: refused by the provider, nothing moved. */
export class OverRefundError extends Error {
  readonly code = 'over_refund';
  constructor(message: string) {
    super(message);
  }
}

/** The provider does not know this payment, checkout session or organization record. */
export class PaymentNotFoundError extends Error {
  readonly code = 'payment_not_found';
}

export abstract class PaymentsPort {
  /** Which adapter answers: shown to admins (demo mode) and stored with orders. */
  abstract readonly provider: PaymentProviderName;

  /**
   * Creates a hosted payment page for an order (the payment link). Idempotent by the order and its
   * expiry: asked again (a retry, a resumed checkout) it answers the page it made, never a second one.
   */
  abstract createCheckout(input: CreateCheckoutInput): Promise<CheckoutCreated>;

  /**
   * Closes an open payment page so it can no longer be paid (Stripe: expires the Checkout Session).
   * Answers the page's state after the call: `expired` (closed now or before), or `paid` when the
   * payer was faster (the payment then arrives as usual and is matched or refunded). Throws
   * PaymentNotFoundError for an unknown page.
   */
  abstract expireCheckout(sessionId: string): Promise<CheckoutStatus>;

  /**
   * The checkout's state now. A link past its expiry answers `expired`. This is how the orders module
   * learns the outcome when it asks; the demo provider also announces it (see PaymentEvents), Stripe
   * through its webhooks.
   */
  abstract retrieveCheckout(sessionId: string): Promise<CheckoutState>;

  /**
   * Returns money from a captured payment. Throws OverRefundError when the amount is above what is
   * left, PaymentNotFoundError for an unknown payment. The same idempotency key never refunds twice:
   * a repeated key answers what its first call answered (the refund made, or the same refusal).
   * Call it outside any database transaction of ours: the provider commits on its own.
   */
  abstract refund(input: RefundInput): Promise<RefundResult>;

  /** Every refund of a captured payment, oldest first. Throws PaymentNotFoundError for an unknown payment. */
  abstract listRefunds(paymentIntentId: string): Promise<ProviderRefund[]>;

  /** The payer's receipt page for a captured payment, or null when the provider has none yet. */
  abstract receiptUrl(paymentIntentId: string): Promise<string | null>;

  /** The studio's payment methods on file (cards saved through createSetup). */
  abstract listPaymentMethods(organizationId: string): Promise<PaymentMethodSummary[]>;

  /** A page where the studio saves a payment method (Stripe Checkout in setup mode, or the demo page). */
  abstract createSetup(input: CreateSetupInput): Promise<{ url: string }>;

  /**
   * Cancels a subscription now, not at period end: no further invoice, no proration. Cancelling one
   * the provider already ended answers its end as well. Throws PaymentNotFoundError for an unknown id.
   */
  abstract cancelSubscription(providerSubscriptionId: string): Promise<SubscriptionCancelled>;
}
