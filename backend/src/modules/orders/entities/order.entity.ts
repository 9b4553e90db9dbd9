import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { Student } from '../../students/student.entity';

export const ORDER_STATUSES = ['pending', 'failed', 'paid', 'refunded', 'partial_refund', 'fraudulent'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A purchase. Enrolling a student directly from the back office makes a zero-total order of source workbench. */
@Entity({ tableName: 'customer_order' })
export class Order {
  [OptionalProps]?: 'refundedCents' | 'createdAt' | 'eventId' | 'description';

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

  /** The session bought, for course orders. */
  @Property({ type: 'uuid', nullable: true })
  eventId?: string | null;

  @Property({ type: 'text' })
  description: string = '';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
