import { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';

/** Seats taken per event: each active enrollment is one seat plus its guests. */
export async function seatsTaken(em: EntityManager, eventIds: string[]): Promise<Map<string, { seats: number; students: number }>> {
  const result = new Map<string, { seats: number; students: number }>();
  if (eventIds.length === 0) return result;
  const rows = await em.execute<{ event_id: string; seats: string; students: string }[]>(
    `select event_id, sum(1 + guest_count) as seats, count(*) as students
       from enrollment
      where status = 'active' and event_id in (${eventIds.map(() => '?').join(', ')})
      group by event_id`,
    eventIds,
  );
  for (const row of rows) result.set(row.event_id, { seats: Number(row.seats), students: Number(row.students) });
  return result;
}

/** A session locked for a seat change, with its capacity and seats read inside the lock. */
export interface LockedSeats {
  eventId: string;
  capacity: number;
  endsAt: Date;
  status: 'active' | 'cancelled';
  /** Students plus their guests. */
  seats: number;
  students: number;
}

/**
 * THE lock of every seat change: enroll, guests, capacity edit, deletion (and payment-link holds
 * when they come). Locks the session row (SELECT … FOR UPDATE) in the caller's transaction, then
 * reads the capacity and the seats taken inside the lock, so concurrent changes run one after the
 * other and each sees what the one before it committed. Another organization's session, or none,
 * is 404.
 */
export async function lockEventForSeats(em: EntityManager, ctx: RequestContext, eventId: string): Promise<LockedSeats> {
  if (!em.isInTransaction()) throw new Error('lockEventForSeats must run inside a transaction');
  const [row] = await em.execute<{ id: string; capacity: number; ends_at: Date; status: 'active' | 'cancelled' }[]>(
    `select id, capacity, ends_at, status from event where id = ? and organization_id = ? for update`,
    [eventId, ctx.organizationId],
  );
  if (!row) throw notFound('Event not found');
  const taken = (await seatsTaken(em, [row.id])).get(row.id) ?? { seats: 0, students: 0 };
  return { eventId: row.id, capacity: row.capacity, endsAt: new Date(row.ends_at), status: row.status, ...taken };
}
