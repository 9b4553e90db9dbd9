import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  SCHEDULING_MESSAGES,
  SESSION_CANCEL_MESSAGES as M,
  CREDIT_MESSAGES,
  type RefundDestination,
  type SessionCancelOutcome,
  type SessionCancelRefund,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { SeatAdminService } from './seat-admin.service';
import { lockEventForSeats } from './seats';
import { SessionCancelEvents, SessionEvents } from './session-events';
import { Clock } from '../../common/clock';

/** What the studio asked: refund everyone in full or not at all, and why. */
export interface SessionCancelInput {
  refund: SessionCancelRefund;
  reason?: string;
  /** With refund full (issue 24): to the card (default) or to each student's store credit. */
  refund_to?: RefundDestination;
}

/** One seat of a cancelled session, as its handler reads it (with what the student's mail says). */
export interface CancelledSeat {
  enrollmentId: string;
  eventId: string;
  organizationId: string;
  studentId: string;
  orderId: string | null;
  outcome: SessionCancelOutcome;
  refund: SessionCancelRefund;
  refundTo: RefundDestination;
  reason: string;
  /** The admin who cancelled (the refunds ledger names them). */
  cancelledBy: string | null;
  firstName: string;
  email: string;
  sessionName: string;
  startsAt: Date;
  timezone: string;
  locationName: string;
  organizationName: string;
}

/** A cancelled session as the drawer shows it: the choice, the reason, and each student's outcome. */
export interface CancellationView {
  event_id: string;
  refund: SessionCancelRefund;
  refund_to: RefundDestination;
  reason: string;
  cancelled_at: string;
  total: number;
  processed: number;
  refunded_cents: number;
  students: {
    enrollment_id: string;
    student_id: string;
    first_name: string;
    last_name: string;
    email: string;
    order_id: string | null;
    outcome: SessionCancelOutcome;
    refund_cents: number;
    note: string | null;
    processed_at: string | null;
  }[];
}

/**
 * The studio cancels a session with students (issue 23). The cancel itself is one transaction under
 * the session's seat lock: the session marked cancelled (no seat can be taken in it any more:
 * seatRefusal), the cancellation and one row per active student written, session.cancelled and one
 * session.seat_cancelled per student published (the outbox). The work per student (seat removed,
 * refund, mail) is the orders module's handler, which records each outcome here (recordOutcome):
 * this module writes its own tables only.
 *
 * The reads join `student` and `organization` (the students' names and the studio's name, read-only,
 * in these queries only) for the drawer and the mail.
 */
@Injectable()
export class SessionCancellationService {
  constructor(
    private readonly em: EntityManager,
    private readonly sessionEvents: SessionEvents,
    private readonly cancelEvents: SessionCancelEvents,
    private readonly seats: SeatAdminService,
    private readonly clock: Clock,
  ) {}

  /**
   * Cancels the session. 404 for another organization's session (or none); 409 for one already
   * cancelled, or one that has ended; 400 without a reason when it has students or held seats.
   * `precheck` runs under the lock once the session is known to have students (the orders module's
   * check that refunds can be made), so a refusal changes nothing.
   */
  async cancel(
    ctx: RequestContext,
    eventId: string,
    input: SessionCancelInput,
    precheck: (students: number) => Promise<void> = async () => undefined,
  ): Promise<void> {
    await this.em.transactional(async (tx) => {
      const em = tx as EntityManager;
      const seats = await lockEventForSeats(em, ctx, eventId);
      if (seats.status === 'cancelled') throw new ApiError(HttpStatus.CONFLICT, M.alreadyCancelled);
      if (seats.endsAt.getTime() <= this.clock.nowMs()) throw new ApiError(HttpStatus.CONFLICT, SCHEDULING_MESSAGES.eventFinished);
      const reason = input.reason?.trim() ?? '';
      if (input.refund_to === 'store_credit' && input.refund !== 'full')
        throw new ApiError(HttpStatus.BAD_REQUEST, CREDIT_MESSAGES.refundToNeedsRefund, { refund_to: CREDIT_MESSAGES.refundToNeedsRefund });
      if (seats.students + seats.held > 0 && !reason)
        throw new ApiError(HttpStatus.BAD_REQUEST, M.reasonRequired, { reason: M.reasonRequired });
      if (seats.students > 0) await precheck(seats.students);
      const [event] = await em.execute<{ activity_id: string }[]>(
        `update event set status = 'cancelled', updated_at = now() where id = ? returning activity_id`,
        [seats.eventId],
      );
      await em.execute(
        `insert into session_cancellation (event_id, organization_id, refund, refund_to, reason, cancelled_by, cancelled_at)
         values (?, ?, ?, ?, ?, ?, now())`,
        [seats.eventId, ctx.organizationId, input.refund, input.refund_to ?? 'card', reason, ctx.userId],
      );
      // Every student with a seat now: each is handled by its own outbox row.
      const students = await em.execute<{ enrollment_id: string }[]>(
        `insert into session_cancellation_seat (enrollment_id, event_id, organization_id, student_id, order_id)
         select e.id, e.event_id, e.organization_id, e.student_id, e.order_id
           from enrollment e
          where e.event_id = ? and e.organization_id = ? and e.status = 'active'
         returning enrollment_id`,
        [seats.eventId, ctx.organizationId],
      );
      await this.sessionEvents.publish(em, {
        type: 'session.cancelled',
        organizationId: ctx.organizationId,
        eventId: seats.eventId,
        activityId: event.activity_id,
        refund: input.refund,
        reason,
      });
      for (const seat of students)
        await this.cancelEvents.publish(em, {
          type: 'session.seat_cancelled',
          organizationId: ctx.organizationId,
          eventId: seats.eventId,
          enrollmentId: seat.enrollment_id,
        });
    });
  }

