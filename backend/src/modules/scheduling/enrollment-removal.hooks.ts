import { Injectable } from '@nestjs/common';
import type { RefundDestination } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';

/** A refund asked for with Remove student: cents and the reason chosen. */
export interface RemovalRefund {
  amountCents: number;
  reason: string;
  /** Where the money goes (issue 24): the card (default) or the student's store credit. */
  refundTo?: RefundDestination;
  /** Give back the membership booking or pack credit the booking used, when the refund is made. */
  returnUse?: boolean;
}

/** What the refund handler knows of the enrollment (or appointment, issue 22) being removed. */
export type RemovalTarget =
  | { enrollmentId: string; appointmentId?: undefined; orderId: string | null }
  | {
      enrollmentId?: undefined;
      /** Remove student on an appointment: cancelled once the refund is made. */
      appointmentId: string;
      orderId: string | null;
      /** Whether the student is mailed that it is cancelled. */
      notify: boolean;
    };

/**
 * Refunds the student's order and removes the enrollment (issue 19: refunds in two steps). Called
 * outside any transaction: the refund is recorded as requested, the provider asked, and the
 * transaction that records the provider's refund removes the enrollment
 * (SeatAdminService.removeRefunded), so a crash at any point is finished by the refund
 * reconciler. A refused refund throws and leaves the student enrolled.
 */
export type RefundOnRemoval = (ctx: RequestContext, target: RemovalTarget, refund: RemovalRefund) => Promise<void>;

/**
 * The inversion that lets Remove student refund without scheduling importing orders (orders
 * imports scheduling): the orders module registers its refund here when it starts, and
 * SeatAdminService.remove calls it for a removal with a refund.
 */
@Injectable()
export class EnrollmentRemovalHooks {
  private refundHandler: RefundOnRemoval | null = null;

  registerRefund(handler: RefundOnRemoval): void {
    this.refundHandler = handler;
  }

  async refund(ctx: RequestContext, target: RemovalTarget, refund: RemovalRefund): Promise<void> {
    if (!this.refundHandler)
      throw new Error('No refund handler is registered (the orders module is not loaded)');
    await this.refundHandler(ctx, target, refund);
  }
}
