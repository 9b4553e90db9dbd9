import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** The Stripe customer that stands for a studio (its payment methods on file hang from it). */
@Entity({ tableName: 'stripe_customer' })
export class StripeCustomer {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  customerId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
