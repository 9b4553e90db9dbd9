import { checkInAssignments } from './check-in.sql';
import { CreateRequestContext, DriverException, LockMode, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as M,
  ATTENDANCE_MESSAGES,
  attendanceOf,
  type AppointmentCheckInOut,
} from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError, notFound } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { WalletService } from '../wallet/wallet.service';
import { AppointmentEvents } from './appointment-events';
import { APPOINTMENT_VIEW_SELECT, AppointmentViewRow } from './appointment-view.query';
import { BusyInterval, BusyIntervalRow, busyIntervalsQuery, toBusyInterval } from './busy-intervals.query';
import { Appointment } from './entities/appointment.entity';

export const APPOINTMENT_HOLDS_QUEUE = 'scheduling-appointment-holds';
export const APPOINTMENT_HOLDS_SCHEDULER = 'scheduling.appointments.release-expired-holds';
/** How often expired holds are released (and once at start). */
export const RELEASE_HOLDS_EVERY_MS = 60_000;

/** SQLSTATE of an exclusion constraint violation: the instructor already has an overlapping appointment. */
const EXCLUSION_VIOLATION = '23P01';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface HoldAppointmentInput {
  activityId: string;
  /** The start the student picked (an instant; the slot engine answers them). */
  startsAt: Date;
  studentId: string;
  /** The order that will pay for it (a store checkout, a payment link), when there is one. */
  orderId?: string | null;
  /** Guests besides the student (one party per appointment); 0 by default. */
  guestCount?: number;
  /** Until when the time is kept; releaseExpiredHolds cancels it afterwards unless booked. */
  expiresAt: Date;
}

export interface HeldAppointment {
  appointmentId: string;
  activityId: string;
  instructorId: string;
  locationId: string;
  startsAt: Date;
  endsAt: Date;
  /** The period the instructor is busy for it: the appointment widened by the course's buffers. */
  blockedFrom: Date;
  blockedTo: Date;
  holdExpiresAt: Date;
  /** What the checkout or payment link needs of the course. */
  courseName: string;
  priceCents: number;
  requiredWaiverId: string | null;
}

interface CourseRow {
  id: string;
  name: string;
  price_cents: number;
  activity_type: 'scheduled' | 'appointment';
  instructor_id: string | null;
  location_id: string;
  duration_mins: number;
  buffer_before_mins: number;
  buffer_after_mins: number;
  required_waiver_id: string | null;
  student_found: boolean;
}

/** Whether a driver error is the appointments' exclusion constraint refusing an overlap. */
export function isOverlapRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code ?? (error as DriverException & { cause?: { code?: unknown } }).cause?.code;
  return code === EXCLUSION_VIOLATION;
}

/**
 * Takes the instructor's appointment lock until the transaction ends. Every statement that makes an
 * appointment take time (hold; a later move) takes it first, so concurrent writers for one
 * instructor queue here rather than deadlock inside the exclusion constraint's check (two inserts
 * each waiting for the other's commit, one then killed after deadlock_timeout). The constraint, not
 * this lock, is what refuses an overlap: a writer that forgets the lock is still refused.
 */
