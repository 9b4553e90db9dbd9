import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { StudentDetailParts, StudentOrderRow, StudentOrdersSource } from '../students/student-detail-parts';

/** How many of a student's newest orders the student drawer lists. */
export const STUDENT_ORDERS_LIMIT = 50;

/**
 * The student drawer's Orders (spec 001 §3 new_orders): the student's newest orders with the
 * picture of their first line. The picture is a read-only join into the products and catalog
 * modules' image tables (product_image, activity_image, media), kept in this one query for speed.
 */
@Injectable()
export class StudentOrdersQuery implements StudentOrdersSource, OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly parts: StudentDetailParts,
  ) {}

  onModuleInit(): void {
    this.parts.registerOrders(this);
  }

  async recentOrders(ctx: RequestContext, studentId: string): Promise<StudentOrderRow[]> {
    const rows = await this.em.getConnection().execute<
      { id: string; order_number: number; created_at: Date; total_cents: number; status: string; description: string; image: string | null }[]
    >(
      `select o.id, o.order_number, o.created_at, o.total_cents, o.status, o.description,
              (select coalesce(
                        (select m.url from product_image pi join media m on m.id = pi.media_id
                          where pi.product_id = l.product_id order by pi.position limit 1),
                        (select m.url from event e join activity_image ai on ai.activity_id = e.activity_id
                           join media m on m.id = ai.media_id
                          where e.id = l.event_id order by ai.position limit 1))
                 from order_line l where l.order_id = o.id order by l.position, l.id limit 1) as image
         from customer_order o
        where o.organization_id = ? and o.student_id = ?
        order by o.created_at desc, o.id desc
        limit ?`,
      [ctx.organizationId, studentId, STUDENT_ORDERS_LIMIT],
    );
    return rows.map((r) => ({
      order_id: r.id,
      order_number: Number(r.order_number),
      created_at: new Date(r.created_at).toISOString(),
      total: Number(r.total_cents),
      status: r.status,
      image: r.image,
      subDescription: r.description,
    }));
  }
}