  /** A seat of a cancelled session with what its handler needs; null when there is none (another organization's). */
  async seat(organizationId: string, enrollmentId: string): Promise<CancelledSeat | null> {
    const [row] = await this.em.getConnection().execute<
      {
        enrollment_id: string;
        event_id: string;
        student_id: string;
        order_id: string | null;
        outcome: SessionCancelOutcome;
        refund: SessionCancelRefund;
        refund_to: RefundDestination;
        reason: string;
        cancelled_by: string | null;
        first_name: string;
        email: string;
        session_name: string;
        starts_at: Date;
        timezone: string;
        location_name: string;
        organization_name: string;
      }[]
    >(
      `select cs.enrollment_id, cs.event_id, cs.student_id, cs.order_id, cs.outcome,
              c.refund, c.refund_to, c.reason, c.cancelled_by,
              s.first_name, s.email,
              ev.name as session_name, ev.starts_at, l.timezone, l.name as location_name,
              o.name as organization_name
         from session_cancellation_seat cs
         join session_cancellation c on c.event_id = cs.event_id
         join event ev on ev.id = cs.event_id
         join location l on l.id = ev.location_id
         join student s on s.id = cs.student_id
         join organization o on o.id = cs.organization_id
        where cs.enrollment_id = ? and cs.organization_id = ?`,
      [enrollmentId, organizationId],
    );
    if (!row) return null;
    return {
      enrollmentId: row.enrollment_id,
      eventId: row.event_id,
      organizationId,
      studentId: row.student_id,
      orderId: row.order_id,
      outcome: row.outcome,
      refund: row.refund,
      refundTo: row.refund_to,
      reason: row.reason,
      cancelledBy: row.cancelled_by,
      firstName: row.first_name,
      email: row.email,
      sessionName: row.session_name,
      startsAt: new Date(row.starts_at),
      timezone: row.timezone,
      locationName: row.location_name,
      organizationName: row.organization_name,
    };
  }

  /**
   * Takes the student off the cancelled session (its seat removed under the seat lock,
   * enrollment.removed published with it); nothing when it is removed already (a refund made
   * removed it in the transaction that recorded it).
   */
  async removeSeat(organizationId: string, enrollmentId: string): Promise<void> {
    await this.em.fork().transactional((em) => this.seats.removeRefunded(em as EntityManager, organizationId, enrollmentId));
  }

  /** The seat's outcome, recorded once: a later delivery finds it processed and leaves it. */
  async recordOutcome(
    organizationId: string,
    enrollmentId: string,
    outcome: Exclude<SessionCancelOutcome, 'pending'>,
    refundCents: number,
    note: string | null,
  ): Promise<void> {
    await this.em.getConnection().execute(
      `update session_cancellation_seat set outcome = ?, refund_cents = ?, note = ?, processed_at = now()
        where enrollment_id = ? and organization_id = ? and outcome = 'pending'`,
      [outcome, refundCents, note, enrollmentId, organizationId],
    );
  }

  /** The cancellation of a session of the caller's organization; 404 when it is not cancelled (or not the organization's). */
  async view(ctx: Pick<RequestContext, 'organizationId'>, eventId: string): Promise<CancellationView> {
    const connection = this.em.getConnection();
    const [cancellation] = await connection.execute<
      { event_id: string; refund: SessionCancelRefund; refund_to: RefundDestination; reason: string; cancelled_at: Date }[]
    >(
      `select event_id, refund, refund_to, reason, cancelled_at from session_cancellation where event_id = ? and organization_id = ?`,
      [eventId, ctx.organizationId],
    );
    if (!cancellation) throw notFound('This session is not cancelled');
    const rows = await connection.execute<
      {
        enrollment_id: string;
        student_id: string;
        first_name: string;
        last_name: string;
        email: string;
        order_id: string | null;
        outcome: SessionCancelOutcome;
        refund_cents: number;
        note: string | null;
        processed_at: Date | null;
      }[]
    >(
      `select cs.enrollment_id, cs.student_id, s.first_name, s.last_name, s.email, cs.order_id, cs.outcome, cs.refund_cents, cs.note, cs.processed_at
         from session_cancellation_seat cs join student s on s.id = cs.student_id
        where cs.event_id = ? and cs.organization_id = ?
        order by s.last_name, s.first_name, cs.enrollment_id`,
      [eventId, ctx.organizationId],
    );
    return {
      event_id: cancellation.event_id,
      refund: cancellation.refund,
      refund_to: cancellation.refund_to,
      reason: cancellation.reason,
      cancelled_at: new Date(cancellation.cancelled_at).toISOString(),
      total: rows.length,
      processed: rows.filter((r) => r.processed_at !== null).length,
      refunded_cents: rows.reduce((sum, r) => sum + Number(r.refund_cents), 0),
      students: rows.map((r) => ({
        enrollment_id: r.enrollment_id,
        student_id: r.student_id,
        first_name: r.first_name,
        last_name: r.last_name,
        email: r.email,
        order_id: r.order_id,
        outcome: r.outcome,
        refund_cents: Number(r.refund_cents),
        note: r.note,
        processed_at: r.processed_at ? new Date(r.processed_at).toISOString() : null,
      })),
    };
  }
}
