import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as AM,
  MANAGE_MESSAGES as M,
  bookingUseOut,
  cancelTerms,
  useReturns,
  isSelfService,
  rescheduleTerms,
  type AdminCancelPayload,
  type AdminReschedulePayload,
  type BookingKind,
  type BookingTerms,
  type MoveStudentsPayload,
  type MoveTarget,
  type PublicBooking,
  type PublicCancelPayload,
  type RefundDestination,
  type ReschedulePayload,
} from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { BookingLinksService } from '../booking-links/booking-links.service';
import { OrdersService } from '../orders/orders.service';
import { RefundsService } from '../orders/refunds.service';
import type { Organization } from '../organizations/organization.entity';
import { AppointmentSlotsService } from '../scheduling/appointment-slots.service';
import { AppointmentsService } from '../scheduling/appointments.service';
import { EnrollmentsService, MovedSeat } from '../scheduling/enrollments.service';
import { seatsTaken } from '../scheduling/seats';
import { WalletService } from '../wallet/wallet.service';
import { BookingRow, bookingRow, sessionsOfCourse } from './booking.query';
import { Clock } from '../../common/clock';

/** Who acts: an admin (their context) or the student from the link (no user). */
type Actor = { organizationId: string; userId: string | null; role: RequestContext['role'] | 'student' };

const isOwner = (actor: Actor) => actor.role === 'owner' || actor.role === 'super_admin';
const conflict = (message: string, field?: string) => new ApiError(HttpStatus.CONFLICT, message, field ? { [field]: message } : undefined);

/**
 * A booking after it was made (issue 23): its own page behind the manage link, the student's cancel
 * and reschedule by the course's policies, the admin's Cancel booking and Modify booking (the same
 * operations, an owner may override the policy), and the studio's Move students. Every seat change
 * goes through EnrollmentsService (moveSeats, remove) and AppointmentsService under their locks; every
 * refund through RefundsService (the ledger, the provider's idempotency key).
 */
