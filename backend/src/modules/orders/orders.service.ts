import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { OrderLineKind, OrderStatus } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { StudentsService } from '../students/students.service';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';

/*
 * Orders as rows (issue 33 split the rest out of this file): the organization's order number, an
 * order recorded with its lines as it stands (the demo data), and the seat line that moves with a
 * booking. Direct enrolling lives in direct-enroll.service.ts, sales of other platforms in
 * external-sales.service.ts, the drawer's order in order-detail.service.ts and the Orders page in
 * order-list.query.ts.
 */

/** An order as recorded by `recordOrder`: the total is the sum of its lines. */
export interface RecordedOrder {
  studentId: string;
  status: OrderStatus;
  source: string;
  refundedCents?: number;
  paymentIntentId?: string | null;
  receiptUrl?: string | null;
  createdAt?: Date;
  lines: {
    kind: OrderLineKind;
    eventId?: string | null;
    productId?: string | null;
    productPriceId?: string | null;
    description: string;
    unitPriceCents: number;
    quantity?: number;
    discountCents?: number;
    loyaltyPoints?: number;
  }[];
}

@Injectable()
export class OrdersService {
  constructor(
    private readonly em: EntityManager,
    private readonly students: StudentsService,
  ) {}

  /** Next order number of the organization; the counter row serialises concurrent orders. */
  async nextOrderNumber(em: EntityManager, organizationId: string): Promise<number> {
    const [row] = await em.execute<{ last_number: number }[]>(
      `insert into order_counter (organization_id, last_number) values (?, 1001)
       on conflict (organization_id) do update set last_number = order_counter.last_number + 1
       returning last_number`,
      [organizationId],
    );
    return Number(row.last_number);
  }

  /**
   * Records an order with its lines as it stands (the demo data, and the synced orders later).
   * The number comes from the organization's counter.
   */
  async recordOrder(ctx: RequestContext, input: RecordedOrder) {
    return this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, input.studentId);
      const total = input.lines.reduce((sum, l) => sum + l.unitPriceCents * (l.quantity ?? 1) - (l.discountCents ?? 0), 0);
      const order = em.create(Order, {
        organization: em.getReference(Organization, ctx.organizationId),
        orderNumber: await this.nextOrderNumber(em, ctx.organizationId),
        student,
        status: input.status,
        source: input.source,
        totalCents: total,
        refundedCents: input.refundedCents ?? 0,
        eventId: input.lines.find((l) => l.kind === 'seat')?.eventId ?? null,
        description: input.lines.map((l) => l.description).join(', '),
        paymentIntentId: input.paymentIntentId ?? null,
        receiptUrl: input.receiptUrl ?? null,
        createdAt: input.createdAt ?? new Date(),
      });
      input.lines.forEach((line, position) => em.create(OrderLine, { ...line, order, position }));
      await em.flush();
      return order;
    });
  }

  /**
   * A booking moved to another session (issue 23: rescheduled, or moved by the studio): the payment
   * moves with it, so its order's seat line (and the order's session) name the new session, in the
   * caller's transaction (the one that moved the seat). Only the line that named the old session
   * moves; doing it twice changes nothing.
   */
  async moveBookingLine(
    em: EntityManager,
    organizationId: string,
    orderId: string,
    move: { fromEventId: string; toEventId: string; description: string },
  ): Promise<void> {
    const [order] = await em.execute<{ id: string }[]>(
      `update customer_order set event_id = ?, description = ?
        where id = ? and organization_id = ? and (event_id = ? or event_id = ?) returning id`,
      [move.toEventId, move.description, orderId, organizationId, move.fromEventId, move.toEventId],
    );
    if (!order) return;
    await em.execute(
      `update order_line set event_id = ?, description = ? where order_id = ? and kind = 'seat' and event_id = ?`,
      [move.toEventId, move.description, orderId, move.fromEventId],
    );
  }

  /** Gives every order of the organization that has a session and no line its seat line (orders made before lines existed). */
  async addMissingSeatLines(organizationId: string): Promise<void> {
    await this.em.execute(
      `insert into order_line (id, order_id, position, kind, event_id, description, unit_price_cents, quantity)
       select gen_random_uuid(), o.id, 0, 'seat', o.event_id, o.description, o.total_cents, 1
       from customer_order o
       where o.organization_id = ? and o.event_id is not null
         and not exists (select 1 from order_line l where l.order_id = o.id)`,
      [organizationId],
    );
  }
}