export async function lockInstructorAppointments(em: EntityManager, instructorId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockInstructorAppointments must run inside a transaction');
  await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 22))`, [`appointment:${instructorId}`]);
}

/**
 * Appointments (issue 22): holding a time of an appointment course, booking and cancelling it,
 * releasing expired holds (a repeatable job), and the instructor's busy time the slot engine reads.
 * The database guarantees no double-booking (the appointment table's exclusion constraint); the
 * loser of a race gets 409 "This time was just taken. Please pick another."
 */
@Injectable()
export class AppointmentsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AppointmentsService');

  constructor(
    private readonly orm: MikroORM,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly events: AppointmentEvents,
    private readonly wallet: WalletService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.queue.process(APPOINTMENT_HOLDS_QUEUE, () => this.releaseJob());
    try {
      // One schedule however many processes upsert it; its first job runs now.
      await this.queue.upsertScheduler(APPOINTMENT_HOLDS_QUEUE, APPOINTMENT_HOLDS_SCHEDULER, 'release-expired-holds', {}, {
        everyMs: RELEASE_HOLDS_EVERY_MS,
        attempts: 3,
        backoffMs: 5_000,
      });
    } catch (error) {
      this.logger.warn(`Could not schedule the release of expired appointment holds: ${(error as Error).message}`);
    }
  }

  @CreateRequestContext() // the job's entry: its one MikroORM context
  private async releaseJob(): Promise<void> {
    const released = await this.releaseExpiredHolds();
    if (released > 0) this.logger.log(`Released ${released} expired appointment hold(s)`);
  }

  /**
   * Holds `startsAt` of an appointment course for the student until `expiresAt`: the course (of the
   * organization, appointment mode, with an instructor) gives the duration and the buffers; the
   * appointment is inserted `held` with its blocked range, in a transaction of its own or a
   * savepoint of the caller's. 404 for another organization's course or student; 409 with the
   * message when the instructor is busy then (any course's appointment with buffers).
   */
  async hold(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, input: HoldAppointmentInput): Promise<HeldAppointment> {
    if (!UUID.test(input.activityId)) throw notFound(M.courseNotFound);
    if (!UUID.test(input.studentId)) throw notFound('Student not found');
    const guestCount = input.guestCount ?? 0;
    if (!Number.isInteger(guestCount) || guestCount < 0) throw new ApiError(HttpStatus.BAD_REQUEST, M.guestCount);
    if (Number.isNaN(input.startsAt.getTime()) || Number.isNaN(input.expiresAt.getTime()))
      throw new Error('hold: startsAt and expiresAt must be valid dates');
    return em.transactional(async (tx) => {
      const [course] = await tx.execute<CourseRow[]>(
        `select a.id, a.name, a.price_cents, a.activity_type, a.instructor_id, a.location_id, a.duration_mins,
                a.buffer_before_mins, a.buffer_after_mins, a.required_waiver_id,
                exists (select 1 from student s where s.id = ? and s.organization_id = a.organization_id) as student_found
           from activity a
          where a.id = ? and a.organization_id = ?`,
        [input.studentId, input.activityId, ctx.organizationId],
      );
      if (!course) throw notFound(M.courseNotFound);
      if (course.activity_type !== 'appointment' || !course.instructor_id) throw new ApiError(HttpStatus.BAD_REQUEST, M.notAppointmentCourse);
      if (!course.student_found) throw notFound('Student not found');
      const id = randomUUID();
      const startsAt = input.startsAt;
      const endsAt = new Date(startsAt.getTime() + course.duration_mins * 60_000);
      const blockedFrom = new Date(startsAt.getTime() - course.buffer_before_mins * 60_000);
      const blockedTo = new Date(endsAt.getTime() + course.buffer_after_mins * 60_000);
      await lockInstructorAppointments(tx, course.instructor_id);
      try {
        await tx.execute(
          `insert into appointment (id, organization_id, activity_id, instructor_id, location_id, student_id, order_id,
                                    guest_count, status, starts_at, ends_at, blocked, hold_expires_at, created_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, 'held', ?, ?, tstzrange(?::timestamptz, ?::timestamptz, '[)'), ?, ?)`,
          [
            id,
            ctx.organizationId,
            course.id,
            course.instructor_id,
            course.location_id,
            input.studentId,
            input.orderId ?? null,
            guestCount,
            startsAt,
            endsAt,
            blockedFrom,
            blockedTo,
            input.expiresAt,
            new Date(),
          ],
        );
      } catch (error) {
        if (isOverlapRefusal(error)) throw new ApiError(HttpStatus.CONFLICT, M.taken);
        throw error;
      }
      return {
        appointmentId: id,
        activityId: course.id,
        instructorId: course.instructor_id,
        locationId: course.location_id,
        startsAt,
        endsAt,
        blockedFrom,
        blockedTo,
        holdExpiresAt: input.expiresAt,
        courseName: course.name,
        priceCents: Number(course.price_cents),
        requiredWaiverId: course.required_waiver_id,
      };
    });
  }

  /**
   * Held → booked (paid, or enrolled directly): the hold no longer expires. Booking a booked one
   * again answers it unchanged (a repeated delivery); 404 for none of the organization's; 409 when
   * it was cancelled or its hold expired meanwhile (its time may be someone else's now).
   */
  async book(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    appointmentId: string,
    options: { confirm?: boolean } = {},
  ): Promise<Appointment> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    return em.transactional(async (tx) => {
      const appointment = await tx.findOne(
        Appointment,
        { id: appointmentId, organizationId: ctx.organizationId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!appointment) throw notFound(M.notFound);
      if (appointment.status === 'booked') return appointment;
      if (appointment.status === 'cancelled') throw new ApiError(HttpStatus.CONFLICT, M.notHeld);
      if (appointment.holdExpiresAt && appointment.holdExpiresAt.getTime() <= Date.now()) {
        // Expired but not swept yet: released now, as the sweeper would.
        appointment.status = 'cancelled';
        appointment.cancelledAt = new Date();
        await tx.flush();
        throw new ApiError(HttpStatus.CONFLICT, M.holdExpired);
      }
      appointment.status = 'booked';
      appointment.holdExpiresAt = null;
      await tx.flush();
      // With the booking (the outbox): the confirmation (unless the store's covers it) and the meeting.
      await this.events.publish(tx, {
        type: 'appointment.booked',
        organizationId: ctx.organizationId,
        appointmentId: appointment.id,
        confirm: options.confirm ?? false,
      });
      return appointment;
    });
  }

  /**
   * Cancels a held or booked appointment: its time is free again at once. Cancelling a cancelled one
   * answers it unchanged; 404 for none of the organization's. Refunds are the caller's. A booked one
   * (or one an order waits for) announces appointment.cancelled: the student is mailed unless
   * `notify` is false, its meeting is deleted.
   */
  async cancel(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    appointmentId: string,
    options: { notify?: boolean; returnUse?: boolean; actorUserId?: string } = {},
  ): Promise<Appointment> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    return em.transactional(async (tx) => {
      const appointment = await tx.findOne(
        Appointment,
        { id: appointmentId, organizationId: ctx.organizationId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!appointment) throw notFound(M.notFound);
      if (appointment.status !== 'cancelled') {
        await this.cancelLocked(tx, appointment, options.notify ?? true);
        // Issue 24: the membership booking or pack credit that covered it comes back with the cancel.
        if (options.returnUse)
          await this.wallet.returnBookingUse(ctx.organizationId, { appointmentId: appointment.id }, { actorUserId: options.actorUserId }, tx as EntityManager);
      }
      return appointment;
    });
  }

  private async cancelLocked(em: EntityManager, appointment: Appointment, notify: boolean): Promise<void> {
    const announce = appointment.status === 'booked' || Boolean(appointment.orderId);
    appointment.status = 'cancelled';
    appointment.cancelledAt = new Date();
    await em.flush();
    if (announce)
      await this.events.publish(em, {
        type: 'appointment.cancelled',
        organizationId: appointment.organizationId,
        appointmentId: appointment.id,
        notify,
      });
  }

  /**
   * Remove student's refund on an appointment was made at the provider: the appointment is cancelled
   * in `em`'s transaction (the one recording the refund), appointment.cancelled published in it.
   * One already cancelled stays as it is (answers false).
   */
  async cancelRefunded(em: EntityManager, organizationId: string, appointmentId: string, notify: boolean): Promise<boolean> {
    const appointment = await em.findOne(
      Appointment,
      { id: appointmentId, organizationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!appointment || appointment.status === 'cancelled') return false;
    await this.cancelLocked(em, appointment, notify);
    return true;
  }

  /**
   * The appointment an admin's enroll or payment link is for, locked in `em`'s transaction, after the
   * checks of both: 404 for none of the organization's; 409 when it is for another student, already
   * has an order, was cancelled, or its hold ran out (released now, as the sweeper would; the caller's
   * transaction rolls back, so the sweeper does it a minute later).
   */
  async lockForOrder(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    appointmentId: string,
    studentId: string,
  ): Promise<Appointment> {
    if (!em.isInTransaction()) throw new Error('lockForOrder must run inside a transaction');
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const appointment = await em.findOne(
      Appointment,
      { id: appointmentId, organizationId: ctx.organizationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!appointment) throw notFound(M.notFound);
    if (appointment.studentId !== studentId) throw new ApiError(HttpStatus.CONFLICT, M.otherStudent);
    if (appointment.orderId) throw new ApiError(HttpStatus.CONFLICT, M.alreadyOrdered);
    if (appointment.status !== 'held') throw new ApiError(HttpStatus.CONFLICT, M.notHeld);
    if (appointment.holdExpiresAt && appointment.holdExpiresAt.getTime() <= Date.now()) throw new ApiError(HttpStatus.CONFLICT, M.holdExpired);
    return appointment;
  }

  /**
   * The order that pays for the appointment (owned by the orders module) is linked to it, in the
   * caller's transaction; a payment link's hold is kept until the link's expiry (`holdUntil`).
   */
  async attachOrder(em: EntityManager, appointment: Appointment, orderId: string, holdUntil?: Date): Promise<void> {
    appointment.orderId = orderId;
    if (holdUntil && appointment.status === 'held') appointment.holdExpiresAt = holdUntil;
    await em.flush();
  }

  /**
   * Moves a held or booked appointment to `startsAt`: the same course and duration, its own buffers
   * (the blocked range recomputed around the new time), under the instructor's lock; the exclusion
   * constraint refuses a race (409 taken); 409 for a cancelled one. A booked one announces
   * appointment.moved (the calendar file's SEQUENCE raised; the student mailed unless `notify` is
   * false; its meeting updated). Whether the engine offers the start is the caller's check.
   */
  async move(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    appointmentId: string,
    startsAt: Date,
    options: { notify?: boolean } = {},
  ): Promise<Appointment> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    return em.transactional(async (tx) => {
      const found = await tx.findOne(Appointment, { id: appointmentId, organizationId: ctx.organizationId });
      if (!found) throw notFound(M.notFound);
      // The instructor's lock first (as hold takes it), then the row.
      await lockInstructorAppointments(tx, found.instructorId);
      const appointment = await tx.findOneOrFail(Appointment, { id: appointmentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (appointment.status === 'cancelled') throw new ApiError(HttpStatus.CONFLICT, M.cancelled);
      const [range] = await tx.execute<{ before_ms: string; after_ms: string }[]>(
        `select extract(epoch from (starts_at - lower(blocked))) * 1000 as before_ms,
                extract(epoch from (upper(blocked) - ends_at)) * 1000 as after_ms
           from appointment where id = ?`,
        [appointment.id],
      );
      const duration = appointment.endsAt.getTime() - appointment.startsAt.getTime();
      const endsAt = new Date(startsAt.getTime() + duration);
      const blockedFrom = new Date(startsAt.getTime() - Number(range.before_ms));
      const blockedTo = new Date(endsAt.getTime() + Number(range.after_ms));
      const booked = appointment.status === 'booked';
      try {
        await tx.execute(
          `update appointment set starts_at = ?, ends_at = ?, blocked = tstzrange(?::timestamptz, ?::timestamptz, '[)'),
                  sequence = sequence + ?
            where id = ?`,
          [startsAt, endsAt, blockedFrom, blockedTo, booked ? 1 : 0, appointment.id],
        );
      } catch (error) {
        if (isOverlapRefusal(error)) throw new ApiError(HttpStatus.CONFLICT, M.taken);
        throw error;
      }
      const moved = await tx.findOneOrFail(Appointment, { id: appointment.id }, { refresh: true });
      if (booked)
        await this.events.publish(tx, {
          type: 'appointment.moved',
          organizationId: ctx.organizationId,
          appointmentId: moved.id,
          sequence: moved.sequence,
          notify: options.notify ?? true,
        });
      return moved;
    });
  }

  /**
   * The meeting job's answer (the sync module): the appointment's join link, or null when its meeting
   * was deleted. The first link of a booked appointment announces appointment.meeting_ready (its
   * confirmation may have waited for it).
   */
  async attachMeeting(organizationId: string, appointmentId: string, meetingUrl: string | null): Promise<void> {
    if (!UUID.test(appointmentId)) return;
    await (this.orm.em.fork() as EntityManager).transactional(async (tx) => {
      const [before] = await tx.execute<{ meeting_url: string | null; status: string }[]>(
        `select meeting_url, status from appointment where id = ? and organization_id = ? for update`,
        [appointmentId, organizationId],
      );
      if (!before || before.meeting_url === meetingUrl) return;
      await tx.execute(`update appointment set meeting_url = ? where id = ?`, [meetingUrl, appointmentId]);
      if (!before.meeting_url && meetingUrl && before.status === 'booked')
        await this.events.publish(tx, { type: 'appointment.meeting_ready', organizationId, appointmentId });
    });
  }

  /**
   * What Remove student's refund quote needs of an appointment of the organization that is not
   * cancelled: its order, its start and the course's cancellation policy. 404 otherwise.
   */
  async removalContext(
    ctx: Pick<RequestContext, 'organizationId'>,
    appointmentId: string,
  ): Promise<{ orderId: string | null; startsAt: Date; cancelPolicyId: number }> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const [row] = await this.orm.em.getConnection().execute<{ order_id: string | null; starts_at: Date; cancel_policy_id: number }[]>(
      `select ap.order_id, ap.starts_at, a.cancel_policy_id
         from appointment ap join activity a on a.id = ap.activity_id
        where ap.id = ? and ap.organization_id = ? and ap.status <> 'cancelled'`,
      [appointmentId, ctx.organizationId],
    );
    if (!row) throw notFound(M.notFound);
    return { orderId: row.order_id, startsAt: new Date(row.starts_at), cancelPolicyId: Number(row.cancel_policy_id) };
  }

  /** Appointments as the admin sees them (APPOINTMENT_VIEW_SELECT), by a where clause on `ap`. */
  async views(em: EntityManager, where: string, params: unknown[], tail = ''): Promise<AppointmentViewRow[]> {
    return em.execute<AppointmentViewRow[]>(`${APPOINTMENT_VIEW_SELECT} where ${where} ${tail}`, params);
  }

  /**
   * Checks the student of a booked appointment in (issue 23), or with `checkedIn` false undoes it.
   * Idempotent as the sessions' check-in: checking in again keeps the first time and admin; undoing
   * twice leaves it undone. Another organization's appointment is 404; a held or cancelled one 409.
   */
  async setCheckIn(ctx: RequestContext, appointmentId: string, checkedIn: boolean): Promise<AppointmentCheckInOut> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const set = checkInAssignments(checkedIn, ctx.userId);
    const [row] = await this.orm.em.getConnection().execute<{ checked_in_at: Date | null; ends_at: Date }[]>(
      `update appointment set ${set.sql}
        where id = ? and organization_id = ? and status = 'booked'
        returning checked_in_at, ends_at`,
      [...set.params, appointmentId, ctx.organizationId],
    );
    if (!row) {
      const [other] = await this.orm.em.getConnection().execute<{ status: string }[]>(
        `select status from appointment where id = ? and organization_id = ?`,
        [appointmentId, ctx.organizationId],
      );
      if (!other) throw notFound(M.notFound);
      throw new ApiError(HttpStatus.CONFLICT, ATTENDANCE_MESSAGES.appointmentNotBooked);
    }
    return {
      appointment_id: appointmentId,
      checked_in_at: row.checked_in_at ? new Date(row.checked_in_at).toISOString() : null,
      attendance: attendanceOf(row.checked_in_at, row.ends_at),
    };
  }

  /** One appointment of the organization as the admin sees it, or 404. */
  async view(em: EntityManager, organizationId: string, appointmentId: string): Promise<AppointmentViewRow> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const [row] = await this.views(em, 'ap.organization_id = ? and ap.id = ?', [organizationId, appointmentId]);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  /** The appointment an order pays for (the latest when several), or null. */
  async viewForOrder(em: EntityManager, organizationId: string, orderId: string): Promise<AppointmentViewRow | null> {
    if (!UUID.test(orderId)) return null;
    const [row] = await this.views(em, 'ap.organization_id = ? and ap.order_id = ?', [organizationId, orderId], 'order by ap.created_at desc limit 1');
    return row ?? null;
  }

  /**
   * The order was paid (issue 22): the appointment it holds is booked, in the caller's transaction;
   * null when the order holds none. A hold that ran out or was cancelled meanwhile throws the 409 of
   * book(), so the payment is refunded like a session seat that was lost. `confirm`: the student gets
   * the appointment's confirmation (a payment link's order; a store order has the store's).
   */
  async bookForOrder(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    orderId: string,
    options: { confirm?: boolean } = {},
  ): Promise<Appointment | null> {
    if (!UUID.test(orderId)) return null;
    const found = await em.findOne(Appointment, { orderId, organizationId: ctx.organizationId }, { orderBy: { createdAt: 'desc' } });
    if (!found) return null;
    return this.book(ctx, em, found.id, options);
  }

  /**
   * The order ended unpaid (expired, cancelled, failed): the appointment it still holds is cancelled,
   * its time free at once. A booked appointment is left alone (a refund is not a release). Answers
   * whether one was released.
   */
  async releaseForOrder(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, orderId: string): Promise<boolean> {
    if (!UUID.test(orderId)) return false;
    const changed = await em.execute<{ id: string }[]>(
      `update appointment set status = 'cancelled', cancelled_at = now()
        where organization_id = ? and order_id = ? and status = 'held'
        returning id`,
      [ctx.organizationId, orderId],
    );
    return changed.length > 0;
  }

  /** The organization's appointment, or 404. */
  async get(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, appointmentId: string): Promise<Appointment> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const appointment = await em.findOne(Appointment, { id: appointmentId, organizationId: ctx.organizationId });
    if (!appointment) throw notFound(M.notFound);
    return appointment;
  }

  /**
   * Every held appointment past its hold_expires_at becomes cancelled (its time free again), in one
   * statement; answers how many. Idempotent: a second run, or another worker's at once, finds none.
   */
  async releaseExpiredHolds(now: Date = new Date()): Promise<number> {
    const rows = await this.orm.em.getConnection().execute<{ id: string }[]>(
      `update appointment set status = 'cancelled', cancelled_at = ?
        where status = 'held' and hold_expires_at <= ?
        returning id`,
      [now, now],
    );
    return rows.length;
  }

  /**
   * The instructor's busy time in [from, to): each non-cancelled appointment's blocked range (any
   * course of theirs, buffers included) and each day of their active sessions, ordered by start, in
   * one statement (busyIntervalsQuery). The slot engine takes it as `busy`.
   */
  async busyIntervals(em: EntityManager, organizationId: string, instructorId: string, from: Date, to: Date): Promise<BusyInterval[]> {
    if (!UUID.test(instructorId)) return [];
    const query = busyIntervalsQuery({ organizationId, instructorId, from, to });
    const rows = await em.execute<BusyIntervalRow[]>(query.sql, query.params);
    return rows.map(toBusyInterval);
  }
}
