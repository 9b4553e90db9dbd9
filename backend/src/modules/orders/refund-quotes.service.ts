import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { POLICIES, bookingUseOut, refundDestinationText, refundRefusal, refundSplit, refundableShare, type RefundDestination } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';
import { PaymentsPort } from '../payments/payments.port';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { AppointmentReads } from '../scheduling/appointment-reads';
import { WalletService } from '../wallet/wallet.service';
import { Order } from './entities/order.entity';
import { refundRuleOrder } from './refund-ledger.service';
import { Clock } from '../../common/clock';

/*
 * Refund quotes (issue 9, 22, 24): what the Remove student dialogs offer before anything moves:
 * the order's paid and refundable amounts, the share the course's cancellation policy refunds now,
 * why the order cannot be refunded (the one request rule of libs/contracts, asked as the refund
 * itself asks it), where the money would go, and the use that covered the booking.
 */
@Injectable()
export class RefundQuotes {
  constructor(
    private readonly em: EntityManager,
    private readonly payments: PaymentsPort,
    private readonly enrollments: EnrollmentsService,
    private readonly appointments: AppointmentReads,
    private readonly wallet: WalletService,
    private readonly clock: Clock,
  ) {}

  /**
   * What the Remove student dialog offers: the order's paid and refundable amounts and the share the
   * course's cancellation policy refunds now (refundableShare), as a suggested amount.
   */
  async removalQuote(ctx: RequestContext, enrollmentId: string) {
    return this.quoteFor(ctx, await this.enrollments.removalContext(ctx, enrollmentId), { enrollmentId });
  }

  /** The same quote for Remove student on an appointment (issue 22): its order, its start, its course's policy. */
  async appointmentRemovalQuote(ctx: RequestContext, appointmentId: string) {
    return this.quoteFor(ctx, await this.appointments.removalContext(ctx, appointmentId), { appointmentId });
  }

  private async quoteFor(
    ctx: RequestContext,
    context: { orderId: string | null; startsAt: Date; cancelPolicyId: number },
    booking: { enrollmentId?: string; appointmentId?: string },
  ) {
    const order = context.orderId ? await this.em.findOne(Order, { id: context.orderId, organization: ctx.organizationId }) : null;
    const policy = POLICIES.find((p) => p.id === context.cancelPolicyId && p.kind === 'cancellation') ?? null;
    const msBeforeStart = context.startsAt.getTime() - this.clock.nowMs();
    const share = policy ? refundableShare(policy.id, msBeforeStart) : 0;
    const hasPaymentMethod = (await this.payments.listPaymentMethods(ctx.organizationId)).length > 0;
    // Issue 24: gift-card and credit money the order used is refunded first, and needs no card.
    const walletPaid = order ? (await this.wallet.orderMoneyUses(ctx.organizationId, order.id)).reduce((sum, use) => sum + use.cents, 0) : 0;
    // The one request rule (libs/contracts), asked as the refund itself asks it (all that is left):
    // to the card, and as store credit (no payment method needed, refunds an order paid by wallet money).
    const request = order ? { order: refundRuleOrder(order), wallet_paid_cents: walletPaid } : null;
    const refusal = request ? refundRefusal({ ...request, has_payment_method: hasPaymentMethod }) : null;
    const creditRefusal = request ? refundRefusal({ ...request, refund_to: 'store_credit' }) : null;
    const remaining = order ? Math.max(0, order.totalCents - order.refundedCents) : 0;
    const refundable = order && (refusal === null || refusal.code === 'no_payment_method' || creditRefusal === null) ? remaining : 0;
    const suggested = Math.min(refundable, Math.round((order?.totalCents ?? 0) * share));
    const splitOf = (refundTo: RefundDestination) =>
      refundSplit({
        total_cents: order?.totalCents ?? 0,
        refunded_cents: order?.refundedCents ?? 0,
        wallet_paid_cents: walletPaid,
        amount_cents: suggested,
        refund_to: refundTo,
      });
    // The membership booking or pack credit that covered it: Remove student gives it back unless the owner keeps it.
    const use = bookingUseOut(await this.wallet.useOfBooking(ctx.organizationId, booking), true);
    return {
      order: order
        ? { order_id: order.id, order_number: order.orderNumber, status: order.status, total: order.totalCents, refunded_amount: order.refundedCents }
        : null,
      refundable,
      suggested_amount: suggested,
      share,
      policy: policy ? { id: policy.id, name: policy.name, rule: policy.rule } : null,
      starts_at: context.startsAt.toISOString(),
      has_payment_method: hasPaymentMethod,
      refusal: refusal?.message ?? null,
      credit_refusal: creditRefusal?.message ?? null,
      wallet_paid_cents: walletPaid,
      outcomes: { card: refundDestinationText(splitOf('card')), store_credit: refundDestinationText(splitOf('store_credit')) },
      use,
    };
  }
}
