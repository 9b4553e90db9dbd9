/**
 * The studio's actions on seats already taken (issues 19, 23, 33): check-in and its undo (a seat not
 * checked in after its session's end reads as a no-show), the guests of a seat, Remove student (with
 * or without a refund, and the refund's removal), and moving seats between sessions of one course.
 * Each takes the session's seat lock where seats change and writes through SeatWriter.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { ATTENDANCE_MESSAGES, Attendance, attendanceOf, SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { RequestContext } from '../../common/request-context';
import { WalletService } from '../wallet/wallet.service';
import { checkInAssignments } from './check-in.sql';
import { removalContext } from './enrollment-lookups.query';
import { EnrollmentRemovalHooks, RemovalRefund } from './enrollment-removal.hooks';
import { Enrollment } from './entities/enrollment.entity';
import { SeatToMove, SeatWriter } from './seat-writer';
import { lockEvent, lockEventForSeats } from './seats';

/** An enrollment's check-in as PUT/DELETE …/check-in answer it. */
export interface CheckIn {
  enrollment_id: string;
  checked_in_at: string | null;
  attendance: Attendance;
}

/** A seat moved to another session by moveSeats. */
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

@Injectable()
export class SeatAdminService {
  constructor(
    private readonly em: EntityManager,
    private readonly writer: SeatWriter,
    private readonly removalHooks: EnrollmentRemovalHooks,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks the student in (issue 23), or with `checkedIn` false undoes it. Idempotent: checking in
   * again keeps the first time and admin; undoing twice leaves it undone. Another organization's
   * enrollment is 404; a removed one is 409.
   */
  async setCheckIn(ctx: RequestContext, enrollmentId: string, checkedIn: boolean): Promise<CheckIn> {
    const set = checkInAssignments(checkedIn, ctx.userId, 'e');
    const [row] = await this.em.getConnection().execute<{ checked_in_at: Date | null; ends_at: Date }[]>(
      `update enrollment e set ${set.sql}
         from event ev
        where ev.id = e.event_id and e.id = ? and e.organization_id = ? and e.status = 'active'
        returning e.checked_in_at, ev.ends_at`,
      [...set.params, enrollmentId, ctx.organizationId],
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
      await this.writer.setGuestCount(em, enrollment, guestCount);
      return enrollment;
    });
  }

  /**
   * Frees the seat (and its guests' seats) under the session's seat lock; the order stays. With a
   * refund, the orders module's refund handler refunds the order and removes the enrollment in the
   * transaction that records the provider's refund (removeRefunded): a refused refund leaves the
   * student enrolled.
   */
  async remove(ctx: RequestContext, enrollmentId: string, refund?: RemovalRefund, options: { returnUse?: boolean } = {}): Promise<void> {
    if (refund) {
      const { orderId } = await removalContext(this.em, ctx.organizationId, enrollmentId);
      await this.removalHooks.refund(ctx, { enrollmentId, orderId }, { ...refund, returnUse: options.returnUse });
      return;
    }
    await this.em.transactional(async (em) => {
      const enrollment = await this.lockedActive(em, ctx.organizationId, enrollmentId);
      if (!enrollment) throw notFound('Enrollment not found');
      await this.writer.removeSeat(em, ctx.organizationId, enrollment);
      // Issue 24: the membership booking or pack credit that covered the seat comes back with the removal.
      if (options.returnUse)
        await this.wallet.returnBookingUse(ctx.organizationId, { enrollmentId }, { actorUserId: ctx.userId || undefined }, em as EntityManager);
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
    // A removal frees seats and reads none: the row lock alone.
    await lockEvent(em, { organizationId }, target.event_id);
    return true;
  }

  /**
   * Remove student's refund was made at the provider: the enrollment is removed in `em`'s
   * transaction (the one recording the refund), under its session's seat lock, and
   * enrollment.removed published in it. One already removed stays as it is (answers false).
   */
  async removeRefunded(em: EntityManager, organizationId: string, enrollmentId: string): Promise<boolean> {
    const enrollment = await this.lockedActive(em, organizationId, enrollmentId);
    if (!enrollment) return false;
    await this.writer.removeSeat(em, organizationId, enrollment);
    return true;
  }

  /**
   * THE move of seats between two sessions of one course (issue 23: a reschedule, Modify booking,
   * Move students), in the caller's transaction: both sessions' seat locks, taken in the order of
   * their ids (two moves in opposite directions never deadlock), then every rule read inside them:
   * the enrollments active in `fromEventId`, the target of the same course, active and not started,
   * nobody already in it, and room for every party moved together (all or nothing: `noRoom` names
   * the refusal, given the seats needed and left). Each seat moves with its guests, and
   * enrollment.moved is published per seat in the same transaction (SeatWriter.moveRows). Another
   * organization's session or enrollment is 404.
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
    const seats = await em.execute<SeatToMove[]>(
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
    await this.writer.moveRows(em, organizationId, seats, input.fromEventId, input.toEventId);
    return seats.map((seat) => ({
      id: seat.id,
      studentId: seat.student_id,
      orderId: seat.order_id,
      partySize: 1 + Number(seat.guest_count),
      fromEventId: input.fromEventId,
      toEventId: input.toEventId,
      toEventName: target.name,
    }));
  }

  /**
   * An active enrollment of the organization for a removal, read after its session's seat lock
   * (lockSeatOf: the row lock alone) is taken, so a concurrent change to it has committed by then;
   * null when it is not active (any more).
   */
  private async lockedActive(em: EntityManager, organizationId: string, enrollmentId: string): Promise<Enrollment | null> {
    if (!(await this.lockSeatOf(em, organizationId, enrollmentId))) return null;
    return em.findOne(Enrollment, { id: enrollmentId, organization: organizationId, status: 'active' }, { refresh: true });
  }

  /**
   * An active enrollment of the caller's organization, read after its session's seat lock is
   * taken (a concurrent change to it has committed by then), with the capacity and seats taken read
   * inside the lock: for a change that takes seats (guests).
   */
  private async lockedEnrollmentWithSeats(em: EntityManager, ctx: RequestContext, enrollmentId: string) {
    const [target] = await em.execute<{ event_id: string }[]>(
      `select event_id from enrollment where id = ? and organization_id = ? and status = 'active'`,
      [enrollmentId, ctx.organizationId],
    );
    if (!target) throw notFound('Enrollment not found');
    const seats = await lockEventForSeats(em, ctx, target.event_id);
    const enrollment = await em.findOne(Enrollment, { id: enrollmentId, organization: ctx.organizationId, status: 'active' }, { refresh: true });
    if (!enrollment) throw notFound('Enrollment not found');
    return { enrollment, seats };
  }
}
