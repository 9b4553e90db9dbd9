/**
 * The seat rule in SQL: what counts as a taken seat (takenRows: seatsTaken, SEATS_TAKEN_LATERAL) and
 * the session's seat lock every seat change takes (lockEventForSeats, and lockEvent for a change
 * that only frees seats).
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';

/** Seats taken in one session: students with their guests, plus the seats payment links hold. */
export interface SeatsTaken {
  /** Everything that counts against capacity: enrolled students, their guests, held seats. */
  seats: number;
  /** Enrolled students. */
  students: number;
  /** Seats held by payment links not yet paid, cancelled or expired. */
  held: number;
}

/**
 * THE counting rule, as the rows that take seats in the sessions `eventFilter` picks (`in (…)` or
 * `= ?`, its placeholders once per table): each active enrollment is one seat plus its guests; each
 * live seat hold (unreleased, not expired) its seats. An expired hold stops counting at its expiry,
 * whether or not the expiry job has run yet. seatsTaken and SEATS_TAKEN_LATERAL both sum these rows.
 */
const takenRows = (eventFilter: string) => `
  select event_id, 1 + guest_count as seats, 1 as students, 0 as held
    from enrollment where status = 'active' and event_id ${eventFilter}
  union all
  select event_id, seats, 0, seats
    from seat_hold where released_at is null and expires_at > clock_timestamp() and event_id ${eventFilter}`;

/** Seats taken per event (takenRows). */
export async function seatsTaken(em: EntityManager, eventIds: string[]): Promise<Map<string, SeatsTaken>> {
  const result = new Map<string, SeatsTaken>();
  if (eventIds.length === 0) return result;
  const list = eventIds.map(() => '?').join(', ');
  const rows = await em.execute<{ event_id: string; seats: string; students: string; held: string }[]>(
    `select event_id, sum(seats) as seats, sum(students) as students, sum(held) as held
       from (${takenRows(`in (${list})`)}) taken
      group by event_id`,
    [...eventIds, ...eventIds],
  );
  for (const row of rows)
    result.set(row.event_id, {
      seats: Number(row.seats),
      students: Number(row.students),
      held: Number(row.held),
    });
  return result;
}

/**
 * seatsTaken of one session as a lateral subquery; its two `?` are the session's id, bound as a value
 * (not `ev.id`): the planner then uses the id's own statistics, so a table holding one session of a
 * million seats still reads this session's few rows by index, not the whole table under the seat lock.
 * Columns seats, students and held, null when nothing is taken. The same rows as seatsTaken (takenRows).
 */
export const SEATS_TAKEN_LATERAL = `
  cross join lateral (
    select sum(seats) as seats, sum(students) as students, sum(held) as held
      from (${takenRows('= ?')}) taken
  ) t`;

/** A session locked for a seat change, with its capacity and seats read inside the lock. */
export interface LockedSeats extends SeatsTaken, LockedEvent {}

/** The session row as the seat lock reads it: its capacity, end and status, read under the lock. */
export interface LockedEvent {
  eventId: string;
  capacity: number;
  endsAt: Date;
  status: 'active' | 'cancelled';
}

/**
 * THE lock of every seat change: enroll, guests, capacity edit, deletion, payment-link holds and
 * their conversion into enrollments. Locks the session row (SELECT … FOR UPDATE) in the caller's
 * transaction, then reads the capacity and the seats taken (held seats included) inside the lock, so
 * concurrent changes run one after the other and each sees what the one before it committed.
 * Another organization's session, or none, is 404. A change that only frees seats takes the same
 * row lock through lockEvent, without the seats read.
 *
 * The seats are read by a LATER statement than the lock's (a statement that waited for the lock
 * still sees the snapshot it started with): seatsTaken by default, or `readInside`, for a caller
 * that reads the seats with its other rules in one statement (enroll, enrollmentRulesQuery). What
 * readInside answers (the seats taken, and whatever else it read) joins the locked session's fields.
 */
export async function lockEventForSeats(
  em: EntityManager,
  ctx: Pick<RequestContext, 'organizationId'>,
  eventId: string,
): Promise<LockedSeats>;
export async function lockEventForSeats<R extends SeatsTaken>(
  em: EntityManager,
  ctx: Pick<RequestContext, 'organizationId'>,
  eventId: string,
  readInside: (locked: LockedEvent) => Promise<R>,
): Promise<LockedEvent & R>;
export async function lockEventForSeats(
  em: EntityManager,
  ctx: Pick<RequestContext, 'organizationId'>,
  eventId: string,
  readInside?: (locked: LockedEvent) => Promise<SeatsTaken>,
): Promise<LockedSeats> {
  const locked = await lockEvent(em, ctx, eventId);
  const taken = readInside
    ? await readInside(locked)
    : ((await seatsTaken(em, [locked.eventId])).get(locked.eventId) ?? { seats: 0, students: 0, held: 0 });
  return { ...locked, ...taken };
}

/**
 * The seat lock alone (the same row lock as lockEventForSeats), for a change that only frees seats
 * and so reads none: Remove student, a refund's removal, a sale released on another platform. One
 * statement. Another organization's session, or none, is 404.
 */
export async function lockEvent(em: EntityManager, ctx: Pick<RequestContext, 'organizationId'>, eventId: string): Promise<LockedEvent> {
  if (!em.isInTransaction()) throw new Error('The seat lock (lockEventForSeats, lockEvent) must run inside a transaction');
  const [row] = await em.execute<
    { id: string; capacity: number; ends_at: Date; status: 'active' | 'cancelled' }[]
  >(`select id, capacity, ends_at, status from event where id = ? and organization_id = ? for update`, [
    eventId,
    ctx.organizationId,
  ]);
  if (!row) throw notFound('Event not found');
  return { eventId: row.id, capacity: row.capacity, endsAt: new Date(row.ends_at), status: row.status };
}
