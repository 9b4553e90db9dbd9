import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  bookingHoldings,
  bookingUseAmount,
  holdingCoversCourse,
  WALLET_BOOKING_MESSAGES,
  WALLET_MESSAGES,
  type BookingHolding,
  type WalletKind,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { WalletService } from './wallet.service';
import { Clock } from '../../common/clock';

/** The course a booking is of: what a membership's or pack's coverage is checked against. */
type BookedCourse = { activity_id: string; category_id: number | null };

/**
 * Add student on a membership or a class pack (issue 24): the holdings that can book a course, and
 * the use of one for a booking in the caller's transaction, under the student's wallet lock.
 * It reads the course's category (the catalog's `activity`) read-only, in one statement.
 */
@Injectable()
export class WalletBookingService {
  constructor(
    private readonly em: EntityManager,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  /** The course of the organization (404 otherwise), with its category. */
  async course(organizationId: string, activityId: string, em?: EntityManager): Promise<BookedCourse> {
    const sql = `select id, category_id from activity where id = ? and organization_id = ?`;
    type Row = { id: string; category_id: number | null };
    const [row] = em ? await em.execute<Row[]>(sql, [activityId, organizationId]) : await this.em.getConnection().execute<Row[]>(sql, [activityId, organizationId]);
    if (!row) throw notFound('Course not found');
    return { activity_id: row.id, category_id: row.category_id === null ? null : Number(row.category_id) };
  }

  /** The student's holdings that can book the course now, memberships first, then packs soonest to expire. The caller checked the student. */
  async covering(organizationId: string, studentId: string, activityId: string): Promise<BookingHolding[]> {
    const course = await this.course(organizationId, activityId);
    const held = await this.wallet.covering(organizationId, studentId);
    return bookingHoldings(held, course, this.clock.now()).map((h) => ({
      holding_id: h.holding_id,
      kind: h.kind as BookingHolding['kind'],
      label: h.label,
      unit: h.unit,
      balance: h.balance,
      unlimited: h.unlimited,
      expires_at: h.expires_at,
    }));
  }

  /**
   * Checks, in `em`'s transaction under the student's wallet lock (taken here, after the seat or
   * appointment lock the caller took: the order every booking path takes them in), that the holding may book the course: 404 unless it is
   * the student's in the organization; 409 when it is not a membership or pack, does not cover the
   * course, has expired or holds too little for the party. Answers what the booking will use.
   */
  async check(
    ctx: Pick<RequestContext, 'organizationId'>,
    em: EntityManager,
    input: { studentId: string; holdingId: string; activityId: string; partySize: number },
  ): Promise<{ amount: number }> {
    await this.wallet.lock(em, input.studentId);
    const [h] = await em.execute<
      { student_id: string; kind: WalletKind; covers_activity_ids: string[] | null; covers_category_ids: number[] | null }[]
    >(
      `select student_id, kind, covers_activity_ids, covers_category_ids from wallet_holding where id = ? and organization_id = ?`,
      [input.holdingId, ctx.organizationId],
    );
    if (!h || h.student_id !== input.studentId) throw notFound(WALLET_MESSAGES.holdingNotFound);
    if (h.kind !== 'membership' && h.kind !== 'pack') throw new ApiError(HttpStatus.CONFLICT, WALLET_BOOKING_MESSAGES.notBookable);
    const course = await this.course(ctx.organizationId, input.activityId, em);
    const covers = holdingCoversCourse({ covers_activity_ids: h.covers_activity_ids, covers_category_ids: h.covers_category_ids?.map(Number) ?? null }, course);
    if (!covers) throw new ApiError(HttpStatus.CONFLICT, WALLET_BOOKING_MESSAGES.notCovering);
    if (h.kind === 'membership' && input.partySize > 1) throw new ApiError(HttpStatus.CONFLICT, WALLET_BOOKING_MESSAGES.membershipOwnSeat);
    const amount = bookingUseAmount(h.kind, input.partySize);
    // Expired or too little: the wallet's own refusal, before the seat is taken (use() checks again).
    const [state] = await em.execute<{ balance: number | null; expired: boolean }[]>(
      `select (select e.balance_after from wallet_entry e where e.holding_id = h.id order by e.seq desc limit 1) as balance,
              (h.status = 'expired' or (h.expires_at is not null and h.expires_at <= ?)) as expired
         from wallet_holding h where h.id = ?`,
      [this.clock.now(), input.holdingId],
    );
    if (state.expired) throw new ApiError(HttpStatus.CONFLICT, WALLET_MESSAGES.expired);
    if (Number(state.balance ?? 0) < amount)
      throw new ApiError(HttpStatus.CONFLICT, WALLET_MESSAGES.notEnough[h.kind === 'membership' ? 'bookings' : 'credits']);
    return { amount };
  }

  /** The use of a checked holding for the booking just written, in the same transaction (once per booking). */
  async use(
    ctx: Pick<RequestContext, 'organizationId' | 'userId'>,
    em: EntityManager,
    input: { studentId: string; holdingId: string; amount: number; enrollmentId?: string; appointmentId?: string; orderId: string },
  ): Promise<void> {
    await this.wallet.use(
      {
        organizationId: ctx.organizationId,
        studentId: input.studentId,
        holdingId: input.holdingId,
        amount: input.amount,
        enrollmentId: input.enrollmentId,
        appointmentId: input.appointmentId,
        orderId: input.orderId,
        actorUserId: ctx.userId || undefined,
      },
      em,
    );
  }
}
