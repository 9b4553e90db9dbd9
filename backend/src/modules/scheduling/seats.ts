import { EntityManager } from '@mikro-orm/postgresql';

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