@Injectable()
export class ManageBookingService {
  constructor(
    private readonly em: EntityManager,
    private readonly links: BookingLinksService,
    private readonly enrollments: EnrollmentsService,
    private readonly appointments: AppointmentsService,
    private readonly slots: AppointmentSlotsService,
    private readonly refunds: RefundsService,
    private readonly orders: OrdersService,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  // The student, through the link.

  /** The booking a token names in this store; a wrong, tampered or other store's token is 404. */
  async view(store: Pick<Organization, 'id' | 'name'>, token: string): Promise<PublicBooking> {
    return this.publicView(store, await this.byToken(store, token));
  }

  async cancelByStudent(store: Pick<Organization, 'id' | 'name'>, token: string, body: PublicCancelPayload = {}): Promise<PublicBooking> {
    const row = await this.byToken(store, token);
    if (row.status === 'cancelled') return this.publicView(store, row);
    const ms = row.starts_at.getTime() - this.clock.nowMs();
    if (ms <= 0) throw conflict(M.started);
    const terms = this.cancelTermsOf(row, ms);
    if (!terms.allowed) throw conflict(M.cancelNotAllowed);
    // Issue 24: the use that covered it comes back inside the policy's full-refund window only.
    await this.cancel({ organizationId: store.id, userId: null, role: 'student' }, row, terms.refund_cents, M.cancelledByStudent, {
      refundTo: body.refund_to,
      returnUse: useReturns({ kind: 'student', share: terms.share }),
    });
    return this.view(store, token);
  }

  async rescheduleByStudent(store: Pick<Organization, 'id' | 'name'>, token: string, body: ReschedulePayload): Promise<PublicBooking> {
    const row = await this.byToken(store, token);
    if (row.status === 'cancelled') throw conflict(M.cancelled);
    if (this.alreadyThere(row, body)) return this.publicView(store, row);
    const ms = row.starts_at.getTime() - this.clock.nowMs();
    if (ms <= 0) throw conflict(M.started);
    const terms = rescheduleTerms(row.reschedule_policy_id, ms);
    if (!terms.allowed)
      throw conflict(isSelfService(terms.policy.id) ? M.rescheduleNotAllowed(terms.policy.rule) : M.rescheduleContact);
    await this.move(store.id, row, body);
    return this.view(store, token);
  }

  // The admin.

  /** What Cancel booking and Modify booking show: the policies' figures now, and where it may move. */
  async terms(ctx: RequestContext, kind: BookingKind, id: string): Promise<BookingTerms> {
    const row = await this.byId(ctx, kind, id);
    const ms = row.starts_at.getTime() - this.clock.nowMs();
    return {
      kind: row.kind,
      status: row.status,
      course_name: row.course_name,
      starts_at: row.starts_at.toISOString(),
      timezone: row.timezone,
      party_size: row.party_size,
      paid_cents: row.total_cents,
      refundable_cents: this.refundable(row),
      cancel: this.cancelTermsOf(row, ms),
      reschedule: rescheduleTerms(row.reschedule_policy_id, ms),
      move_targets: await this.moveTargets(row),
      can_override: isOwner({ ...ctx, role: ctx.role }),
    };
  }

  /**
   * Cancel booking: the policy's refund, or with `refund_amount` another (an owner only: from 0 to
   * what is left to refund). The studio may cancel whatever the policy and the time.
   */
  async adminCancel(ctx: RequestContext, kind: BookingKind, id: string, body: AdminCancelPayload): Promise<void> {
    const row = await this.byId(ctx, kind, id);
    if (row.status === 'cancelled') throw conflict(M.cancelled);
    const refundable = this.refundable(row);
    const policyAmount = this.cancelTermsOf(row, row.starts_at.getTime() - this.clock.nowMs()).refund_cents;
    const amount = body.refund_amount ?? policyAmount;
    if (amount !== policyAmount && !isOwner(ctx)) throw new ApiError(HttpStatus.FORBIDDEN, M.ownerOnly, { refund_amount: M.ownerOnly });
    if (amount > refundable) throw new ApiError(HttpStatus.BAD_REQUEST, M.refundTooLarge(refundable), { refund_amount: M.refundTooLarge(refundable) });
    // The studio cancels: the use that covered it comes back (as Remove student does by default).
    await this.cancel(ctx, row, amount, M.cancelledByStudio, { refundTo: body.refund_to, returnUse: true });
  }

  /** Modify booking: free within the rescheduling policy; past it (or once started) only with an owner's override. */
  async adminReschedule(ctx: RequestContext, kind: BookingKind, id: string, body: AdminReschedulePayload): Promise<void> {
    const row = await this.byId(ctx, kind, id);
    if (row.status === 'cancelled') throw conflict(M.cancelled);
    if (this.alreadyThere(row, body)) return;
    const ms = row.starts_at.getTime() - this.clock.nowMs();
    const terms = rescheduleTerms(row.reschedule_policy_id, ms);
    // "Contact the studio": the studio is who moves it.
    const withinPolicy = ms > 0 && (terms.allowed || !isSelfService(terms.policy.id));
    if (body.override && !isOwner(ctx)) throw new ApiError(HttpStatus.FORBIDDEN, M.ownerOnly);
    if (!withinPolicy && !body.override) throw conflict(ms <= 0 ? M.started : M.rescheduleNotAllowed(terms.policy.rule));
    await this.move(ctx.organizationId, row, { event_id: body.event_id, starts_at: body.starts_at });
  }

  /** Move students: one, some or all students of a session to another session of the course with room, all or nothing. */
  async moveStudents(ctx: RequestContext, eventId: string, body: MoveStudentsPayload): Promise<{ moved: number; message: string }> {
    const some = body.enrollment_ids ? [...new Set(body.enrollment_ids)] : null;
    const moved = await this.moveSeats(ctx.organizationId, eventId, body.to_event_id, some ?? 'all', (needed, left) =>
      conflict(some && some.length === 1 ? M.noRoom(needed, left) : M.moveAllNoRoom(needed, left), 'to_event_id'),
    );
    return { moved: moved.length, message: M.movedDone(moved.length) };
  }

  // The operations.

  /**
   * Cancels the booking with `amountCents` back. With money back: the removal's refund (the seat is
   * freed, or the appointment cancelled, in the transaction that records the refund made; a
   * concurrent or repeated cancel finds the same ledger row and refunds once). With none: the seat
   * removed (enrollment.removed) or the appointment cancelled (its mail). Already cancelled: nothing.
   */
  private async cancel(
    actor: Actor,
    row: BookingRow,
    amountCents: number,
    reason: string,
    options: { refundTo?: RefundDestination; returnUse?: boolean } = {},
  ): Promise<void> {
    const organizationId = row.organization_id;
    if (row.order_id && (amountCents > 0 || row.refund_state === 'requested')) {
      await this.refunds.refundBooking(
        { organizationId, userId: actor.userId },
        row.kind === 'enrollment'
          ? { enrollmentId: row.id, orderId: row.order_id }
          : { appointmentId: row.id, orderId: row.order_id, notify: true },
        { amountCents, reason, refundTo: options.refundTo },
        { returnUse: options.returnUse },
      );
      return;
    }
    if (row.kind === 'appointment') {
      await this.appointments.cancel({ organizationId }, this.em.fork(), row.id, {
        notify: true,
        returnUse: options.returnUse,
        actorUserId: actor.userId ?? undefined,
      });
      return;
    }
    const system: RequestContext = { organizationId, userId: actor.userId ?? '', sessionId: 'manage-link', role: 'owner' };
    try {
      await this.enrollments.remove(system, row.id, undefined, { returnUse: options.returnUse });
    } catch (error) {
      // A concurrent cancel removed it first: the same outcome.
      const now = await bookingRow(this.em.fork(), organizationId, row.kind, row.id);
      if (now?.status !== 'cancelled') throw error;
    }
  }

  /** Moves a session booking to another session (or an appointment to another free time). */
  private async move(organizationId: string, row: BookingRow, to: { event_id?: string; starts_at?: string }): Promise<void> {
    if (row.kind === 'appointment') {
      if (!to.starts_at) throw new ApiError(HttpStatus.BAD_REQUEST, M.chooseTarget, { starts_at: M.chooseTarget });
      const startsAt = new Date(to.starts_at);
      const offered = await this.slots.offered(organizationId, row.activity_id, startsAt, { ignoreAppointmentId: row.id });
      if (!offered) throw conflict(AM.notOffered, 'starts_at');
      await this.appointments.move({ organizationId }, this.em.fork(), row.id, startsAt, { notify: true });
      return;
    }
    if (!to.event_id) throw new ApiError(HttpStatus.BAD_REQUEST, M.chooseTarget, { event_id: M.chooseTarget });
    await this.moveSeats(organizationId, row.event_id!, to.event_id, [row.id], (needed, left) => conflict(M.noRoom(needed, left), 'event_id'));
  }

  /** EnrollmentsService.moveSeats and the orders' lines, in one transaction: the payment moves with the booking. */
  private async moveSeats(
    organizationId: string,
    fromEventId: string,
    toEventId: string,
    ids: string[] | 'all',
    noRoom: (needed: number, left: number) => ApiError,
  ): Promise<MovedSeat[]> {
    return this.em.fork().transactional(async (tx) => {
      const em = tx as EntityManager;
      const moved = await this.enrollments.moveSeats(em, organizationId, {
        fromEventId,
        toEventId,
        enrollmentIds: ids,
        noRoom,
        refuse: {
          sameSession: M.sameSession,
          otherCourse: M.otherCourse,
          targetGone: M.targetGone,
          alreadyThere: M.alreadyThere,
          nobody: M.moveNobody,
        },
      });
      for (const seat of moved)
        if (seat.orderId)
          await this.orders.moveBookingLine(em, organizationId, seat.orderId, { fromEventId, toEventId, description: seat.toEventName });
      return moved;
    });
  }

  // Reading.

  private async byToken(store: Pick<Organization, 'id'>, token: string): Promise<BookingRow> {
    const signed = await this.links.verify(token);
    if (!signed) throw notFound(M.notFound);
    const row = await bookingRow(this.em.fork(), store.id, signed.kind, signed.id);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  private async byId(ctx: RequestContext, kind: BookingKind, id: string): Promise<BookingRow> {
    const row = await bookingRow(this.em.fork(), ctx.organizationId, kind, id);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  private refundable(row: BookingRow): number {
    if (!row.order_id || !['paid', 'partial_refund'].includes(row.order_status ?? '')) return 0;
    return Math.max(0, row.total_cents - row.refunded_cents);
  }

  /** The cancellation policy's terms, its amount never more than is left to refund. */
  private cancelTermsOf(row: BookingRow, ms: number) {
    return cancelTerms(row.cancel_policy_id, ms, row.total_cents, this.refundable(row));
  }

  private alreadyThere(row: BookingRow, to: { event_id?: string; starts_at?: string }): boolean {
    if (row.kind === 'enrollment') return Boolean(to.event_id) && to.event_id!.toLowerCase() === row.event_id;
    return Boolean(to.starts_at) && new Date(to.starts_at!).getTime() === row.starts_at.getTime();
  }

  /** Sessions of the same course with room for the party (a session booking). */
  private async moveTargets(row: BookingRow): Promise<MoveTarget[]> {
    if (row.kind !== 'enrollment' || row.status !== 'active') return [];
    const em = this.em.fork();
    const sessions = await sessionsOfCourse(em, row.organization_id, row.activity_id, row.event_id);
    const taken = await seatsTaken(em, sessions.map((s) => s.id));
    return sessions
      .map((s) => ({
        event_id: s.id,
        starts_at: new Date(s.starts_at).toISOString(),
        ends_at: new Date(s.ends_at).toISOString(),
        seats_left: Math.max(0, s.capacity - (taken.get(s.id)?.seats ?? 0)),
      }))
      .filter((s) => s.seats_left >= row.party_size);
  }

  private async publicView(store: Pick<Organization, 'name'>, row: BookingRow): Promise<PublicBooking> {
    const ms = row.starts_at.getTime() - this.clock.nowMs();
    const active = row.status === 'active';
    const cancel = this.cancelTermsOf(row, ms);
    const reschedule = rescheduleTerms(row.reschedule_policy_id, ms);
    return {
      kind: row.kind,
      status: row.status,
      store_name: store.name,
      course_name: row.course_name,
      activity_id: row.activity_id,
      starts_at: row.starts_at.toISOString(),
      ends_at: row.ends_at.toISOString(),
      timezone: row.timezone,
      location_name: row.location_name,
      address: row.address,
      online: Boolean(row.online),
      party_size: row.party_size,
      order_number: row.order_number,
      paid_cents: row.total_cents,
      refunded_cents: row.refunded_cents,
      refund_status: row.refund_state === 'requested' ? 'processing' : row.refund_state === 'made' ? 'made' : 'none',
      cancel: { ...cancel, allowed: active && cancel.allowed },
      reschedule: { ...reschedule, allowed: active && reschedule.allowed },
      move_targets: active && reschedule.allowed ? await this.moveTargets(row) : [],
      // Issue 24: the membership booking or pack credit that covered it, and whether cancelling now gives it back.
      use: bookingUseOut(
        await this.wallet.useOfBooking(row.organization_id, row.kind === 'enrollment' ? { enrollmentId: row.id } : { appointmentId: row.id }),
        active && useReturns({ kind: 'student', share: cancel.share }),
        row.cancel_policy_id,
      ),
    };
  }
}
