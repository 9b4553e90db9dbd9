import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A Stripe event whose signature was verified, once per event id (Stripe delivers at least once).
 * The queue job carries only the id and reads the event from here.
 */
@Entity({ tableName: 'stripe_webhook_event' })
export class StripeWebhookEvent {
  [OptionalProps]?: 'receivedAt' | 'processedAt';

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Property({ type: 'timestamptz' })
  stripeCreatedAt!: Date;

  @Property({ type: 'timestamptz' })
  receivedAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  processedAt?: Date | null;
}
