import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { StoredAnswer } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { Order } from './order.entity';

/**
 * A checkout form's answers given with an order at the store (issue 21): one row per order when
 * the course collects its form per order, one per ticket (numbered from 1) when per ticket. Each
 * answer keeps the field's label and the answer in words as they were when answered, so a later
 * change to the form does not rewrite what the buyer said.
 */
@Entity({ tableName: 'order_form_submission' })
@Index({ properties: ['order', 'ticket'] })
export class OrderFormSubmission {
  [OptionalProps]?: 'ticket' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Order;

  /** The ticket (seat) the answers are for, from 1; null for the order's one set. */
  @Property({ type: 'smallint', nullable: true })
  ticket?: number | null = null;

  @Property({ type: 'jsonb' })
  answers!: StoredAnswer[];

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
