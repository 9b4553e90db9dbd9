import { LockMode, MikroORM } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as M,
  ATTENDANCE_MESSAGES,
  attendanceOf,
  type AppointmentCheckInOut,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { Clock } from '../../common/clock';
import type { RequestContext } from '../../common/request-context';
import { WalletService } from '../wallet/wallet.service';
import { AppointmentEvents } from './appointment-events';
import { isOverlapRefusal, lockInstructorAppointments, UUID } from './appointment-locks';
import { checkInAssignments } from './check-in.sql';
import { Appointment } from './entities/appointment.entity';

/**
 * Appointments (issue 22): a held appointment booked, cancelled, moved, checked in, linked to the
 * order that pays for it and to its meeting. Holding a time and releasing holds is AppointmentHolds'
 * (appointment-holds.service.ts), the reads AppointmentReads'. The database guarantees no
 * double-booking (the appointment table's exclusion constraint); the loser of a race gets 409 "This
 * time was just taken. Please pick another."
 */
@Injectable()
export class AppointmentsService {
  constructor(
    private readonly orm: MikroORM,
    private readonly events: AppointmentEvents,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

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
      if (appointment.holdExpiresAt && appointment.holdExpiresAt.getTime() <= this.clock.now().getTime()) {
        // Expired but not swept yet: released now, as the sweeper would.
        appointment.status = 'cancelled';
        appointment.cancelledAt = this.clock.now();
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
    appointment.cancelledAt = this.clock.now();
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
    if (appointment.holdExpiresAt && appointment.holdExpiresAt.getTime() <= this.clock.now().getTime()) throw new ApiError(HttpStatus.CONFLICT, M.holdExpired);
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

  /** The organization's appointment, or 404. */
  async get(ctx: Pick<RequestContext, 'organizationId'>, em: EntityManager, appointmentId: string): Promise<Appointment> {
    if (!UUID.test(appointmentId)) throw notFound(M.notFound);
    const appointment = await em.findOne(Appointment, { id: appointmentId, organizationId: ctx.organizationId });
    if (!appointment) throw notFound(M.notFound);
    return appointment;
  }

}
