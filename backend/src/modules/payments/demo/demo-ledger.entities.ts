import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { CheckoutLine, CheckoutSubscription } from '../payments.port';

/*
 * The built-in demo provider's ledger (payments module only). Ids look like a provider's
 * (dcs_, dpi_, dre_, dpm_) so the orders module treats both adapters alike.
 */

export type DemoSessionStatus = 'open' | 'paid' | 'expired' | 'cancelled';

/** A demo payment page: a payment link (mode payment) or the page that saves a card (mode setup). */
@Entity({ tableName: 'demo_checkout_session' })
export class DemoCheckoutSession {
  [OptionalProps]?: 'createdAt' | 'completedAt' | 'paymentId' | 'status' | 'orderId' | 'customerEmail' | 'currency' | 'subscription' | 'subscriptionId';

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Property({ type: 'text' })
  mode!: 'payment' | 'setup';

  @Property({ type: 'text' })
  status: DemoSessionStatus = 'open';

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text' })
  currency: string = 'usd';

  @Property({ type: 'text', nullable: true })
  customerEmail?: string | null;

  @Property({ type: 'jsonb' })
  lines!: CheckoutLine[];

  @Property({ type: 'text' })
  successUrl!: string;

  @Property({ type: 'text' })
  cancelUrl!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'text', nullable: true })
  paymentId?: string | null;

  /** A subscription's first payment: the plan it starts (Stripe Checkout in subscription mode). */
  @Property({ type: 'jsonb', nullable: true })
  subscription?: CheckoutSubscription | null;

  /** The demo subscription the payment started. */
  @Property({ type: 'text', nullable: true })
  subscriptionId?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;
}

/** Money captured by the demo provider (none really moves). */
@Entity({ tableName: 'demo_payment' })
export class DemoPayment {
  [OptionalProps]?: 'createdAt' | 'refundedCents';

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  sessionId!: string;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'integer' })
  refundedCents: number = 0;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'text', nullable: true })
  customerEmail?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/** What a demo refund names, as Stripe's refund metadata: the studio, the order and its ledger row. */
export interface DemoRefundMetadata {
  organization_id?: string;
  order_id?: string;
  order_refund_id?: string;
}

/** A refund against a demo payment; the idempotency key is unique, so a retried action refunds once. */
@Entity({ tableName: 'demo_refund' })
export class DemoRefund {
  [OptionalProps]?: 'createdAt' | 'reason' | 'metadata';

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  paymentId!: string;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  @Property({ type: 'text', unique: true })
  idempotencyKey!: string;

  @Property({ type: 'jsonb' })
  metadata: DemoRefundMetadata = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/**
 * A refund the demo provider refused (more than what is left), kept under its idempotency key: the
 * same key answers the same refusal again, as Stripe replays a key's first answer.
 */
@Entity({ tableName: 'demo_refund_refusal' })
export class DemoRefundRefusal {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'text' })
  idempotencyKey!: string;

  @Property({ type: 'text' })
  paymentId!: string;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  message!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/** A card the studio "saved" on the demo setup page. */
@Entity({ tableName: 'demo_payment_method' })
export class DemoPaymentMethod {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  brand!: string;

  @Property({ type: 'text' })
  last4!: string;

  @Property({ type: 'integer' })
  expMonth!: number;

  @Property({ type: 'integer' })
  expYear!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
