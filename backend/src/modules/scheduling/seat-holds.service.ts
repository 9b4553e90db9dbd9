/**
 * The seats held but not enrolled yet (issues 19, 23, 33): a payment link's or a store checkout's
 * hold (hold, releaseHold), a waitlist offer's hold (holdForOffer, offerHoldState, endOfferHold) and
 * its claim by a checkout (claimOfferHold), and a paid order's hold becoming the student's seat
 * (convertHold, which writes the seat through SeatWriter). The one writer of `seat_hold` (insertHold
 * is its one insert); every change runs in the caller's transaction under the session's seat lock,
 * and a live hold counts as a taken seat in every seat change (seatsTaken).
 */
import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { SCHEDULING_MESSAGES as M, SESSION_CANCEL_MESSAGES } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { Clock } from '../../common/clock';
import { RequestContext } from '../../common/request-context';
import { Student } from '../students/student.entity';
import { AppointmentHolds } from './appointment-holds.service';
import { AppointmentsService } from './appointments.service';
import { courseRules } from './enrollment-lookups.query';
import { lockSeatsWithRules } from './enrollment-rules.query';
import { Enrollment } from './entities/enrollment.entity';
import { SeatHold } from './entities/seat-hold.entity';
import { seatRefusal } from './seat-rules';
import { SeatWriter } from './seat-writer';
import { lockEventForSeats } from './seats';
import { SessionEvents } from './session-events';

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

@Injectable()
export class SeatHoldsService {
  constructor(
    private readonly writer: SeatWriter,
    private readonly appointments: AppointmentsService,
    private readonly appointmentHolds: AppointmentHolds,
    private readonly sessionEvents: SessionEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * Holds one seat (or `seats`) for the student until `expiresAt`. Refused as a direct enroll is:
   * another organization's session (404), a cancelled one (409), an ended session, a student already
   * enrolled or already holding a link for it, a single-party session taken, no seat left (409).
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
    const locked = await lockSeatsWithRules(em, ctx, input.student.id, input.eventId);
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
    if (refusal && input.full && refusal.code === 'full')
      throw input.full(Math.max(0, locked.capacity - locked.seats));
    if (refusal) throw refusal;
    if (input.ownBooking && (row.enrolled || row.holding)) throw input.ownBooking();
    const holdId = await this.insertHold(em, {
      organizationId: ctx.organizationId,
      eventId: input.eventId,
      studentId: input.student.id,
      orderId: input.orderId,
      waitlistEntryId: null,
      seats,
      expiresAt: input.expiresAt,
    });
    return { holdId, eventName: row.name, priceCents: Number(row.price_cents) };
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
    const appointmentReleased = await this.appointmentHolds.releaseForOrder(ctx, em, orderId);
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
    return this.insertHold(em, {
      organizationId: ctx.organizationId,
      eventId: input.eventId,
      studentId: null,
      orderId: null,
      waitlistEntryId: input.waitlistEntryId,
      seats: input.seats,
      expiresAt: input.expiresAt,
    });
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
    const locked = await lockSeatsWithRules(em, ctx, input.student.id, input.eventId);
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
    const live = !hold.releasedAt && hold.expiresAt.getTime() > this.clock.nowMs();
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
    const enrollmentId = await this.writer.createSeat(em, ctx.organizationId, {
      eventId: hold.eventId,
      studentId,
      requiredWaiverId,
      orderId,
      guestCount: hold.seats - 1,
    });
    return { outcome: 'enrolled', enrollmentId };
  }

  /**
   * THE insert of a hold, for a student's (payment link, store checkout: order and student named) and
   * for a waitlist offer's (entry named, no order or student until its claim). The caller holds the
   * session's seat lock and has applied its rules; the table's check (seat_hold_owner_check) and the
   * order's unique index state the rest.
   */
  private async insertHold(
    em: EntityManager,
    hold: { organizationId: string; eventId: string; studentId: string | null; orderId: string | null; waitlistEntryId: string | null; seats: number; expiresAt: Date },
  ): Promise<string> {
    const id = randomUUID();
    await em.execute(
      `insert into seat_hold (id, organization_id, event_id, student_id, order_id, waitlist_entry_id, seats, expires_at, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, now())`,
      [id, hold.organizationId, hold.eventId, hold.studentId, hold.orderId, hold.waitlistEntryId, hold.seats, hold.expiresAt],
    );
    return id;
  }
}
