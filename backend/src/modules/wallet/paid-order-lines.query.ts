import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProductGrant, RenewalIntervalUnit } from '@studio/contracts';

/**
 * A read join across modules (issue 24), for the wallet's grants on payment: a paid store order's
 * product lines that grant a pack or a gift card (orders' order and order_line, products'
 * product_price as the line was sold, the buyer's email from students and their name as typed for
 * the order (the student's on older orders: a stored name is never shown to whoever typed the
 * email, issue 31), the studio's name). It reads only; the wallet writes its own tables.
 */
export interface GrantingLineRow {
  order_id: string;
  order_number: number;
  order_status: string;
  student_id: string;
  buyer_first_name: string;
  buyer_last_name: string;
  buyer_email: string;
  organization_name: string;
  line_id: string;
  product_id: string;
  description: string;
  unit_price_cents: number;
  quantity: number;
  discount_cents: number;
  recipient_name: string | null;
  recipient_email: string | null;
  gift_message: string | null;
  grant_kind: Exclude<ProductGrant, 'none' | 'membership'>;
  pack_credits: number | null;
  pack_expires_after_quantity: number | null;
  pack_expires_after_unit: RenewalIntervalUnit | null;
  covers_activity_ids: string[] | null;
  covers_category_ids: number[] | null;
}

/** The pack and gift-card lines of a paid order of the organization, in line order; none when it is not paid. */
export async function grantingLines(em: EntityManager, organizationId: string, orderId: string): Promise<GrantingLineRow[]> {
  return em.execute<GrantingLineRow[]>(
    `select o.id as order_id, o.order_number, o.status as order_status, o.student_id,
            coalesce(o.buyer_first_name, s.first_name) as buyer_first_name,
            coalesce(o.buyer_last_name, s.last_name) as buyer_last_name, s.email as buyer_email,
            org.name as organization_name,
            l.id as line_id, l.product_id, l.description, l.unit_price_cents, l.quantity, l.discount_cents,
            l.recipient_name, l.recipient_email, l.gift_message,
            pp.grant_kind, pp.pack_credits, pp.pack_expires_after_quantity, pp.pack_expires_after_unit,
            pp.covers_activity_ids, pp.covers_category_ids
       from customer_order o
       join organization org on org.id = o.organization_id
       join student s on s.id = o.student_id
       join order_line l on l.order_id = o.id and l.kind = 'product'
       join product_price pp on pp.id = l.product_price_id
      where o.organization_id = ? and o.id = ? and o.status in ('paid', 'partial_refund') and pp.grant_kind in ('pack', 'giftCard')
      order by l.position, l.id`,
    [organizationId, orderId],
  );
}
