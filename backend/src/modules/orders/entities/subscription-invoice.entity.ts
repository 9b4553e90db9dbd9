import { Entity, Index, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentProviderName } from '../../payments/payments.port';

/**
 * One paid invoice of a subscription (its billing history). Keyed by the provider's ids, so an
 * invoice that arrives before its subscription (webhooks come in any order) still finds it later,
 * and the same invoice twice is one row.
 */
@Entity({ tableName: 'subscription_invoice' })
@Unique({ properties: ['provider', 'providerInvoiceId'] })
@Index({ properties: ['provider', 'providerSubscriptionId', 'paidAt'] })
export class SubscriptionInvoice {
  [OptionalProps]?: 'createdAt' | 'currency' | 'hostedInvoiceUrl';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  provider!: PaymentProviderName;

  @Property({ type: 'text' })
  providerSubscriptionId!: string;

  @Property({ type: 'text' })
  providerInvoiceId!: string;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text' })
  currency: string = 'usd';

  @Property({ type: 'timestamptz' })
  paidAt!: Date;

  /** The payer's invoice page (Stripe's hosted_invoice_url, or the demo receipt). */
  @Property({ type: 'text', nullable: true })
  hostedInvoiceUrl?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
