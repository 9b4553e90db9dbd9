/**
 * What follows a store order written in the checkout's transaction (issue 33, split from
 * store-checkout.service.ts): with something due, the expiry job that settles the order when its
 * payment page runs out; with nothing due, the order announced as paid (points, the confirmation
 * mail, through the outbox); for a booking, the points spent and the booking made now when nothing
 * is due.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LoyaltyLedgerService } from '../../loyalty/loyalty-ledger.service';
import { EnrollmentsService } from '../../scheduling/enrollments.service';
import { Order } from '../entities/order.entity';
import { OrderEvents } from '../order-events';
import { PaymentLinksService } from '../payment-links.service';
import { StoreWalletPayment, type ShownPlan } from '../store-wallet';
import type { Priced } from './checkout-shared';

@Injectable()
export class StoreCheckoutSettle {
  constructor(
    private readonly ledger: LoyaltyLedgerService,
    private readonly orderEvents: OrderEvents,
    private readonly paymentLinks: PaymentLinksService,
    private readonly seats: EnrollmentsService,
    private readonly storeWallet: StoreWalletPayment,
  ) {}

  /** Its expiry job settles the order when the payment page runs out, whatever happens next. */
  awaitPayment(em: EntityManager, organizationId: string, orderId: string, expiresAt: Date): Promise<void> {
    return this.orderEvents.publish(em, {
      type: 'payment_link.created',
      organizationId,
      orderId,
      expiresAt: expiresAt.toISOString(),
      pageDueBy: this.paymentLinks.pageDueBy(),
    });
  }

  /** The order paid now (nothing due): its points earned and its confirmation mailed, from the outbox. */
  async paid(em: EntityManager, organizationId: string, orderId: string, studentId: string, loyaltyPoints: number): Promise<void> {
    await this.orderEvents.publish(em, { type: 'order.paid', organizationId, orderId, studentId, loyaltyPoints });
    await this.orderEvents.publish(em, { type: 'store_order.paid', organizationId, orderId });
  }

  /**
   * The rest of a booking's checkout transaction, once its seats or time are held for the order:
   * the points spent, under the student's ledger lock (a balance spent meanwhile is 409 and the whole
   * checkout rolls back); then, with something due, the expiry job that settles the order at the
   * hold's end whatever happens next; with nothing due, the booking made now (convertHold: the seats
   * or the appointment) and announced as paid (points, the confirmation mail).
   */
  async booking(
    em: EntityManager,
    order: Order,
    studentId: string,
    priced: Priced,
    shown: ShownPlan,
    pointsStudentId: string | null,
    expiresAt: Date,
  ): Promise<void> {
    const organizationId = order.organization.id;
    const orderId = order.id;
    if (pointsStudentId && priced.pointsRedeemed > 0)
      await this.ledger.redeemForOrder(em, organizationId, studentId, orderId, priced.pointsRedeemed);
    if (shown.plan.due_cents > 0) return this.awaitPayment(em, organizationId, orderId, expiresAt);
    const booked = await this.seats.convertHold({ organizationId }, em, orderId);
    // A membership's booking or a pack's credits, used for the booking made now (once per booking).
    await this.storeWallet.useForBooking(em, organizationId, studentId, orderId, shown, {
      ...(booked.outcome === 'enrolled' ? { enrollmentId: booked.enrollmentId } : {}),
      ...(booked.outcome === 'appointment_booked' ? { appointmentId: booked.appointmentId } : {}),
    });
    order.status = 'paid';
    await em.flush();
    await this.paid(em, organizationId, orderId, studentId, 0);
  }
}
