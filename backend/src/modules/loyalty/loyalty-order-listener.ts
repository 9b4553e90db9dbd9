import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderEvents } from '../orders/order-events';
import { LoyaltyLedgerService } from './loyalty-ledger.service';
import { LoyaltyService } from './loyalty.service';

/**
 * Points follow orders (issue 10): a paid order earns its product lines' points (once, however often
 * the payment is announced), a full refund takes them back, and when that refund then fails at the
 * provider they are given back; points redeemed at the store's checkout are given back when its
 * order fails or is refunded in full. Only while the programme is active for earning; a reversal and its
 * restoring apply whenever the order had earned.
 */
@Injectable()
export class LoyaltyOrderListener implements OnModuleInit {
  constructor(
    private readonly events: OrderEvents,
    private readonly ledger: LoyaltyLedgerService,
    private readonly loyalty: LoyaltyService,
  ) {}

  onModuleInit(): void {
    this.events.on('order.paid', 'loyalty', async (e) => {
      if (e.loyaltyPoints > 0 && (await this.loyalty.isActive(e.organizationId))) {
        await this.ledger.earnForOrder(e.organizationId, e.studentId, e.orderId, e.loyaltyPoints);
      }
    });
    this.events.on('order.refunded', 'loyalty', async (e) => {
      // A booking cancelled by its policy with part of its price back (issue 23): the points it
      // redeemed come back in the same proportion, once per refund.
      if (!e.full && e.orderTotalCents && e.orderTotalCents > 0)
        await this.ledger.returnRedemptionPart(e.organizationId, e.orderId, e.refundId, e.amountCents / e.orderTotalCents);
      if (!e.full) return;
      await this.ledger.reverseForOrder(e.organizationId, e.studentId, e.orderId, e.refundId);
      // The points it redeemed at the store's checkout come back too (each step once per order).
      await this.ledger.returnRedemption(e.organizationId, e.orderId);
    });
    // Points redeemed at the store's checkout come back when the order fails (and when it is refunded
    // in full, above): once per order, a replay gives nothing more.
    this.events.on('order.failed', 'loyalty.redemption', async (e) => {
      await this.ledger.returnRedemption(e.organizationId, e.orderId);
    });
    this.events.on('order.refund_failed', 'loyalty', async (e) => {
      if (e.wasFull) await this.ledger.restoreForOrder(e.organizationId, e.studentId, e.orderId, e.refundId);
    });
  }
}
