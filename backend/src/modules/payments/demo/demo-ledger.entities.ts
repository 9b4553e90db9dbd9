import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { CheckoutLine } from '../payments.port';

/*
 * The built-in demo provider's ledger (payments module only). Ids look like a provider's
 * (dcs_, dpi_, dre_, dpm_) so the orders module treats both adapters alike.
 */

export type DemoSessionStatus = 'open' | 'paid' | 'expired' | 'cancelled';

/** A demo payment page: a payment link (mode payment) or the page that saves a card (mode setup). */
@Entity({ tableName: 'demo_checkout_session' })
export class DemoCheckoutSession {
  [OptionalProps]?: 'createdAt' | 'completedAt' | 'paymentId' | 'status' | 'orderId' | 'customerEmail' | 'currency';

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

/** A refund against a demo payment; the idempotency key is unique, so a retried action refunds once. */
@Entity({ tableName: 'demo_refund' })
export class DemoRefund {
  [OptionalProps]?: 'createdAt' | 'reason';

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
