/**
 * What follows a paid store order, from the outbox (issue 33, split from store-checkout.service.ts):
 * store_order.paid → the confirmation mail, the subscription a subscription product's checkout
 * started, and the discount code's use counted. Each at least once, in effect once (the mail's key,
 * the subscription's checkout session, the code's use per order).
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscountsService } from '../../discounts/discounts.service';
import { ProductsService } from '../../products/products.service';
import { OrderLine } from '../entities/order-line.entity';
import { Order } from '../entities/order.entity';
import { OrderEvents } from '../order-events';
import { SubscriptionsService } from '../subscriptions.service';
import { StoreConfirmationMails } from './confirmation-mails';

@Injectable()
export class StoreCheckoutHandlers implements OnModuleInit {
  constructor(
    private readonly em: EntityManager,
    private readonly orderEvents: OrderEvents,
    private readonly mails: StoreConfirmationMails,
    private readonly products: ProductsService,
    private readonly subscriptions: SubscriptionsService,
    private readonly discounts: DiscountsService,
  ) {}

  onModuleInit(): void {
    // The confirmation follows the move to paid (the outbox): at least once, mailed once (its key).
    this.orderEvents.on('store_order.paid', 'orders.store-confirmation', (e) => this.mails.confirm(e.organizationId, e.orderId));
    // A subscription product's paid order: the subscription its checkout started.
    this.orderEvents.on('store_order.paid', 'orders.store-subscription', (e) => this.startSubscription(e.organizationId, e.orderId));
    // A paid store order that used a code counts in the code's uses (once per order).
    this.orderEvents.on('store_order.paid', 'orders.store-discount-use', (e) => this.countDiscountUse(e.organizationId, e.orderId));
  }

  /** store_order.paid of a subscription product: the subscription its checkout started (once). */
  private async startSubscription(organizationId: string, orderId: string): Promise<void> {
    const em = this.em.fork();
    const order = await em.findOne(Order, { id: orderId, organization: organizationId });
    if (!order?.checkoutSessionId) return;
    const line = await em.findOne(OrderLine, { order: order.id, kind: 'product' });
    if (!line?.productId) return;
    const sold = await this.products.soldProduct(organizationId, line.productId, line.productPriceId ?? null);
    const price = sold?.price;
    if (!price || price.category !== 'subscription' || !price.renewalIntervalUnit) return;
    await this.subscriptions.startFromCheckout({
      organizationId,
      orderId: order.id,
      studentId: order.student.id,
      productId: line.productId,
      productPriceId: price.id,
      planName: line.description,
      amountCents: line.unitPriceCents,
      intervalUnit: price.renewalIntervalUnit,
      intervalCount: price.renewalIntervalQuantity ?? 1,
      checkoutSessionId: order.checkoutSessionId,
      paymentIntentId: order.paymentIntentId ?? null,
      receiptUrl: order.receiptUrl ?? null,
    });
  }

  /** store_order.paid: the code the order used counts one more use (once per order). */
  private async countDiscountUse(organizationId: string, orderId: string): Promise<void> {
    const order = await this.em.fork().findOne(Order, { id: orderId, organization: organizationId });
    if (order?.discountCodeId) await this.discounts.countOrderUse(organizationId, order.discountCodeId, order.id);
  }
}
