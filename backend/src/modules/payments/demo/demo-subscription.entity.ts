import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** A subscription in the demo provider's ledger (dsub_...): nothing is ever charged. */
@Entity({ tableName: 'demo_subscription' })
export class DemoSubscription {
  [OptionalProps]?: 'createdAt' | 'canceledAt' | 'status' | 'currentPeriodEnd';

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  status: 'active' | 'canceled' = 'active';

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  canceledAt?: Date | null;

  /** Where the period paid for ends (a store subscription; the demo data's have none): the next renewal. */
  @Property({ type: 'timestamptz', nullable: true })
  currentPeriodEnd?: Date | null;
}
