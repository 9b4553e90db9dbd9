/**
 * The enrolment rules of one student in one session read in one statement (enrollmentRulesQuery),
 * and the seat lock with that read inside it (lockSeatsWithRules) that every seat taken for a
 * student goes through.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../common/request-context';
import { LockedEvent, lockEventForSeats, SEATS_TAKEN_LATERAL } from './seats';

/** What enrollRefusal needs of a session that a seat lock does not already answer, in one row. */
export interface EnrollmentRulesRow {
  /** Only when asked for (checkStudent): whether the organization has the student. */
  student_found?: boolean;
  /** Null when the organization has no such session. */
  id: string | null;
  name: string;
  price_cents: number;
  capacity: number;
  ends_at: Date;
  status: 'active' | 'cancelled';
  single_party: boolean | null;
  required_waiver_id: string | null;
  enrolled: boolean;
  /** The student holds a live seat through a payment link. */
  holding: boolean;
  seats: string;
  students: string;
  held: string;
}

/**
 * THE read of the enrolment rules of one student in one session, in one statement: the session
 * (its capacity, end, status, name and price), its course's rules (single party, required waiver),
 * whether the student already has a seat in it or a payment link's hold on one, and the seats taken (SEATS_TAKEN_LATERAL, the session's id
 * bound as a value so the planner reads its rows by index). Used inside the seat lock by
 * lockSeatsWithRules (SeatWriter.enroll, SeatHoldsService.hold and claimOfferHold: a later
 * statement than the lock's) and by SeatWriter.refusalBeforeLock without it, so a rule (seatRefusal) reads the same
 * in both. With checkStudent the row also tells whether the organization has the student.
 * Always one row: another organization's session, or none, answers `id` null.
 */
export function enrollmentRulesQuery(input: {
  organizationId: string;
  studentId: string;
  eventId: string;
  checkStudent: boolean;
}): { sql: string; params: unknown[] } {
  const { organizationId, studentId, eventId } = input;
  const studentFound = input.checkStudent
    ? `exists (select 1 from student s where s.id = ? and s.organization_id = ?) as student_found,`
    : '';
  return {
    sql: `select ${studentFound}
              ev.id, ev.name, ev.price_cents, ev.capacity, ev.ends_at, ev.status, a.single_party, a.required_waiver_id,
              exists (select 1 from enrollment e where e.event_id = ev.id and e.student_id = ? and e.status = 'active') as enrolled,
              exists (select 1 from seat_hold h where h.event_id = ev.id and h.student_id = ? and h.released_at is null and h.expires_at > clock_timestamp()) as holding,
              coalesce(t.seats, 0) as seats, coalesce(t.students, 0) as students, coalesce(t.held, 0) as held
         from (select 1) one
         left join event ev on ev.id = ? and ev.organization_id = ?
         left join activity a on a.id = ev.activity_id
         ${SEATS_TAKEN_LATERAL}`,
    params: [
      ...(input.checkStudent ? [studentId, organizationId] : []),
      studentId,
      studentId,
      eventId,
      organizationId,
      eventId,
      eventId,
    ],
  };
}

/** The seats taken of an EnrollmentRulesRow, as numbers (the sums come back as strings). */
export function rulesSeats(row: EnrollmentRulesRow): { seats: number; students: number; held: number } {
  return { seats: Number(row.seats), students: Number(row.students), held: Number(row.held) };
}

/** A session under its seat lock, with the rules of one student in it read inside the lock. */
export type LockedRules = LockedEvent & { seats: number; students: number; held: number; rules: EnrollmentRulesRow };

/**
 * THE seat lock of a seat taken for one student (enroll, a hold, a waitlist claim): the session's
 * row lock (lockEventForSeats), then enrollmentRulesQuery as one later statement inside it, so the
 * rules see what the seat change before this one committed. Two statements in all.
 */
export async function lockSeatsWithRules(
  em: EntityManager,
  ctx: Pick<RequestContext, 'organizationId'>,
  studentId: string,
  eventId: string,
): Promise<LockedRules> {
  return lockEventForSeats(em, ctx, eventId, async (event) => {
    const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId, eventId: event.eventId, checkStudent: false });
    const [row] = await em.execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
    return { ...rulesSeats(row), rules: row };
  });
}
