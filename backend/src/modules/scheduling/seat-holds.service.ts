import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { Student } from '../students/student.entity';
import { courseRules, EnrollmentsService } from './enrollments.service';
import { EnrollmentRulesRow, enrollmentRulesQuery, rulesSeats } from './enrollment-rules.query';
import { seatRefusal } from './seat-rules';
import { Enrollment } from './entities/enrollment.entity';
import { SeatHold } from './entities/seat-hold.entity';
import { lockEventForSeats } from './seats';

type OrgContext = Pick<RequestContext, 'organizationId'>;

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
  | { outcome: 'no_hold' };

/**
 * The seats payment links hold. Each change runs in the caller's transaction under the session's
 * seat lock (lockEventForSeats), the lock every enroll, guest change and capacity edit takes, and a
 * live hold counts as a taken seat in all of them (seatsTaken).
 */
@Injectable()
export class SeatHoldsService {
  constructor(private readonly enrollments: EnrollmentsService) {}

  /**
   * Holds one seat for the student until `expiresAt`. Refused as a direct enroll is: another
   * organization's or a cancelled session (404), an ended session, a student already enrolled or
   * already holding a link for it, a single-party session taken, no seat left (409).
   */
  async hold(
    ctx: OrgContext,
    em: EntityManager,
    input: { student: Student; eventId: string; orderId: string; expiresAt: Date },
  ): Promise<HeldSeat> {
    // The seat lock, then everything the rules read in one statement, as enroll() does.
    const locked = await lockEventForSeats(em, ctx, input.eventId, async (event) => {
      const rules = enrollmentRulesQuery({ organizationId: ctx.organizationId, studentId: input.student.id, eventId: event.eventId, checkStudent: false });
      const [row] = await em.execute<EnrollmentRulesRow[]>(rules.sql, rules.params);
      return { ...rulesSeats(row), rules: row };
    });
    const row = locked.rules;
    const refusal = seatRefusal({ ...locked, alreadyEnrolled: row.enrolled, alreadyHolding: row.holding, singleParty: Boolean(row.single_party) });
    if (refusal) throw refusal;
    const hold = em.create(SeatHold, {
      organizationId: ctx.organizationId,
      eventId: input.eventId,
      studentId: input.student.id,
      orderId: input.orderId,
      expiresAt: input.expiresAt,
    });
    await em.flush();
    return { holdId: hold.id, eventName: row.name, priceCents: Number(row.price_cents) };
  }

  /** Stops the order's hold from counting (the link was cancelled or expired). Nothing when none is live. */
  async release(ctx: OrgContext, em: EntityManager, orderId: string): Promise<boolean> {
    const changed = await em.nativeUpdate(
      SeatHold,
      { orderId, organizationId: ctx.organizationId, releasedAt: null },
      { releasedAt: new Date() },
    );
    return changed > 0;
  }

  /**
   * The order was paid: its held seat becomes the student's enrollment (linked to the order), in the
   * caller's transaction under the seat lock. A live hold already counts, so the swap never
   * oversells and always succeeds. A hold that ran out meanwhile (a payment completed just as the
   * link expired) needs a free seat like any enroll: without one this throws the 409 "session full".
   */
  async convert(ctx: OrgContext, em: EntityManager, orderId: string): Promise<HoldConversion> {
    const found = await em.findOne(SeatHold, { orderId, organizationId: ctx.organizationId });
    if (!found) return { outcome: 'no_hold' };
    const seats = await lockEventForSeats(em, ctx, found.eventId);
    const hold = await em.findOneOrFail(SeatHold, { id: found.id }, { refresh: true });
    const live = !hold.releasedAt && hold.expiresAt.getTime() > Date.now();
    const existing = await em.findOne(Enrollment, {
      event: hold.eventId,
      student: hold.studentId,
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
    const enrollmentId = await this.enrollments.createSeat(em, ctx.organizationId, { eventId: hold.eventId, studentId: hold.studentId, requiredWaiverId, orderId });
    return { outcome: 'enrolled', enrollmentId };
  }
}
