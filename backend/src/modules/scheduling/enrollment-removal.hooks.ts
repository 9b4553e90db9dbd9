import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';

/** A refund asked for with Remove student: cents and the reason chosen. */
export interface RemovalRefund {
  amountCents: number;
  reason: string;
}

/** What the refund handler knows of the enrollment being removed. */
export interface RemovalTarget {
  enrollmentId: string;
  orderId: string | null;
}

/**
 * Refunds the student's order inside the removal's transaction; throwing rolls the removal back.
 * `em` is that transaction: what the refund announces is published in it (the outbox), so a
 * rolled-back removal announces nothing.
 */
export type RefundOnRemoval = (
  ctx: RequestContext,
  em: EntityManager,
  target: RemovalTarget,
  refund: RemovalRefund,
) => Promise<void>;

/**
 * The inversion that lets Remove student refund without scheduling importing orders (orders
 * imports scheduling): the orders module registers its refund here when it starts, and
 * EnrollmentsService.remove calls it inside the enrollment's lock and transaction.
 */
@Injectable()
export class EnrollmentRemovalHooks {
  private refundHandler: RefundOnRemoval | null = null;

  registerRefund(handler: RefundOnRemoval): void {
    this.refundHandler = handler;
  }

  async refund(
    ctx: RequestContext,
    em: EntityManager,
    target: RemovalTarget,
    refund: RemovalRefund,
  ): Promise<void> {
    if (!this.refundHandler)
      throw new Error('No refund handler is registered (the orders module is not loaded)');
    await this.refundHandler(ctx, em, target, refund);
  }
}
