import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { Student } from '../../students/student.entity';
import type { OrderStatus } from '@studio/contracts';

/**
 * A purchase. Enrolling a student directly from the back office makes a zero-total order of source
 * workbench; a store order also keeps the buyer as typed for it.
 */
@Entity({ tableName: 'customer_order' })
export class Order {
  [OptionalProps]?: 'refundedCents' | 'createdAt' | 'eventId' | 'description' | 'paymentIntentId' | 'receiptUrl' | 'checkoutSessionId' | 'checkoutUrl' | 'checkoutRequestHash' | 'linkExpiresAt' | 'accessTokenHash' | 'discountCodeId' | 'walletCents' | 'buyerFirstName' | 'buyerLastName' | 'buyerEmail';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  /** Human number, increasing inside the organization. */
  @Property({ type: 'integer' })
  orderNumber!: number;

  @ManyToOne(() => Student, { deleteRule: 'restrict' })
  student!: Student;

  @Property({ type: 'text' })
  status!: OrderStatus;

  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'integer' })
  totalCents!: number;

  @Property({ type: 'integer' })
  refundedCents: number = 0;

  /** What the buyer's gift cards and store credit paid of the total (issue 24): the card pays the rest. */
  @Property({ type: 'integer' })
  walletCents: number = 0;

  /** The session bought, for course orders. */
  @Property({ type: 'uuid', nullable: true })
  eventId?: string | null;

  @Property({ type: 'text' })
  description: string = '';

  /** The payment provider's payment intent, once a payment was started. */
  @Property({ type: 'text', nullable: true })
  paymentIntentId?: string | null;

  /** The provider's receipt page of the charge, once paid. */
  @Property({ type: 'text', nullable: true })
  receiptUrl?: string | null;

  /** The payment link's checkout session (Stripe cs_..., demo dcs_...), for a link sent from Add student. */
  @Property({ type: 'text', nullable: true })
  checkoutSessionId?: string | null;

  /** The page the payer opens (the provider's checkout url), recorded with checkoutSessionId while the order is pending. */
  @Property({ type: 'text', nullable: true })
  checkoutUrl?: string | null;

  /**
   * A store checkout's request, hashed (SHA-256 of its canonical body): the same request again (a
   * retry after a lost answer, with the same or another Idempotency-Key) resumes this pending order
   * and its page instead of holding more seats.
   */
  @Property({ type: 'text', nullable: true })
  checkoutRequestHash?: string | null;

  /** When the payment link, and the seat it holds, run out. */
  @Property({ type: 'timestamptz', nullable: true })
  linkExpiresAt?: Date | null;

  /** The selling provider's order id, for an order sold elsewhere (source eventbrite): unique per source. */
  @Property({ type: 'text', nullable: true })
  externalId?: string | null;

  /** SHA-256 (hex) of the store order's secret token, the buyer's key to its page; null otherwise. */
  @Property({ type: 'text', nullable: true })
  accessTokenHash?: string | null;

  /** The discount code the store priced the order with. */
  @Property({ type: 'uuid', nullable: true })
  discountCodeId?: string | null;

  /**
   * The buyer as typed in the store's checkout for this order (issue 31): its page and confirmation
   * greet them, never the stored student's name (the email may be someone else's). Null on orders
   * made elsewhere and on store orders before these were kept (they show the student's).
   */
  @Property({ type: 'text', nullable: true })
  buyerFirstName?: string | null;

  @Property({ type: 'text', nullable: true })
  buyerLastName?: string | null;

  /** The email as typed for this order (the student is found by it, case-insensitive). */
  @Property({ type: 'text', nullable: true })
  buyerEmail?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
