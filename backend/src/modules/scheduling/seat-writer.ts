/**
 * THE writer of seats in sessions (issues 19, 33): the one place an enrollment row is inserted
 * (createSeat), removed (removeSeat), moved to another session (moveRows), its party resized
 * (setGuestCount), linked to its order (linkOrder) and its waiver status set (setWaiverStatus),
 * each publishing its enrollment.* announcement in the same transaction (the outbox). Also the seat
 * takings that need nothing but a seat lock: admin enroll (never oversold, seatRefusal under the
 * lock) with its refusal read before the lock, and sales on other platforms and their release.
 * Holds (SeatHoldsService), admin seat actions (SeatAdminService) and waitlist claims write their
 * seats through here.
 */
import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/domain-error';
import { RequestContext } from '../../common/request-context';
import { Student } from '../students/student.entity';
import { EnrollmentEvents } from './enrollment-events';
import { courseRules } from './enrollment-lookups.query';
import { EnrollmentRulesRow, enrollmentRulesQuery, lockSeatsWithRules, rulesSeats } from './enrollment-rules.query';
import { EnrollmentWaiverHooks } from './enrollment-waiver.hooks';
import { Enrollment, WaiverStatus } from './entities/enrollment.entity';
import { seatRefusal } from './seat-rules';
import { lockEvent, lockEventForSeats } from './seats';

/** An enrollment just removed, as its enrollment.removed announcement names it. */
export interface RemovedSeat {
  id: string;
  eventId: string;
  studentId: string;
}

/** A seat taken by enroll, committed with the caller's transaction. */
export interface EnrolledSeat {
  id: string;
  eventId: string;
  /** The session's name, as the order line describes the seat. */
  eventName: string;
  studentId: string;
  /** The waiver template the course requires (read under the seat lock), or null. */
  requiredWaiverId: string | null;
}

/** A seat row moveRows moves: the enrollment, its student, guests and order. */
export interface SeatToMove {
  id: string;
  student_id: string;
  guest_count: number;
  order_id: string | null;
}

@Injectable()
export class SeatWriter {
  constructor(
    private readonly em: EntityManager,
    private readonly events: EnrollmentEvents,
    private readonly waiverHooks: EnrollmentWaiverHooks,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes the session's seat lock, then checks the seats and inserts, in the caller's transaction:
   * concurrent seat changes on one session run one after the other, so the last seat is sold once.
   * Under the lock: the row lock, one read of everything the rules need (seats taken, the student's
   * seat if any, the course's rules, the session's name), then createSeat (the insert and its
   * outbox row, and first the waivers module's signed check when the course requires a waiver).
   */
  async enroll(ctx: RequestContext, em: EntityManager, studentId: string, eventId: string): Promise<EnrolledSeat> {
    const locked = await lockSeatsWithRules(em, ctx, studentId, eventId);
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
   * THE insert of a new seat, for every way one is taken (enroll, a sale on another platform, a paid
   * payment link's or waitlist claim's hold): the enrollment row, and its enrollment.created published
   * in the same transaction (the outbox). The caller holds the session's seat lock and has applied
   * its rules. A course that requires a waiver starts the seat's waiver as pending (signed when the
   * student already signed it: EnrollmentWaiverHooks); the waivers module moves it on.
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
    await this.events.publish(em, {
      type: 'enrollment.created',
      organizationId,
      enrollmentId: id,
      studentId: seat.studentId,
      eventId: seat.eventId,
      requiredWaiverId: seat.requiredWaiverId,
    });
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
  async refusalBeforeLock(ctx: Pick<RequestContext, 'organizationId'>, studentId: string, eventId: string): Promise<DomainError | null> {
    const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId, eventId, checkStudent: true });
    const [row] = await this.em.getConnection().execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
    if (!row.student_found) return new DomainError('not_found', { code: 'student_not_found', message: 'Student not found' });
    if (!row.id) return new DomainError('not_found', { code: 'event_not_found', message: 'Event not found' });
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
      await this.setGuestCount(em, existing, existing.guestCount + seats);
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
      await lockEvent(em, ctx, input.eventId); // it frees seats and reads none: the row lock alone
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
    if (enrollment.guestCount + 1 <= input.seats) return { outcome: 'removed', removed: await this.removeSeat(em, ctx.organizationId, enrollment) };
    await this.setGuestCount(em, enrollment, enrollment.guestCount - input.seats);
    return { outcome: 'released', removed: null };
  }

  /**
   * Marks an active enrollment removed (its seat and its guests' seats free again) and publishes
   * enrollment.removed in the same transaction (the outbox). The caller holds the session's seat
   * lock and read the enrollment inside it.
   */
  async removeSeat(em: EntityManager, organizationId: string, enrollment: Enrollment): Promise<RemovedSeat> {
    enrollment.status = 'removed';
    enrollment.removedAt = new Date();
    await em.flush();
    const removed = { id: enrollment.id, eventId: enrollment.event.id, studentId: enrollment.student.id };
    await this.events.publish(em, {
      type: 'enrollment.removed',
      organizationId,
      enrollmentId: removed.id,
      studentId: removed.studentId,
      eventId: removed.eventId,
    });
    return removed;
  }

  /** The party of an enrollment (its guests), under the session's seat lock the caller holds. */
  async setGuestCount(em: EntityManager, enrollment: Enrollment, guestCount: number): Promise<void> {
    enrollment.guestCount = guestCount;
    await em.flush();
  }

  /**
   * Moves the seats (each with its guests, check-in cleared) from `fromEventId` to `toEventId` in one
   * statement, and publishes enrollment.moved per seat in the same transaction. The caller holds
   * both sessions' seat locks and has applied the move's rules (SeatAdminService.moveSeats).
   */
  async moveRows(em: EntityManager, organizationId: string, seats: SeatToMove[], fromEventId: string, toEventId: string): Promise<void> {
    await em.execute(
      `update enrollment set event_id = ?, checked_in_at = null, checked_in_by = null where id in (${seats.map(() => '?').join(', ')}) and status = 'active'`,
      [toEventId, ...seats.map((s) => s.id)],
    );
    for (const seat of seats)
      await this.events.publish(em, { type: 'enrollment.moved', organizationId, enrollmentId: seat.id, studentId: seat.student_id, fromEventId, toEventId });
    // The entity manager may hold these enrollments: read again, they name the new session.
    for (const seat of seats) {
      const cached = em.getUnitOfWork().getById<Enrollment>(Enrollment.name, seat.id);
      if (cached) em.getUnitOfWork().unsetIdentity(cached);
    }
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
   * The seat's waiver status, as the waivers module reports it (signed, pending, expired). A course
   * without a waiver stays not_required. Another organization's enrollment is left alone.
   */
  async setWaiverStatus(organizationId: string, enrollmentId: string, status: Exclude<WaiverStatus, 'not_required'>): Promise<void> {
    await this.em.execute(
      `update enrollment set waiver_status = ? where id = ? and organization_id = ? and waiver_status <> 'not_required'`,
      [status, enrollmentId, organizationId],
    );
  }
}
