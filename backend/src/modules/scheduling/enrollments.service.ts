import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { ATTENDANCE_MESSAGES, Attendance, attendanceOf, SCHEDULING_MESSAGES as M, SESSION_CANCEL_MESSAGES, type OrderStatus } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Student } from '../students/student.entity';
import { likeEscape } from '../students/students.service';
import { SORT_SQL } from './enrollment-columns';
import { EnrollmentQuery } from './enrollment-query';
import { EnrollmentWaiverHooks } from './enrollment-waiver.hooks';
import { EnrollmentEvents } from './enrollment-events';
import { WalletService } from '../wallet/wallet.service';
import { SessionEvents } from './session-events';
import { Enrollment, WaiverStatus } from './entities/enrollment.entity';
import { Event } from './entities/event.entity';
import { SeatHold } from './entities/seat-hold.entity';
import { heldSeats } from './held-seats.query';
import { checkInAssignments } from './check-in.sql';
import { EnrollmentRemovalHooks, RemovalRefund } from './enrollment-removal.hooks';
import { EnrollmentRulesRow, enrollmentRulesQuery, rulesSeats } from './enrollment-rules.query';
import { lockEventForSeats } from './seats';
import { seatRefusal } from './seat-rules';
import { AppointmentsService } from './appointments.service';
import { paidWithSql } from './appointment-view.query';
import { Clock } from '../../common/clock';

export interface EnrollmentRow {
  enrollment_id: string;
  student_id: string;
  created_at: Date;
  guest_count: number;
  waiver_status: WaiverStatus;
  order_id: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  user_id: string | null;
  order_number: number | null;
  total_cents: number | null;
  /** What was refunded of the seat's order, and the order's status (refunded, partially_refunded, …). */
  refunded_cents: number | null;
  order_status: OrderStatus | null;
  checked_in_at: Date | null;
  /** The membership or class pack the seat was booked on (issue 24), or null. */
  paid_with: string | null;
}

/** An enrollment's check-in as PUT/DELETE …/check-in answer it. */
export interface CheckIn {
  enrollment_id: string;
  checked_in_at: string | null;
  attendance: Attendance;
}

/** An enrollment just removed, as its enrollment.removed announcement names it. */
export interface RemovedSeat {
  id: string;
  eventId: string;
  studentId: string;
}

/** A seat moved to another session by EnrollmentsService.moveSeats. */
export interface MovedSeat {
  id: string;
  studentId: string;
  /** The order that paid the seat, whose line moves with it. */
  orderId: string | null;
  partySize: number;
  fromEventId: string;
  toEventId: string;
  /** The new session's name, as the order line describes the seat. */
  toEventName: string;
}

/** A seat taken by EnrollmentsService.enroll, committed with the caller's transaction. */
export interface EnrolledSeat {
  id: string;
  eventId: string;
  /** The session's name, as the order line describes the seat. */
  eventName: string;
  studentId: string;
  /** The waiver template the course requires (read under the seat lock), or null. */
  requiredWaiverId: string | null;
}

/** Builds the WHERE clause of the enrollments grid and export for one event. */
export function enrollmentWhere(
  organizationId: string,
  eventId: string,
  query: Pick<EnrollmentQuery, 'search' | 'filter'>,
) {
  const clauses = [`e.organization_id = ?`, `e.event_id = ?`, `e.status = 'active'`];
  const params: unknown[] = [organizationId, eventId];
  let readsStudent = false;
  const search = query.search?.toLowerCase();
  if (search) {
    clauses.push(`lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`);
    params.push(`%${likeEscape(search)}%`);
    readsStudent = true;
  }
  const f = query.filter;
  for (const [column, sql] of [
    ['first_name', 's.first_name'],
    ['last_name', 's.last_name'],
    ['email', 's.email'],
    ['phone', 's.phone'],
  ] as const) {
    const value = f[column]?.trim().toLowerCase();
    if (value) {
      // Name and email filters also match the indexed search expression, so the trigram index narrows them.
      if (column !== 'phone') {
        clauses.push(`lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`);
        params.push(`%${likeEscape(value)}%`);
      }
      clauses.push(`lower(${sql}) like ?`);
      params.push(`%${likeEscape(value)}%`);
      readsStudent = true;
    }
  }
  if (f.waiverStatus) {
    clauses.push(`e.waiver_status = ?`);
    params.push(f.waiverStatus);
  }
  if (f.guestCount !== undefined) {
    clauses.push(`e.guest_count = ?`);
    params.push(f.guestCount);
  }
  // attendanceOf in SQL: checked in, or not checked in before / after the session's end.
  if (f.attendance === 'checked_in') clauses.push(`e.checked_in_at is not null`);
  else if (f.attendance)
    clauses.push(
      `e.checked_in_at is null and ${f.attendance === 'no_show' ? '' : 'not '}exists (select 1 from event ev where ev.id = e.event_id and ev.ends_at <= now())`,
    );
  return { sql: clauses.join(' and '), params, readsStudent };
}

export const ENROLLMENT_SELECT = `
  select e.id as enrollment_id, e.student_id, e.created_at, e.guest_count, e.waiver_status, e.order_id, e.checked_in_at,
         s.first_name, s.last_name, s.email, s.phone, s.user_id,
         o.order_number, o.total_cents, o.refunded_cents, o.status as order_status, ${paidWithSql('enrollment', 'e')}
    from enrollment e
    join student s on s.id = e.student_id
    left join customer_order o on o.id = e.order_id`;

