import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { OrderLineKind } from '@studio/contracts';
import { Order } from './order.entity';

/** What an order sold: a seat in a session or a product, with its price, discount and loyalty points. */
@Entity({ tableName: 'order_line' })
export class OrderLine {
  [OptionalProps]?: 'eventId' | 'productId' | 'productPriceId' | 'quantity' | 'discountCents' | 'loyaltyPoints' | 'position';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Order;

  @Property({ type: 'smallint' })
  position: number = 0;

  @Property({ type: 'text' })
  kind!: OrderLineKind;

  /** The session of a seat line. */
  @Property({ type: 'uuid', nullable: true })
  eventId?: string | null;

  /** The product and the price it was sold at, for a product line. */
  @Property({ type: 'uuid', nullable: true })
  productId?: string | null;

  @Property({ type: 'uuid', nullable: true })
  productPriceId?: string | null;

  @Property({ type: 'text' })
  description!: string;

  @Property({ type: 'integer' })
  unitPriceCents!: number;

  @Property({ type: 'integer' })
  quantity: number = 1;

  @Property({ type: 'integer' })
  discountCents: number = 0;

  @Property({ type: 'integer' })
  loyaltyPoints: number = 0;

  /** A gift card's recipient (issue 24), as its buyer named them at the store; null on other lines. */
  @Property({ type: 'text', nullable: true })
  recipientName?: string | null;

  @Property({ type: 'text', nullable: true })
  recipientEmail?: string | null;

  @Property({ type: 'text', nullable: true })
  giftMessage?: string | null;
}
