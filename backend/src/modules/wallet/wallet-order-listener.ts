import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderEvents } from '../orders/order-events';
import { WalletService } from './wallet.service';

/**
 * What the wallet does when an order changes (issue 24): an order that ended unpaid (order.failed:
 * its payment page expired, was cancelled or could not start) gives back the gift cards and store
 * credit its checkout used. From the outbox, at least once; each use is returned once.
 */
@Injectable()
export class WalletOrderListener implements OnModuleInit {
  constructor(
    private readonly orderEvents: OrderEvents,
    private readonly wallet: WalletService,
  ) {}

  onModuleInit(): void {
    this.orderEvents.on('order.failed', 'wallet.order-failed', async (e) => {
      await this.wallet.returnUsesOfOrder(e.organizationId, e.orderId);
    });
  }
}