/** Whether the session's course takes a single party (read from the course the session belongs to). */
export async function isSingleParty(em: EntityManager, eventId: string): Promise<boolean> {
  return (await courseRules(em, eventId)).singleParty;
}

/** The session's course rules read at enrolment: a single party, and the waiver it requires (if any). */
export async function courseRules(
  em: EntityManager,
  eventId: string,
): Promise<{ singleParty: boolean; requiredWaiverId: string | null }> {
  const [row] = await em.execute<{ single_party: boolean; required_waiver_id: string | null }[]>(
    'select a.single_party, a.required_waiver_id from event e join activity a on a.id = e.activity_id where e.id = ?',
    [eventId],
  );
  return { singleParty: Boolean(row?.single_party), requiredWaiverId: row?.required_waiver_id ?? null };
}

export interface HeldSeat {
  holdId: string;
  /** The session as it was when the seat was held (inside the lock): the order's line. */
  eventName: string;
  priceCents: number;
}

/** What became of a hold when its order was paid. */
export type HoldConversion =
  | { outcome: 'enrolled'; enrollmentId: string }
  | { outcome: 'already_enrolled'; enrollmentId: string }
  /** The order paid for an appointment (issue 22): the held appointment is booked now. */
  | { outcome: 'appointment_booked'; appointmentId: string }
  | { outcome: 'no_hold' };

/**
 * THE writer of seats in sessions (issue 19): enroll (never oversold), sales on other platforms and
 * their release, payment links' holds and their conversion, removal and guests, each under the
 * session's seat lock with one set of rules (seatRefusal) and one way a seat is written (createSeat,
 * which publishes enrollment.created in the same transaction). Also the enrollments' lists.
 */
@Injectable()
export class EnrollmentsService {
  constructor(
    private readonly em: EntityManager,
    private readonly removalHooks: EnrollmentRemovalHooks,
    private readonly events: EnrollmentEvents,
    private readonly waiverHooks: EnrollmentWaiverHooks,
    private readonly appointments: AppointmentsService,
    private readonly sessionEvents: SessionEvents,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes the session's seat lock, then checks the seats and inserts, in the caller's transaction:
   * concurrent seat changes on one session run one after the other, so the last seat is sold once.
   * Three statements under the lock: the row lock, one read of everything the rules need (seats
   * taken, the student's seat if any, the course's rules, the session's name) and the insert.
   */
  async enroll(
    ctx: RequestContext,
    em: EntityManager,
    studentId: string,
    eventId: string,
  ): Promise<EnrolledSeat> {
    const locked = await lockEventForSeats(em, ctx, eventId, async (event) => {
      // A later statement than the lock's: it sees what the seat change before this one committed.
      const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId, eventId: event.eventId, checkStudent: false });
      const [row] = await em.execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
      return { ...rulesSeats(row), rules: row };
    });
    const row = locked.rules;
    // A direct enrolment is not refused by the student's own waiting payment link: the seat is taken
    // now, and the link's payment then finds it (HoldConversion already_enrolled).
    const refusal = seatRefusal({ ...locked, alreadyEnrolled: row.enrolled, alreadyHolding: false, singleParty: Boolean(row.single_party) }, this.clock.nowMs());
    if (refusal) throw refusal;
    const requiredWaiverId = row.required_waiver_id ?? null;
    const id = await this.createSeat(em, ctx.organizationId, { eventId: locked.eventId, studentId, requiredWaiverId });
    return { id, eventId: locked.eventId, eventName: row.name, studentId, requiredWaiverId };
  }

