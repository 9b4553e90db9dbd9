import { Entity, Index, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { RefundDestination, RefundOrigin } from '@studio/contracts';
import { randomUUID } from 'node:crypto';

/**
 * The refunds ledger: one row per refund made, here or at the provider itself (`origin`), with who
 * made it, why, and the provider's refund id.
 * An order's refunded amount is the sum of its rows (the refund keeps both in one transaction).
 * Its id is the idempotency key sent to the provider; `idempotencyKey` is the client's (the header of
 * the refund call), so a retried action finds its row and refunds once.
 */
@Entity({ tableName: 'order_refund' })
@Index({ properties: ['organizationId', 'orderId', 'createdAt'] })
/** A refund's change at the provider finds its row by the provider's refund id (migration webhook_lookup_indexes). */
@Index({ name: 'order_refund_provider_refund_index', properties: ['organizationId', 'providerRefundId'] })
@Unique({ properties: ['orderId', 'idempotencyKey'] })
/*
 * A provider refund is recorded once per studio from its webhooks: the partial unique index
 * order_refund_provider_once on (organization_id, provider_refund_id) where origin = 'provider'
 * (migration external_refunds).
 */
export class OrderRefund {
  [OptionalProps]?:
    'createdAt' | 'reason' | 'actorUserId' | 'providerRefundId' | 'status' | 'idempotencyKey' | 'origin' | 'enrollmentId' | 'appointmentId' | 'appointmentNotify' | 'failureMessage' | 'refundTo' | 'walletCents' | 'returnUse';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  orderId!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text' })
  reason: string = '';

  @Property({ type: 'uuid', nullable: true })
  actorUserId?: string | null;

  @Property({ type: 'text', nullable: true })
  providerRefundId?: string | null;

  /**
   * `requested`: recorded and its amount reserved on the order, the provider's answer not recorded
   * yet (being asked, or lost to a crash: the refund reconciler asks again with the same key). Then
   * the provider's answer: succeeded, pending while the bank processes it, or failed / canceled (its
   * amount is given back to the order).
   */
  @Property({ type: 'text' })
  status: string = 'succeeded';

  @Property({ type: 'text', nullable: true })
  idempotencyKey?: string | null;

  /**
   * `app`: made by this API (the drawer's refund, Remove student's); `provider`: made at the payment
   * provider itself (the Stripe dashboard) and recorded from its webhooks. A provider row's amount is
   * what it counted on the order (never beyond the order's total).
   */
  @Property({ type: 'text' })
  origin: RefundOrigin = 'app';

  /** Remove student's refund: the enrollment removed once the provider made the refund (in the same transaction). */
  @Property({ type: 'uuid', nullable: true })
  enrollmentId?: string | null;

  /** Remove student's refund on an appointment: the appointment cancelled once the provider made the refund (in the same transaction). */
  @Property({ type: 'uuid', nullable: true })
  appointmentId?: string | null;

  /** Whether the student is mailed when that appointment is cancelled (Remove student's notify). */
  @Property({ type: 'boolean' })
  appointmentNotify: boolean = true;

  /** Where the refund went: the card (asked of the provider) or the student's store credit (made at once). */
  @Property({ type: 'text' })
  refundTo: RefundDestination = 'card';

  /** The part that gift-card or store-credit money had paid: refunded first, to the wallet (refundSplit); the provider is asked for the rest. */
  @Property({ type: 'integer' })
  walletCents: number = 0;

  /** A removal's refund that also gives back the use (membership booking, pack credit) that covered the booking, when made. */
  @Property({ type: 'boolean' })
  returnUse: boolean = false;

  /** What the refund call answered when the provider refused it. */
  @Property({ type: 'text', nullable: true })
  failureMessage?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
