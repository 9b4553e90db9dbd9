import { EntityManager } from '@mikro-orm/postgresql';
import { SYNC_CONFLICT_MESSAGES as C, SYNC_CONFLICTS_SHOWN, SyncSaleConflict } from '@studio/contracts';
import { notFound } from '../../../../common/api-error';
import { isUuid } from '../../../../common/uuid-param.pipe';


/**
 * The Eventbrite sales held as conflicts (`sync_external_sale`, stage `conflict`) for the admin:
 * the newest first, at most `limit`, and how many there are.
 */
export async function readSaleConflicts(
  em: EntityManager,
  organizationId: string,
  limit = SYNC_CONFLICTS_SHOWN,
): Promise<{ conflicts: SyncSaleConflict[]; conflicts_total: number }> {
  const connection = em.getConnection();
  const [count] = await connection.execute<{ total: string }[]>(
    `select count(*) as total from sync_external_sale where organization_id = ? and stage = 'conflict'`,
    [organizationId],
  );
  const rows = await connection.execute<
    { id: string; remote_order_id: string; event_id: string | null; seats: number; buyer_email: string; last_error: string | null; created_at: Date }[]
  >(
    `select id, remote_order_id, event_id, seats, buyer_email, last_error, created_at from sync_external_sale
      where organization_id = ? and stage = 'conflict' order by created_at desc, id limit ?`,
    [organizationId, limit],
  );
  return {
    conflicts_total: Number(count?.total ?? 0),
    conflicts: rows.map((r) => ({
      id: r.id,
      remote_order_id: r.remote_order_id.slice(0, 100),
      event_id: r.event_id,
      seats: r.seats,
      buyer_email: r.buyer_email,
      message: (r.last_error ?? '').slice(0, 2000),
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
}

/**
 * The admin marks a conflict resolved (refunded or handled on Eventbrite): it leaves the panel's
 * list. The row stays, so the order is still known and a later webhook or poll does not bring the
 * sale back; it keeps its reason (`last_error`), who resolved it and when.
 * Another organization's id, an unknown one, or one that is not an open conflict answers 404.
 */
export async function resolveSaleConflict(
  em: EntityManager,
  organizationId: string,
  id: string,
  userId: string | null,
): Promise<void> {
  if (!isUuid(id)) throw notFound(C.notFound);
  const rows = await em.getConnection().execute<{ id: string }[]>(
    `update sync_external_sale set stage = 'resolved', resolved_at = now(), resolved_by = ?, updated_at = now()
      where id = ? and organization_id = ? and stage = 'conflict' returning id`,
    [userId, id, organizationId],
  );
  if (rows.length === 0) throw notFound(C.notFound);
}
