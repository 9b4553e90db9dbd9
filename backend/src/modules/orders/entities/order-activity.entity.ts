import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { OrderActivityAction } from '@studio/contracts';
import { randomUUID } from 'node:crypto';

/**
 * One line of the money audit: a refund, a cancellation, a payment-link send (and what the provider
 * answered later). Append-only. `actorUserId` is null for what the provider or a job did.
 */
@Entity({ tableName: 'order_activity' })
@Index({ properties: ['organizationId', 'orderId', 'createdAt'] })
@Index({ properties: ['organizationId', 'subscriptionId', 'createdAt'] })
export class OrderActivity {
  [OptionalProps]?: 'createdAt' | 'orderId' | 'subscriptionId' | 'actorUserId' | 'amountCents' | 'detail';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  subscriptionId?: string | null;

  @Property({ type: 'text' })
  action!: OrderActivityAction;

  /** The admin who did it; null for the provider, a webhook or a job. */
  @Property({ type: 'uuid', nullable: true })
  actorUserId?: string | null;

  /** Money moved by the action (a refund's amount), in cents. */
  @Property({ type: 'integer', nullable: true })
  amountCents?: number | null;

  /** What else the history shows: a refund's reason, the e-mail a link went to, an error. */
  @Property({ type: 'text' })
  detail: string = '';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