  /**
   * THE writer of a new seat, for every way one is taken (enroll, a sale on another platform, a paid
   * payment link's hold): the enrollment row, and its enrollment.created published in the same
   * transaction (the outbox). The caller holds the session's seat lock and has applied seatRefusal.
   * A course that requires a waiver starts the seat's waiver as pending (signed when the student
   * already signed it: EnrollmentWaiverHooks); the waivers module moves it on.
   */
  async createSeat(
    em: EntityManager,
    organizationId: string,
    seat: { eventId: string; studentId: string; requiredWaiverId: string | null; guestCount?: number; orderId?: string | null },
  ): Promise<string> {
    const id = randomUUID();
    // A student who already signed the course's waiver (in the store's checkout, or for an earlier
    // seat) starts signed: the waivers module then links that signature and mails nothing.
    const waiverStatus = !seat.requiredWaiverId
      ? 'not_required'
      : (await this.waiverHooks.alreadySigned(em, organizationId, seat.studentId, seat.requiredWaiverId))
        ? 'signed'
        : 'pending';
    try {
      await em.execute(
        `insert into enrollment (id, organization_id, event_id, student_id, guest_count, status, waiver_status, order_id, created_at)
         values (?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
        [id, organizationId, seat.eventId, seat.studentId, seat.guestCount ?? 0, waiverStatus, seat.orderId ?? null, new Date()],
      );
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new ApiError(HttpStatus.CONFLICT, M.alreadyEnrolled);
      throw error;
    }
    await this.announceCreated(em, organizationId, { id, eventId: seat.eventId, studentId: seat.studentId, requiredWaiverId: seat.requiredWaiverId });
    return id;
  }

  /**
   * The refusal an enrolment would get, read WITHOUT the seat lock, in one query: so a full session
   * (or a finished one, or a student already in it) is answered at once, without a transaction or a
   * wait on the lock. It may only refuse, never admit: when it finds nothing to refuse, the caller
   * still goes through enroll(), which decides inside the lock. A refusal seen here is one a locked
   * read at this instant would also give (seats only come back when someone removes a seat).
   * The same query answers "Student not found" first when the organization has no such student:
   * the one read of the students module's table here, so that every attempt costs one round trip.
   */
  async refusalBeforeLock(ctx: Pick<RequestContext, 'organizationId'>, studentId: string, eventId: string): Promise<ApiError | null> {
    const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId, eventId, checkStudent: true });
    const [row] = await this.em.getConnection().execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
    if (!row.student_found) return notFound('Student not found');
    if (!row.id) return notFound('Event not found');
    return seatRefusal({
      status: row.status,
      endsAt: new Date(row.ends_at),
      capacity: row.capacity,
      ...rulesSeats(row),
      alreadyEnrolled: row.enrolled,
      alreadyHolding: false,
      singleParty: Boolean(row.single_party),
    }, this.clock.nowMs());
  }

  /**
   * A sale made on another platform (Eventbrite) for `seats` seats: the buyer and guests. Takes the
   * same seat lock as every seat change and reads the capacity inside it. It never oversells: when
   * the seats are not left it answers `overbooked` and writes nothing, so the caller records the
   * conflict for the admin. A sale for a removed session answers `gone`.
   */
  async enrollExternal(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    student: Student,
    eventId: string,
    seats: number,
  ): Promise<{ kind: 'enrolled'; enrollment: Enrollment } | { kind: 'overbooked'; seatsLeft: number } | { kind: 'gone' }> {
    let locked;
    try {
      locked = await lockEventForSeats(em, ctx, eventId);
    } catch {
      return { kind: 'gone' };
    }
    if (locked.status !== 'active') return { kind: 'gone' };
    const seatsLeft = Math.max(0, locked.capacity - locked.seats);
    if (seats > seatsLeft) return { kind: 'overbooked', seatsLeft };
    const rules = await courseRules(em, eventId);
    const existing = await em.findOne(Enrollment, { event: eventId, student: student.id, status: 'active' });
    if (existing) {
      // The same buyer again: their party grows by the seats bought.
      existing.guestCount += seats;
      await em.flush();
      // The caller names the order after the session (a bare reference has no name).
      await em.populate(existing, ['event']);
      return { kind: 'enrolled', enrollment: existing };
    }
    const id = await this.createSeat(em, ctx.organizationId, { eventId, studentId: student.id, requiredWaiverId: rules.requiredWaiverId, guestCount: seats - 1 });
    const enrollment = await em.findOneOrFail(Enrollment, { id }, { populate: ['event'] });
    return { kind: 'enrolled', enrollment };
  }

  /**
   * Gives back the seats of a sale made on another platform that was refunded or cancelled there,
   * under the session's seat lock (the lock enrolment takes). `claim` runs inside the lock first:
   * the caller's own check and change (its order not refunded yet, now marked refunded); when it
   * answers false nothing is released, so the same refund twice changes nothing. Then the buyer's
   * party shrinks by `seats`, and their enrollment is removed when no seat of it is left. A session
   * removed meanwhile, or a seat the admin already removed, leaves nothing to release.
   */
  async releaseExternal(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    input: { eventId: string; studentId: string; seats: number },
    claim: () => Promise<boolean>,
  ): Promise<{ outcome: 'released' | 'removed' | 'nothing_held' | 'not_claimed'; removed: RemovedSeat | null }> {
    let locked = true;
    try {
      await lockEventForSeats(em, ctx, input.eventId);
    } catch {
      locked = false; // the session is gone: no seat to give back
    }
    if (!(await claim())) return { outcome: 'not_claimed', removed: null };
    if (!locked) return { outcome: 'nothing_held', removed: null };
    const enrollment = await em.findOne(
      Enrollment,
      { event: input.eventId, student: input.studentId, organization: ctx.organizationId, status: 'active' },
      { refresh: true },
    );
    if (!enrollment) return { outcome: 'nothing_held', removed: null };
    if (enrollment.guestCount + 1 <= input.seats) {
      enrollment.status = 'removed';
      enrollment.removedAt = new Date();
      await em.flush();
      const removed = { id: enrollment.id, eventId: input.eventId, studentId: input.studentId };
      await this.announceRemoved(em, ctx.organizationId, removed);
      return { outcome: 'removed', removed };
    }
    enrollment.guestCount -= input.seats;
    await em.flush();
    return { outcome: 'released', removed: null };
  }

  /**
   * Links an enrollment to the order that paid its seat: the one writer of `enrollment.order_id`
   * (the orders module calls it in its own transaction, once the order row exists). With
   * `keepExisting`, an enrollment already linked keeps its order (a buyer's second external sale
   * grows the party of the first). Answers whether the link was written.
   */
  async linkOrder(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    enrollmentId: string,
    orderId: string,
    options: { keepExisting?: boolean } = {},
  ): Promise<boolean> {
    // One statement, scoped to the organization (the caller may hold the order counter's lock).
    const linked = await em.execute<{ id: string }[]>(
      `update enrollment set order_id = ? where id = ? and organization_id = ?${options.keepExisting ? ' and order_id is null' : ''} returning id`,
      [orderId, enrollmentId, ctx.organizationId],
    );
    if (linked.length) return true;
    if (options.keepExisting && (await em.count(Enrollment, { id: enrollmentId, organization: ctx.organizationId }))) return false;
    throw notFound('Enrollment not found');
  }

  /**
   * enrollment.created, published in the transaction that wrote the seat (the outbox): it commits
   * with the seat or not at all. Called by createSeat only, never by the callers of the seat changes.
   */
  private async announceCreated(
    em: EntityManager,
    organizationId: string,
    seat: { id: string; eventId: string; studentId: string; requiredWaiverId: string | null },
  ): Promise<void> {
    await this.events.publish(em, {
      type: 'enrollment.created',
      organizationId,
      enrollmentId: seat.id,
      studentId: seat.studentId,
      eventId: seat.eventId,
      requiredWaiverId: seat.requiredWaiverId,
    });
  }

  /**
   * The seat's waiver status, as the waivers module reports it (signed, pending, expired). A course
   * without a waiver stays not_required. Another organization's enrollment is left alone.
   */
  async setWaiverStatus(
    organizationId: string,
    enrollmentId: string,
    status: Exclude<WaiverStatus, 'not_required'>,
  ): Promise<void> {
    await this.em.execute(
      `update enrollment set waiver_status = ? where id = ? and organization_id = ? and waiver_status <> 'not_required'`,
      [status, enrollmentId, organizationId],
    );
  }

  async requireEventId(ctx: RequestContext, eventId: string): Promise<void> {
    if (!(await this.em.count(Event, { id: eventId, organization: ctx.organizationId })))
      throw notFound('Event not found');
  }

  /** One page of a session's enrollments: search, filters and sort in SQL, on indexes. */
  async list(ctx: RequestContext, eventId: string, query: EnrollmentQuery) {
    const where = enrollmentWhere(ctx.organizationId, eventId, query);
    const order = SORT_SQL[query.sortField](query.sortOrder);
    const connection = this.em.getConnection();
    // The session check runs beside the page and the count (one round trip, not two); the page
    // reads only the caller's organization, so another organization's session answers 404 and shows nothing.
    const [found, rows, [count], held] = await Promise.all([
      connection.execute<{ ends_at: Date }[]>(`select ends_at from event where id = ? and organization_id = ?`, [eventId, ctx.organizationId]),
      // Naming the students' organization lets a sort by name walk the student name index in order.
      connection.execute<EnrollmentRow[]>(
        `${ENROLLMENT_SELECT} where ${where.sql} and s.organization_id = ? order by ${order} limit ? offset ?`,
        [...where.params, ctx.organizationId, query.limit, (query.page - 1) * query.limit],
      ),
      // The count joins students only when the search or a filter reads them.
      connection.execute<{ total: string }[]>(
        `select count(*) as total from enrollment e${where.readsStudent ? ' join student s on s.id = e.student_id' : ''} where ${where.sql}`,
        where.params,
      ),
      // The seats held but not enrolled (payment links, waitlist offers, store checkouts): they count
      // against capacity, so the grid names them.
      heldSeats(connection, ctx.organizationId, eventId),
    ]);
    if (found.length === 0) throw notFound('Event not found');
    return { rows, total: Number(count.total), endsAt: new Date(found[0].ends_at), held };
  }

  /**
   * Checks the student in (issue 23), or with `checkedIn` false undoes it. Idempotent: checking in
   * again keeps the first time and admin; undoing twice leaves it undone. Another organization's
   * enrollment is 404; a removed one is 409.
   */
  async setCheckIn(ctx: RequestContext, enrollmentId: string, checkedIn: boolean): Promise<CheckIn> {
    const set = checkInAssignments(checkedIn, ctx.userId, 'e');
    const params = set.params;
    const [row] = await this.em.getConnection().execute<{ checked_in_at: Date | null; ends_at: Date }[]>(
      `update enrollment e set ${set.sql}
         from event ev
        where ev.id = e.event_id and e.id = ? and e.organization_id = ? and e.status = 'active'
        returning e.checked_in_at, ev.ends_at`,
      [...params, enrollmentId, ctx.organizationId],
    );
    if (!row) {
      const [other] = await this.em.getConnection().execute<{ status: string }[]>(
        `select status from enrollment where id = ? and organization_id = ?`,
        [enrollmentId, ctx.organizationId],
      );
      if (!other) throw notFound('Enrollment not found');
      throw new ApiError(HttpStatus.CONFLICT, ATTENDANCE_MESSAGES.checkInRemoved);
    }
    return {
      enrollment_id: enrollmentId,
      checked_in_at: row.checked_in_at ? new Date(row.checked_in_at).toISOString() : null,
      attendance: attendanceOf(row.checked_in_at, row.ends_at),
    };
  }

  /**
   * Frees the seat (and its guests' seats) under the session's seat lock; the order stays. With a
   * refund, the orders module's refund handler refunds the order and removes the enrollment in the
   * transaction that records the provider's refund (removeRefunded): a refused refund leaves the
   * student enrolled.
   */
  async remove(ctx: RequestContext, enrollmentId: string, refund?: RemovalRefund, options: { returnUse?: boolean } = {}): Promise<void> {
    if (refund) {
      const { orderId } = await this.removalContext(ctx, enrollmentId);
      await this.removalHooks.refund(ctx, { enrollmentId, orderId }, { ...refund, returnUse: options.returnUse });
      return;
    }
    await this.em.transactional(async (em) => {
      const enrollment = await this.lockedEnrollment(em, ctx, enrollmentId);
      enrollment.status = 'removed';
      enrollment.removedAt = new Date();
      await em.flush();
      // Issue 24: the membership booking or pack credit that covered the seat comes back with the removal.
      if (options.returnUse)
        await this.wallet.returnBookingUse(ctx.organizationId, { enrollmentId }, { actorUserId: ctx.userId || undefined }, em as EntityManager);
      await this.announceRemoved(em, ctx.organizationId, { id: enrollment.id, eventId: enrollment.event.id, studentId: enrollment.student.id });
    });
  }

  /**
   * Takes the seat lock of the enrollment's session in `em`'s transaction (before the order's row
   * lock, the order every removal with a refund locks in). Answers false when the enrollment is not
   * active in the organization any more.
   */
  async lockSeatOf(em: EntityManager, organizationId: string, enrollmentId: string): Promise<boolean> {
    const [target] = await em.execute<{ event_id: string }[]>(
      `select event_id from enrollment where id = ? and organization_id = ? and status = 'active'`,
      [enrollmentId, organizationId],
    );
    if (!target) return false;
    await lockEventForSeats(em, { organizationId }, target.event_id);
    return true;
  }

  /**
   * Remove student's refund was made at the provider: the enrollment is removed in `em`'s
   * transaction (the one recording the refund), under its session's seat lock, and
   * enrollment.removed published in it. One already removed stays as it is (answers false).
   */
  async removeRefunded(em: EntityManager, organizationId: string, enrollmentId: string): Promise<boolean> {
    if (!(await this.lockSeatOf(em, organizationId, enrollmentId))) return false;
    const enrollment = await em.findOne(Enrollment, { id: enrollmentId, organization: organizationId, status: 'active' }, { refresh: true });
    if (!enrollment) return false;
    enrollment.status = 'removed';
    enrollment.removedAt = new Date();
    await em.flush();
    await this.announceRemoved(em, organizationId, { id: enrollment.id, eventId: enrollment.event.id, studentId: enrollment.student.id });
    return true;
  }

  /**
   * THE move of seats between two sessions of one course (issue 23: a reschedule, Modify booking,
   * Move students), in the caller's transaction: both sessions' seat locks, taken in the order of
   * their ids (two moves in opposite directions never deadlock), then every rule read inside them:
   * the enrollments active in `fromEventId`, the target of the same course, active and not started,
   * nobody already in it, and room for every party moved together (all or nothing: `noRoom` names
   * the refusal, given the seats needed and left). Each seat moves with its guests, and
   * enrollment.moved is published per seat in the same transaction. Another organization's session
   * or enrollment is 404.
   */
  async moveSeats(
    em: EntityManager,
    organizationId: string,
    input: {
      fromEventId: string;
      toEventId: string;
      /** The enrollments to move; 'all' for every active one of the session. */
      enrollmentIds: string[] | 'all';
      noRoom: (needed: number, left: number) => ApiError;
      refuse: { sameSession: string; otherCourse: string; targetGone: string; alreadyThere: string; nobody: string };
    },
  ): Promise<MovedSeat[]> {
    if (!em.isInTransaction()) throw new Error('moveSeats must run inside a transaction');
    if (input.fromEventId === input.toEventId) throw new ApiError(HttpStatus.CONFLICT, input.refuse.sameSession, { event_id: input.refuse.sameSession });
    const ctx = { organizationId };
    const [first, second] = [input.fromEventId, input.toEventId].sort();
    const lockedFirst = await lockEventForSeats(em, ctx, first);
    const lockedSecond = await lockEventForSeats(em, ctx, second);
    const to = lockedFirst.eventId === input.toEventId ? lockedFirst : lockedSecond;
    const events = await em.execute<{ id: string; activity_id: string; starts_at: Date; name: string }[]>(
      `select id, activity_id, starts_at, name from event where id in (?, ?) and organization_id = ?`,
      [input.fromEventId, input.toEventId, organizationId],
    );
    const from = events.find((e) => e.id === input.fromEventId)!;
    const target = events.find((e) => e.id === input.toEventId)!;
    if (from.activity_id !== target.activity_id) throw new ApiError(HttpStatus.CONFLICT, input.refuse.otherCourse, { event_id: input.refuse.otherCourse });
    if (to.status !== 'active' || new Date(target.starts_at).getTime() <= this.clock.nowMs())
      throw new ApiError(HttpStatus.CONFLICT, input.refuse.targetGone, { event_id: input.refuse.targetGone });
    const seats = await em.execute<{ id: string; student_id: string; guest_count: number; order_id: string | null }[]>(
      input.enrollmentIds === 'all'
        ? `select id, student_id, guest_count, order_id from enrollment where event_id = ? and organization_id = ? and status = 'active' order by created_at, id`
        : `select id, student_id, guest_count, order_id from enrollment where event_id = ? and organization_id = ? and status = 'active' and id in (${input.enrollmentIds.map(() => '?').join(', ')}) order by created_at, id`,
      input.enrollmentIds === 'all' ? [input.fromEventId, organizationId] : [input.fromEventId, organizationId, ...input.enrollmentIds],
    );
    if (input.enrollmentIds !== 'all' && seats.length !== new Set(input.enrollmentIds).size) throw notFound('Enrollment not found');
    if (seats.length === 0) throw new ApiError(HttpStatus.CONFLICT, input.refuse.nobody);
    const [already] = await em.execute<{ n: string }[]>(
      `select count(*) as n from enrollment where event_id = ? and status = 'active' and student_id in (${seats.map(() => '?').join(', ')})`,
      [input.toEventId, ...seats.map((s) => s.student_id)],
    );
    if (Number(already.n) > 0) throw new ApiError(HttpStatus.CONFLICT, input.refuse.alreadyThere, { event_id: input.refuse.alreadyThere });
    const needed = seats.reduce((sum, s) => sum + 1 + Number(s.guest_count), 0);
    const left = Math.max(0, to.capacity - to.seats);
    if (needed > left) throw input.noRoom(needed, left);
    await em.execute(
      `update enrollment set event_id = ?, checked_in_at = null, checked_in_by = null where id in (${seats.map(() => '?').join(', ')}) and status = 'active'`,
      [input.toEventId, ...seats.map((s) => s.id)],
    );
    const moved: MovedSeat[] = [];
    for (const seat of seats) {
      await this.events.publish(em, {
        type: 'enrollment.moved',
        organizationId,
        enrollmentId: seat.id,
        studentId: seat.student_id,
        fromEventId: input.fromEventId,
        toEventId: input.toEventId,
      });
      moved.push({ id: seat.id, studentId: seat.student_id, orderId: seat.order_id, partySize: 1 + Number(seat.guest_count), fromEventId: input.fromEventId, toEventId: input.toEventId, toEventName: target.name });
    }
    // The entity manager may hold these enrollments: read again, they name the new session.
    for (const seat of seats) {
      const cached = em.getUnitOfWork().getById<Enrollment>(Enrollment.name, seat.id);
      if (cached) em.getUnitOfWork().unsetIdentity(cached);
    }
    return moved;
  }

  /** enrollment.removed, published in the transaction that removed the seat (the outbox). */
  private async announceRemoved(em: EntityManager, organizationId: string, seat: RemovedSeat): Promise<void> {
    await this.events.publish(em, {
      type: 'enrollment.removed',
      organizationId,
      enrollmentId: seat.id,
      studentId: seat.studentId,
      eventId: seat.eventId,
    });
  }

  /**
   * The student's active enrollments (in the organization) whose course requires this waiver
   * template: what the waivers module asks before withdrawing a request.
   */
  async activeRequiringWaiver(organizationId: string, studentId: string, templateId: string): Promise<string[]> {
    const rows = await this.em.execute<{ id: string }[]>(
      `select e.id
         from enrollment e join event ev on ev.id = e.event_id join activity a on a.id = ev.activity_id
        where e.organization_id = ? and e.student_id = ? and e.status = 'active' and a.required_waiver_id = ?`,
      [organizationId, studentId, templateId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * What the Remove student refund needs of an active enrollment of the caller's organization: its
   * order, the session's start and the course's cancellation policy. Another organization's is 404.
   */
  async removalContext(
    ctx: RequestContext,
    enrollmentId: string,
  ): Promise<{ orderId: string | null; startsAt: Date; cancelPolicyId: number }> {
    const [row] = await this.em.execute<
      { order_id: string | null; starts_at: Date; cancel_policy_id: number }[]
    >(
      `select e.order_id, ev.starts_at, a.cancel_policy_id
         from enrollment e join event ev on ev.id = e.event_id join activity a on a.id = ev.activity_id
        where e.id = ? and e.organization_id = ? and e.status = 'active'`,
      [enrollmentId, ctx.organizationId],
    );
    if (!row) throw notFound('Enrollment not found');
    return {
      orderId: row.order_id,
      startsAt: new Date(row.starts_at),
      cancelPolicyId: Number(row.cancel_policy_id),
    };
  }

  /** The active enrollment an order paid for (the store's confirmation links its manage page), or null. */
  async activeForOrder(organizationId: string, orderId: string): Promise<string | null> {
    const [row] = await this.em.getConnection().execute<{ id: string }[]>(
      `select id from enrollment where organization_id = ? and order_id = ? and status = 'active' order by created_at limit 1`,
      [organizationId, orderId],
    );
    return row?.id ?? null;
  }

  /** Guests take seats too: refused when the session has not enough left. */
  async setGuests(ctx: RequestContext, enrollmentId: string, guestCount: number): Promise<Enrollment> {
    return this.em.transactional(async (em) => {
      const { enrollment, seats } = await this.lockedEnrollmentWithSeats(em, ctx, enrollmentId);
      // Capacity and seats were read inside the lock, and so was this enrollment's own guest count.
      const free = seats.capacity - (seats.seats - enrollment.guestCount - 1);
      if (guestCount + 1 > free) {
        const message = M.notEnoughSeats(Math.max(0, free - 1));
        throw new ApiError(HttpStatus.CONFLICT, message, { guestCount: message });
      }
      enrollment.guestCount = guestCount;
      await em.flush();
      return enrollment;
    });
  }

  private async lockedEnrollment(
    em: EntityManager,
    ctx: RequestContext,
    enrollmentId: string,
  ): Promise<Enrollment> {
    return (await this.lockedEnrollmentWithSeats(em, ctx, enrollmentId)).enrollment;
  }

  /**
   * An active enrollment of the caller's organization, read after its session's seat lock is
   * taken (a concurrent change to it has committed by then).
   */
  private async lockedEnrollmentWithSeats(em: EntityManager, ctx: RequestContext, enrollmentId: string) {
    const where = { id: enrollmentId, organization: ctx.organizationId, status: 'active' as const };
    const [target] = await em.execute<{ event_id: string }[]>(
      `select event_id from enrollment where id = ? and organization_id = ? and status = 'active'`,
      [enrollmentId, ctx.organizationId],
    );
    if (!target) throw notFound('Enrollment not found');
    const seats = await lockEventForSeats(em, ctx, target.event_id);
    const enrollment = await em.findOne(Enrollment, where, { refresh: true });
    if (!enrollment) throw notFound('Enrollment not found');
    return { enrollment, seats };
  }

  // The seats payment links hold: each change in the caller's transaction under the session's seat
  // lock, and a live hold counts as a taken seat in every seat change (seatsTaken).

  /**
   * Holds one seat for the student until `expiresAt`. Refused as a direct enroll is: another
   * organization's session (404), a cancelled one (409), an ended session, a student already enrolled or
   * already holding a link for it, a single-party session taken, no seat left (409).
   */
  async hold(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    input: {
      student: Student;
      eventId: string;
      orderId: string;
      expiresAt: Date;
      /** Seats of the party (the student and their guests); 1 by default. */
      seats?: number;
      /** The refusal when the party does not fit, given the seats left (the store says how many). */
      full?: (seatsLeft: number) => ApiError;
      /**
       * The store's refusal when the student already has a seat or a live hold in the session
       * (issue 31): asked after every rule that would refuse anyone, in words that name no one.
       */
      ownBooking?: () => ApiError;
    },
  ): Promise<HeldSeat> {
    // The seat lock, then everything the rules read in one statement, as enroll() does.
    const locked = await lockEventForSeats(em, ctx, input.eventId, async (event) => {
      const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId: input.student.id, eventId: event.eventId, checkStudent: false });
      const [row] = await em.execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
      return { ...rulesSeats(row), rules: row };
    });
    const row = locked.rules;
    const seats = input.seats ?? 1;
    const own = Boolean(input.ownBooking);
    const refusal = seatRefusal({
      ...locked,
      seatsAsked: seats,
      alreadyEnrolled: own ? false : row.enrolled,
      alreadyHolding: own ? false : row.holding,
      singleParty: Boolean(row.single_party),
    }, this.clock.nowMs());
    if (refusal && input.full && refusal.message === M.sessionFull)
      throw input.full(Math.max(0, locked.capacity - locked.seats));
    if (refusal) throw refusal;
    if (input.ownBooking && (row.enrolled || row.holding)) throw input.ownBooking();
    const hold = em.create(SeatHold, {
      organizationId: ctx.organizationId,
      eventId: input.eventId,
      studentId: input.student.id,
      orderId: input.orderId,
      expiresAt: input.expiresAt,
      seats,
    });
    await em.flush();
    return { holdId: hold.id, eventName: row.name, priceCents: Number(row.price_cents) };
  }

  /**
   * Stops the order's hold from counting (the link was cancelled or expired). Nothing when none is
   * live. The seats it gave back are announced (session.seats_released, in the caller's transaction)
   * so the waitlist offers them.
   */
  async releaseHold(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, orderId: string): Promise<boolean> {
    const released = await em.execute<{ event_id: string; waitlist_entry_id: string | null }[]>(
      `update seat_hold set released_at = now()
        where order_id = ? and organization_id = ? and released_at is null
        returning event_id, waitlist_entry_id`,
      [orderId, ctx.organizationId],
    );
    for (const hold of released)
      await this.sessionEvents.publish(em, {
        type: 'session.seats_released',
        organizationId: ctx.organizationId,
        eventId: hold.event_id,
        waitlistEntryId: hold.waitlist_entry_id ?? null,
      });
    // An appointment the order held (issue 22): its time is free again.
    const appointmentReleased = await this.appointments.releaseForOrder(ctx, em, orderId);
    return released.length > 0 || appointmentReleased;
  }

  // A waitlist offer's seats (issue 23): held for the party offered them, with no order or student
  // until the claim's checkout names them; each under the session's seat lock, which the caller holds.

  /**
   * Holds `seats` seats of the session for a waitlist entry until `expiresAt`. The caller holds the
   * session's seat lock and has checked that the seats are free (capacity minus seats taken).
   */
  async holdForOffer(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    input: { eventId: string; waitlistEntryId: string; seats: number; expiresAt: Date },
  ): Promise<string> {
    if (!em.isInTransaction()) throw new Error('holdForOffer must run under the seat lock, inside a transaction');
    const id = randomUUID();
    await em.execute(
      `insert into seat_hold (id, organization_id, event_id, student_id, order_id, waitlist_entry_id, seats, expires_at, created_at)
       values (?, ?, ?, null, null, ?, ?, ?, now())`,
      [id, ctx.organizationId, input.eventId, input.waitlistEntryId, input.seats, input.expiresAt],
    );
    return id;
  }

  /**
   * Whether a waitlist offer's hold still counts (unreleased and unexpired), and whether a checkout
   * has claimed it (it names an order).
   */
  async offerHoldState(em: EntityManager, organizationId: string, holdId: string): Promise<{ live: boolean; claimed: boolean } | null> {
    const [row] = await em.execute<{ live: boolean; claimed: boolean }[]>(
      `select (released_at is null and expires_at > clock_timestamp()) as live, order_id is not null as claimed
         from seat_hold where id = ? and organization_id = ?`,
      [holdId, organizationId],
    );
    return row ? { live: Boolean(row.live), claimed: Boolean(row.claimed) } : null;
  }

  /**
   * Ends an unclaimed waitlist offer's hold (it ran out, or the admin removed the entry): its seats
   * stop counting now. The caller holds the seat lock and offers the seats next. Answers whether
   * the hold still counted.
   */
  async endOfferHold(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, holdId: string): Promise<boolean> {
    const [row] = await em.execute<{ live: boolean }[]>(
      `update seat_hold set released_at = coalesce(released_at, now())
        where id = ? and organization_id = ? and order_id is null
        returning (expires_at > clock_timestamp()) as live`,
      [holdId, ctx.organizationId],
    );
    return Boolean(row?.live);
  }

  /**
   * The checkout of a waitlist claim takes over the offer's hold (no new hold: the seats stay the
   * claimant's throughout): under the session's seat lock the live, unclaimed hold gets the order,
   * the buyer and the payment window (`expiresAt`). Refused as a hold is when the buyer is already
   * enrolled or holding seats in the session (409); an offer no longer live is 410 "This offer has ended".
   */
  async claimOfferHold(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    input: { holdId: string; eventId: string; student: Student; orderId: string; expiresAt: Date; ended: () => ApiError },
  ): Promise<HeldSeat & { seats: number }> {
    const locked = await lockEventForSeats(em, ctx, input.eventId, async (event) => {
      const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId: input.student.id, eventId: event.eventId, checkStudent: false });
      const [row] = await em.execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
      return { ...rulesSeats(row), rules: row };
    });
    const row = locked.rules;
    if (locked.status !== 'active') throw notFound('Event not found');
    if (locked.endsAt.getTime() <= this.clock.nowMs()) throw new ApiError(HttpStatus.CONFLICT, M.eventFinished);
    if (row.enrolled) throw new ApiError(HttpStatus.CONFLICT, M.alreadyEnrolled);
    const [hold] = await em.execute<{ seats: number }[]>(
      `update seat_hold set order_id = ?, student_id = ?, expires_at = greatest(expires_at, ?)
        where id = ? and organization_id = ? and event_id = ? and order_id is null
          and released_at is null and expires_at > clock_timestamp()
        returning seats`,
      [input.orderId, input.student.id, input.expiresAt, input.holdId, ctx.organizationId, input.eventId],
    );
    if (!hold) throw input.ended();
    return { holdId: input.holdId, eventName: row.name, priceCents: Number(row.price_cents), seats: Number(hold.seats) };
  }

  /**
   * The order was paid: its held seat becomes the student's enrollment (linked to the order), in the
   * caller's transaction under the seat lock. A live hold already counts, so the swap never
   * oversells and always succeeds. A hold that ran out meanwhile (a payment completed just as the
   * link expired) needs a free seat like any enroll: without one this throws the 409 "session full".
   */
  async convertHold(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    orderId: string,
    options: {
      /** An appointment booked now gets its own confirmation mail (a payment link's; a store order has the store's). */
      confirmAppointment?: boolean;
    } = {},
  ): Promise<HoldConversion> {
    const found = await em.findOne(SeatHold, { orderId, organizationId: ctx.organizationId });
    if (!found?.studentId) {
      // An order for an appointment (issue 22) holds a time, not a seat: booked now, or the 409 of
      // a hold that ran out (its time may be someone else's).
      const appointment = await this.appointments.bookForOrder(ctx, em, orderId, { confirm: options.confirmAppointment ?? false });
      return appointment ? { outcome: 'appointment_booked', appointmentId: appointment.id } : { outcome: 'no_hold' };
    }
    const seats = await lockEventForSeats(em, ctx, found.eventId);
    const hold = await em.findOneOrFail(SeatHold, { id: found.id }, { refresh: true });
    const live = !hold.releasedAt && hold.expiresAt.getTime() > Date.now();
    if (seats.status === 'cancelled') {
      // The studio cancelled the session (issue 23): a payment that completes now books nothing
      // (the payment links' settlement refunds it in full).
      hold.releasedAt ??= new Date();
      await em.flush();
      throw new ApiError(HttpStatus.CONFLICT, SESSION_CANCEL_MESSAGES.sessionCancelled);
    }
    const studentId = hold.studentId ?? found.studentId;
    const existing = await em.findOne(Enrollment, {
      event: hold.eventId,
      student: studentId,
      status: 'active',
    });
    hold.releasedAt ??= new Date();
    if (existing) {
      await em.flush();
      return { outcome: 'already_enrolled', enrollmentId: existing.id };
    }
    if (!live && seats.seats + hold.seats > seats.capacity)
      throw new ApiError(HttpStatus.CONFLICT, M.sessionFull);
    await em.flush();
    const { requiredWaiverId } = await courseRules(em, hold.eventId);
    // The seat is written by scheduling's one seat writer, linked to the order that paid it.
    // The party the hold kept: the student and their guests.
    const enrollmentId = await this.createSeat(em, ctx.organizationId, {
      eventId: hold.eventId,
      studentId,
      requiredWaiverId,
      orderId,
      guestCount: hold.seats - 1,
    });
    return { outcome: 'enrolled', enrollmentId };
  }
}

export function mapEnrollmentRow(row: EnrollmentRow, endsAt: Date, now: Date = new Date()) {
  return {
    enrollment_id: row.enrollment_id,
    student_id: row.student_id,
    created_at: new Date(row.created_at).toISOString(),
    checked_in_at: row.checked_in_at ? new Date(row.checked_in_at).toISOString() : null,
    attendance: attendanceOf(row.checked_in_at, endsAt, now),
    guestCount: row.guest_count,
    waiverStatus: row.waiver_status,
    Student: {
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      phone: row.phone,
      User: row.user_id ? { user_id: row.user_id } : null,
    },
    GuestEnrollments: Array.from({ length: row.guest_count }, (_, i) => ({ guest_number: i + 1 })),
    Order: row.order_id
      ? {
          order_id: row.order_id,
          order_number: row.order_number,
          totalPrice: row.total_cents ?? 0,
          refundedPrice: row.refunded_cents ?? 0,
          status: row.order_status ?? 'paid',
        }
      : null,
    paid_with: row.paid_with ?? null,
  };
}
