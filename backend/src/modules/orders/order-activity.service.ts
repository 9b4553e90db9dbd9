import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ORDER_ACTIVITY_ACTIONS, type OrderActivityAction } from '@studio/contracts';
import { z } from 'zod';
import { actorName, ActorNameColumns, actorNameSql } from '../identity/actor-name';
import { OrderActivity } from './entities/order-activity.entity';

/** One history line as the order and subscription drawers show it. */
export const orderActivityOut = z.object({
  activity_id: z.uuid(),
  action: z.enum(ORDER_ACTIVITY_ACTIONS),
  amount: z.number().int().nullable().describe('cents moved by the action (a refund), else null'),
  detail: z.string(),
  actor: z.string().nullable().describe("the admin's name, or null for the payment provider or a job"),
  created_at: z.string(),
});
export type OrderActivityOut = z.infer<typeof orderActivityOut>;

export interface ActivityEntry {
  organizationId: string;
  orderId?: string | null;
  subscriptionId?: string | null;
  action: OrderActivityAction;
  /** The admin (RequestContext.userId), or null for the provider or a job. */
  actorUserId?: string | null;
  amountCents?: number | null;
  detail?: string;
}

/** The money audit: written in the same transaction as the change it records, read by the drawers. */
@Injectable()
export class OrderActivityService {
  constructor(private readonly em: EntityManager) {}

  /** Records one action with `em` (the caller's transaction, so the audit and the change commit together). */
  record(em: EntityManager, entry: ActivityEntry): OrderActivity {
    return em.create(OrderActivity, {
      organizationId: entry.organizationId,
      orderId: entry.orderId ?? null,
      subscriptionId: entry.subscriptionId ?? null,
      action: entry.action,
      actorUserId: entry.actorUserId ?? null,
      amountCents: entry.amountCents ?? null,
      detail: entry.detail ?? '',
    });
  }

  /** The history of one order or one subscription, oldest first, with the admins' names. The admins' names come from the read-only join to app_user of identity/actor-name, in this one query. */
  async list(organizationId: string, of: { orderId: string } | { subscriptionId: string }): Promise<OrderActivityOut[]> {
    const column = 'orderId' in of ? 'a.order_id' : 'a.subscription_id';
    const id = 'orderId' in of ? of.orderId : of.subscriptionId;
    const actor = actorNameSql('a.actor_user_id');
    const rows = await this.em.getConnection().execute<
      ({ id: string; action: OrderActivityAction; amount_cents: number | null; detail: string; created_at: Date } & ActorNameColumns)[]
    >(
      `select a.id, a.action, a.amount_cents, a.detail, ${actor.columns}, a.created_at
         from order_activity a ${actor.join}
        where a.organization_id = ? and ${column} = ?
        order by a.created_at, a.id`,
      [organizationId, id],
    );
    return rows.map((r) => ({
      activity_id: r.id,
      action: r.action,
      amount: r.amount_cents === null ? null : Number(r.amount_cents),
      detail: r.detail,
      actor: actorName(r),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }
}
