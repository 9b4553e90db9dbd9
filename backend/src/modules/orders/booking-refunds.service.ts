import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { REFUND_MESSAGES as M, SESSION_CANCEL_MESSAGES, type RefundDestination } from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import { DomainError } from '../../common/domain-error';
import { RequestContext } from '../../common/request-context';
import { PaymentsPort } from '../payments/payments.port';
import { EnrollmentRemovalHooks, RemovalRefund, RemovalTarget } from '../scheduling/enrollment-removal.hooks';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { AppointmentsService } from '../scheduling/appointments.service';
import { refundErrors, type RequestedRefund } from './refund-ledger.model';
import { RefundLedger } from './refund-ledger.service';

/*
 * Refunds on booking removal (issue 9, 22, 23): Remove student's refund (registered with
 * scheduling's removal hooks), a booking cancelled by its policy (the manage link, Cancel booking)
 * and the full refund of each seat of a session the studio cancelled. Each goes through the
 * ledger (RefundLedger) naming its enrollment or appointment, which is removed (or cancelled) in
 * the transaction that records the refund made.
 */
@Injectable()
export class BookingRefunds implements OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly ledger: RefundLedger,
    private readonly payments: PaymentsPort,
    private readonly enrollments: EnrollmentsService,
    private readonly appointments: AppointmentsService,
    private readonly removalHooks: EnrollmentRemovalHooks,
  ) {}

  onModuleInit(): void {
    this.removalHooks.registerRefund((ctx, target, refund) => this.refundOnRemoval(ctx, target, refund, { returnUse: refund.returnUse }));
  }

  /**
   * The studio cancelled the session (issue 23) and refunds everyone in full: the seat's order is
   * refunded all that is left, through the ledger like Remove student's refund (the row names the
   * enrollment, so a second delivery finds it and refunds nothing twice; its id is the provider's
   * idempotency key), and the enrollment is removed in the transaction that records the refund made
   * (order.refunded with it: the loyalty module takes back the points earned and gives back those
   * redeemed). Answers what became of the money; an order the rules refuse (none, nothing charged,
   * sold elsewhere, already refunded, no payment method) is `not_refunded` with the rule's message;
   * a provider's refusal `refund_failed`. Throws when the provider's answer is unknown: the ledger row
   * stays requested, and the caller's retry asks again with the same key.
   */
  async refundCancelledSeat(
    organizationId: string,
    seat: { enrollmentId: string; orderId: string | null; reason: string; actorUserId: string | null; refundTo?: RefundDestination },
  ): Promise<{ outcome: 'refunded' | 'credited' | 'not_refunded' | 'refund_failed'; cents: number; note: string | null }> {
    const orderId = seat.orderId;
    if (!orderId) return { outcome: 'not_refunded', cents: 0, note: SESSION_CANCEL_MESSAGES.noOrder };
    const hasMethod = (await this.payments.listPaymentMethods(organizationId)).length > 0;
    let requested: RequestedRefund | null;
    try {
      requested = await this.ledger.serialised(orderId, () =>
        this.em.fork().transactional((em) =>
          this.ledger.request({ organizationId, userId: seat.actorUserId }, em as EntityManager, orderId, {
            reason: seat.reason,
            enrollmentId: seat.enrollmentId,
            hasMethod,
            refundTo: seat.refundTo,
            // The studio cancelled: the membership booking or pack credit it used always comes back.
            returnUse: true,
          }),
        ),
      );
    } catch (error) {
      // A refusal (the request rule's, or a removal's ApiError from scheduling): not refunded, and why.
      if (error instanceof DomainError && error.status < 500) return { outcome: 'not_refunded', cents: 0, note: error.message };
      if (error instanceof ApiError && error.getStatus() < 500) return { outcome: 'not_refunded', cents: 0, note: error.message };
      throw error;
    }
    if (requested) {
      const recorded = await this.ledger.finish(requested);
      if (recorded.state === 'requested') throw new Error(`Refund ${requested.id} of order ${orderId}: the provider's answer is unknown; asked again on retry`);
      if (recorded.state === 'refused') return { outcome: 'refund_failed', cents: 0, note: recorded.message };
    }
    // Made, now or by an earlier delivery: the enrollment's ledger row says how much.
    const [made] = await this.em.getConnection().execute<{ amount_cents: number; refund_to: RefundDestination }[]>(
      `select amount_cents, refund_to from order_refund
        where organization_id = ? and order_id = ? and enrollment_id = ? and status not in ('requested', 'failed', 'canceled')
        order by created_at desc limit 1`,
      [organizationId, orderId, seat.enrollmentId],
    );
    if (!made) throw new Error(`Refund of enrollment ${seat.enrollmentId} on order ${orderId} is not recorded yet; asked again on retry`);
    return { outcome: made.refund_to === 'store_credit' ? 'credited' : 'refunded', cents: Number(made.amount_cents), note: null };
  }

  /**
   * A booking cancelled by its policy (issue 23: the student from the manage link, or an admin's
   * Cancel booking): the removal's refund, naming the enrollment or appointment, so the seat is
   * freed (or the appointment cancelled) in the transaction that records the refund made, and a
   * second call (a double click, a retried request, a concurrent one) finds the same ledger row and
   * refunds once. The money goes back from the booking's own payment: no studio card is needed.
   * `userId` null: the student asked. A refused refund throws (409, errors.refund) and keeps the booking.
   */
  async refundBooking(
    ctx: Pick<RequestContext, 'organizationId'> & { userId: string | null },
    target: RemovalTarget,
    refund: RemovalRefund,
    options: { returnUse?: boolean } = {},
  ): Promise<void> {
    await this.refundOnRemoval(ctx, target, refund, { fromPayment: true, returnUse: options.returnUse });
  }

  /**
   * Remove student's refund: recorded as requested naming the enrollment, asked of the provider,
   * and the enrollment removed in the transaction that records the refund made. A refused refund
   * (or one refused by the rules) leaves the student enrolled; the error names `refund`.
   */
  private async refundOnRemoval(
    ctx: Pick<RequestContext, 'organizationId'> & { userId: string | null },
    target: RemovalTarget,
    refund: RemovalRefund,
    options: { fromPayment?: boolean; returnUse?: boolean } = {},
  ): Promise<void> {
    try {
      const orderId = target.orderId;
      if (!orderId) throw refundErrors.refused({ code: 'not_refundable', message: M.notRefundable });
      const hasMethod =
        options.fromPayment || refund.refundTo === 'store_credit' || (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
      const requested = await this.ledger.serialised(orderId, () =>
        this.em.transactional((em) =>
          this.ledger.request(ctx, em as EntityManager, orderId, {
            amountCents: refund.amountCents,
            reason: refund.reason,
            hasMethod,
            enrollmentId: target.enrollmentId,
            appointmentId: target.appointmentId,
            appointmentNotify: target.appointmentId ? target.notify : undefined,
            refundTo: refund.refundTo,
            returnUse: options.returnUse,
          }),
        ),
      );
      if (requested) await this.ledger.finish(requested, { answer: true });
      else {
        // Its refund was made already (a removal retried after a crash): the removal follows it.
        await this.em.transactional((em) =>
          target.appointmentId
            ? this.appointments.cancelRefunded(em as EntityManager, ctx.organizationId, target.appointmentId, target.notify)
            : this.enrollments.removeRefunded(em as EntityManager, ctx.organizationId, target.enrollmentId!),
        );
      }
    } catch (error) {
      // The dialog tells a refused refund ("Failed to refund order. Please try again.") from a failed removal.
      if (error instanceof DomainError) throw error.alsoOn('refund');
      if (error instanceof ApiError) {
        const response = error.getResponse() as { message: string; errors?: Record<string, string> };
        throw new ApiError(error.getStatus(), response.message, { ...response.errors, refund: response.message });
      }
      throw error;
    }
  }
}
