import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  CREDIT_MESSAGES,
  ADMIN_APPOINTMENT_HOLD_MINUTES,
  APPOINTMENT_MESSAGES as M,
  type AppointmentCancelPayload,
  type AppointmentCreatePayload,
  type AppointmentMovePayload,
  type AppointmentOut,
  type CalendarOut,
  type CalendarQueryInput,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import { AppointmentSlotsService } from './appointment-slots.service';
import { toAppointmentOut } from './appointment-view.query';
import { AppointmentHolds } from './appointment-holds.service';
import { AppointmentReads } from './appointment-reads';
import { AppointmentsService } from './appointments.service';
import { calendarQuery, CalendarRow, calendarScopeQuery, CalendarScopeRow, toCalendarItem } from './calendar.query';
import { EnrollmentRemovalHooks } from './enrollment-removal.hooks';
import { Clock } from '../../common/clock';

const MINUTE = 60_000;
const DEFAULT_LIST_LIMIT = 50;

/**
 * The admin's appointments (issue 22): hold a free time of an appointment course for a student,
 * list and read them, move one to another free time, cancel one (Remove student, with the removal's
 * refund), and the calendar of sessions and appointments. Every write goes through
 * AppointmentsService and AppointmentHolds (the table's writers); every start is checked against the slot engine.
 */
@Injectable()
export class AppointmentAdminService {
  constructor(
    private readonly em: EntityManager,
    private readonly appointments: AppointmentsService,
    private readonly holds: AppointmentHolds,
    private readonly reads: AppointmentReads,
    private readonly slots: AppointmentSlotsService,
    private readonly removalHooks: EnrollmentRemovalHooks,
    private readonly clock: Clock,
  ) {}

  /**
   * Holds `starts_at` of the course for the student for ADMIN_APPOINTMENT_HOLD_MINUTES. 404 for
   * another organization's course or student; 400 for a scheduled course; 409 when the party is
   * larger than the course takes, when the engine does not offer the start now, or when a race for
   * it was lost at the database.
   */
  async create(ctx: RequestContext, activityId: string, body: AppointmentCreatePayload): Promise<AppointmentOut> {
    const em = this.em.fork();
    const startsAt = new Date(body.starts_at);
    const guestCount = body.guest_count ?? 0;
    const [course] = await em.execute<{ capacity: number; student_found: boolean }[]>(
      `select a.capacity, exists (select 1 from student s where s.id = ? and s.organization_id = a.organization_id) as student_found
         from activity a where a.id = ? and a.organization_id = ?`,
      [body.student_id, activityId, ctx.organizationId],
    );
    if (!course) throw notFound(M.courseNotFound);
    // 400 for a scheduled course before anything else about the student or time.
    const offered = await this.slots.offered(ctx.organizationId, activityId, startsAt);
    if (!course.student_found) throw notFound('Student not found');
    const capacity = Number(course.capacity);
    if (capacity > 0 && guestCount + 1 > capacity)
      throw new ApiError(HttpStatus.CONFLICT, M.partyTooLarge(capacity), { guest_count: M.partyTooLarge(capacity) });
    if (!offered) throw new ApiError(HttpStatus.CONFLICT, M.notOffered, { starts_at: M.notOffered });
    const held = await this.holds.hold(ctx, em, {
      activityId,
      startsAt,
      studentId: body.student_id,
      guestCount,
      expiresAt: this.clock.inMs(ADMIN_APPOINTMENT_HOLD_MINUTES * MINUTE),
    });
    return this.get(ctx, held.appointmentId);
  }

  async get(ctx: Pick<RequestContext, 'organizationId'>, appointmentId: string): Promise<AppointmentOut> {
    return toAppointmentOut(await this.reads.view(this.em.fork(), ctx.organizationId, appointmentId));
  }

  /** Check-in of a booked appointment, or its undo (AppointmentsService.setCheckIn). */
  setCheckIn(ctx: RequestContext, appointmentId: string, checkedIn: boolean) {
    return this.appointments.setCheckIn(ctx, appointmentId, checkedIn);
  }

