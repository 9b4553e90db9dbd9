import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { RenewalIntervalUnit, SubscriptionStatus } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { Student } from '../../students/student.entity';
import type { PaymentProviderName } from '../../payments/payments.port';

/**
 * A student's subscription to a subscription product: bought through checkout, or created from a
 * Stripe webhook. The plan (name, price, interval) is copied when it starts, as an order keeps its
 * price. Status only moves forward: active, then expired or cancelled.
 */
@Entity({ tableName: 'subscription' })
@Unique({ properties: ['provider', 'providerSubscriptionId'] })
@Index({ properties: ['organization', 'createdAt'] })
export class Subscription {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'orderId' | 'productId' | 'productPriceId' | 'currency' | 'currentPeriodEnd' | 'cancelledAt' | 'providerEventAt' | 'cancelRequestedAt' | 'cancelRequestedBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @ManyToOne(() => Student, { deleteRule: 'restrict' })
  student!: Student;

  /** The order it was bought with, when bought through checkout. */
  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  productId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  productPriceId?: string | null;

  @Property({ type: 'text' })
  planName!: string;

  /** Cents per interval. */
  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text' })
  currency: string = 'usd';

  @Property({ type: 'text' })
  intervalUnit!: RenewalIntervalUnit;

  @Property({ type: 'integer' })
  intervalCount!: number;

  @Property({ type: 'text' })
  provider!: PaymentProviderName;

  /** Stripe's sub_..., or the demo provider's dsub_.... */
  @Property({ type: 'text' })
  providerSubscriptionId!: string;

  @Property({ type: 'text' })
  status!: SubscriptionStatus;

  @Property({ type: 'timestamptz', nullable: true })
  currentPeriodEnd?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  /**
   * An admin's cancel under way (orders/subscription-cancel.ts): when it was asked and by whom,
   * recorded before the provider is asked and cleared with its answer. Null otherwise.
   */
  @Property({ type: 'timestamptz', nullable: true })
  cancelRequestedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  cancelRequestedBy?: string | null;

  /** `created` (Unix seconds) of the newest provider event applied: an older one never overwrites. */
  @Property({ type: 'bigint' })
  providerEventAt: number = 0;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
