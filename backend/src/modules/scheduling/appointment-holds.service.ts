import { CreateRequestContext, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APPOINTMENT_MESSAGES as M } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError, notFound } from '../../common/api-error';
import { Clock } from '../../common/clock';
import type { RequestContext } from '../../common/request-context';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { isOverlapRefusal, lockInstructorAppointments, UUID } from './appointment-locks';

/*
 * Held appointments (issue 22): a time of an appointment course kept for a student while they pay
 * (a store checkout, a payment link) or until an admin enrolls them; the hold released when its
 * order ends unpaid, and every hold past its expiry released by a repeatable job (once a minute,
 * and once at start). Booking, moving and cancelling are AppointmentsService's.
 */

export const APPOINTMENT_HOLDS_QUEUE = 'scheduling-appointment-holds';
export const APPOINTMENT_HOLDS_SCHEDULER = 'scheduling.appointments.release-expired-holds';
/** How often expired holds are released (and once at start). */
export const RELEASE_HOLDS_EVERY_MS = 60_000;

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

@Injectable()
export class AppointmentHolds implements OnApplicationBootstrap {
  private readonly logger = new Logger('AppointmentHolds');

  constructor(
    private readonly orm: MikroORM,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly clock: Clock,
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
            this.clock.now(),
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
   * The order ended unpaid (expired, cancelled, failed): the appointment it still holds is cancelled,
   * its time free at once. A booked appointment is left alone (a refund is not a release). Answers
   * whether one was released.
   */
  async releaseForOrder(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, orderId: string): Promise<boolean> {
    if (!UUID.test(orderId)) return false;
    const changed = await em.execute<{ id: string }[]>(
      `update appointment set status = 'cancelled', cancelled_at = ?
        where organization_id = ? and order_id = ? and status = 'held'
        returning id`,
      [this.clock.now(), ctx.organizationId, orderId],
    );
    return changed.length > 0;
  }

  /**
   * Every held appointment past its hold_expires_at becomes cancelled (its time free again), in one
   * statement; answers how many. Idempotent: a second run, or another worker's at once, finds none.
   */
  async releaseExpiredHolds(now: Date = this.clock.now()): Promise<number> {
    const rows = await this.orm.em.getConnection().execute<{ id: string }[]>(
      `update appointment set status = 'cancelled', cancelled_at = ?
        where status = 'held' and hold_expires_at <= ?
        returning id`,
      [now, now],
    );
    return rows.length;
  }
}