  /**
   * The course's appointments ending after `from` (default now) and starting before `to`, upcoming
   * first: held and booked, cancelled ones only when asked. 404 for another organization's course,
   * 400 for a scheduled one.
   */
  async list(
    ctx: RequestContext,
    activityId: string,
    query: { from?: string; to?: string; include_cancelled?: 'true' | 'false'; limit?: number },
  ): Promise<{ appointments: AppointmentOut[] }> {
    const em = this.em.fork();
    const [course] = await em.execute<{ activity_type: string }[]>(
      `select activity_type from activity where id = ? and organization_id = ?`,
      [activityId, ctx.organizationId],
    );
    if (!course) throw notFound(M.courseNotFound);
    if (course.activity_type !== 'appointment') throw new ApiError(HttpStatus.BAD_REQUEST, M.notAppointmentCourse);
    const where = ['ap.organization_id = ?', 'ap.activity_id = ?', 'ap.ends_at > ?'];
    const params: unknown[] = [ctx.organizationId, activityId, query.from ? new Date(query.from) : this.clock.now()];
    if (query.to) {
      where.push('ap.starts_at < ?');
      params.push(new Date(query.to));
    }
    if (query.include_cancelled !== 'true') where.push(`ap.status <> 'cancelled'`);
    const rows = await this.reads.views(em, where.join(' and '), params, `order by ap.starts_at, ap.created_at, ap.id limit ${Number(query.limit ?? DEFAULT_LIST_LIMIT)}`);
    return { appointments: rows.map(toAppointmentOut) };
  }

  /**
   * Moves the appointment to another start of the same course the engine offers now (its own current
   * time not counting as busy). 404 for none of the organization's; 409 cancelled, not offered, or
   * taken by a race.
   */
  async move(ctx: RequestContext, appointmentId: string, body: AppointmentMovePayload): Promise<AppointmentOut> {
    const em = this.em.fork();
    const current = await this.appointments.get(ctx, em, appointmentId);
    if (current.status === 'cancelled') throw new ApiError(HttpStatus.CONFLICT, M.cancelled);
    const startsAt = new Date(body.starts_at);
    const offered = await this.slots.offered(ctx.organizationId, current.activityId, startsAt, { ignoreAppointmentId: current.id });
    if (!offered) throw new ApiError(HttpStatus.CONFLICT, M.notOffered, { starts_at: M.notOffered });
    await this.appointments.move(ctx, em, appointmentId, startsAt, { notify: body.notify ?? true });
    return this.get(ctx, appointmentId);
  }

  /**
   * Remove student on an appointment: cancelled, its time free at once, the student mailed unless
   * `notify` is false. With `refund`, the order is refunded by the removal's refund (the orders
   * module's), and the appointment cancelled in the transaction that records the refund made; a
   * refused refund keeps the appointment (409 with errors.refund). 404 for none of the
   * organization's; 409 for one already cancelled.
   */
  async cancel(ctx: RequestContext, appointmentId: string, body: AppointmentCancelPayload): Promise<void> {
    const em = this.em.fork();
    const current = await this.appointments.get(ctx, em, appointmentId);
    if (current.status === 'cancelled') throw new ApiError(HttpStatus.CONFLICT, M.cancelled);
    const notify = body.notify ?? true;
    // Issue 24: the use that covered it comes back unless an owner keeps it.
    if (body.keep_use && ctx.role === 'staff')
      throw new ApiError(HttpStatus.FORBIDDEN, CREDIT_MESSAGES.keepUseOwnerOnly, { keep_use: CREDIT_MESSAGES.keepUseOwnerOnly });
    const returnUse = !body.keep_use;
    if (body.refund) {
      await this.removalHooks.refund(
        ctx,
        { appointmentId: current.id, orderId: current.orderId ?? null, notify },
        { amountCents: body.refund.amount, reason: body.refund.reason, refundTo: body.refund.refund_to, returnUse },
      );
      return;
    }
    await this.appointments.cancel(ctx, em, appointmentId, { notify, returnUse, actorUserId: ctx.userId || undefined });
  }

  /**
   * The calendar: sessions (each day) and appointments overlapping [from, to), by instructor or
   * location, ordered by start (calendarQuery). 404 for another organization's instructor or location.
   */
  async calendar(ctx: RequestContext, query: CalendarQueryInput): Promise<CalendarOut> {
    const em = this.em.fork();
    const scope = calendarScopeQuery({ organizationId: ctx.organizationId, instructorId: query.instructor_id, locationId: query.location_id });
    const [org] = await em.execute<CalendarScopeRow[]>(scope.sql, scope.params);
    if (!org) throw notFound('Organization not found');
    if (!org.instructor_found) throw notFound('Instructor not found');
    if (!org.location_found) throw notFound('Location not found');
    const sql = calendarQuery({
      organizationId: ctx.organizationId,
      from: new Date(query.from),
      to: new Date(query.to),
      instructorId: query.instructor_id,
      locationId: query.location_id,
    });
    const rows = await em.execute<CalendarRow[]>(sql.sql, sql.params);
    return { time_zone: query.tz ?? org.timezone, items: rows.map(toCalendarItem) };
  }
}
