import { MikroOrmModule } from '@mikro-orm/nestjs';
import { WalletModule } from '../wallet/wallet.module';
import { StoreWalletPayment } from './store-wallet';
import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { StudentsModule } from '../students/students.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProductsModule } from '../products/products.module';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionInvoice } from './entities/subscription-invoice.entity';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsService } from './subscriptions.service';
import { SubscriptionCancel } from './subscription-cancel';
import { SubscriptionMembership } from './subscription-membership';
import { OrderActivity } from './entities/order-activity.entity';
import { OrderRefund } from './entities/order-refund.entity';
import { OrderLine } from './entities/order-line.entity';
import { OrderFormSubmission } from './entities/order-form-submission.entity';
import { OrderActivityService } from './order-activity.service';
import { Order } from './entities/order.entity';
import { OrderController, OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import { DirectEnrollService } from './direct-enroll.service';
import { ExternalSalesService } from './external-sales.service';
import { OrderDetailService } from './order-detail.service';
import { OrderListQueryService } from './order-list.query';
import { AppointmentRemovalRefundController, PaymentMethodsController, RefundsController, RemovalRefundController } from './refunds.controller';
import { RefundsService } from './refunds.service';
import { RefundLedger } from './refund-ledger.service';
import { RefundProviderSync } from './refund-provider-sync.service';
import { BookingRefunds } from './booking-refunds.service';
import { RefundQuotes } from './refund-quotes.service';
import { RefundReconciler } from './refund-reconciler';
import { PaymentLinksController } from './payment-links.controller';
import { PaymentLinksService } from './payment-links.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { OrderEventsModule } from './order-events.module';
import { StudentOrdersQuery } from './student-orders.query';
import { StoreCheckoutService } from './store-checkout.service';
import { AppointmentCheckout } from './store-checkout/appointment-checkout';
import { StoreCheckoutPricing } from './store-checkout/checkout-pricing';
import { StoreCheckoutSettle } from './store-checkout/checkout-settle';
import { StoreCheckoutWaiver } from './store-checkout/checkout-waiver';
import { StoreConfirmationMails } from './store-checkout/confirmation-mails';
import { StoreOrderView } from './store-checkout/order-view';
import { StoreOrderWriter } from './store-checkout/order-writer';
import { StoreCheckoutHandlers } from './store-checkout/outbox-handlers';
import { StorePaymentStart } from './store-checkout/payment-start';
import { ProductCheckout } from './store-checkout/product-checkout';
import { SessionCheckout } from './store-checkout/session-checkout';
import { DiscountsModule } from '../discounts/discounts.module';
import { WaiversModule } from '../waivers/waivers.module';
import { LoyaltyModule } from '../loyalty/loyalty.module';
import { SessionCancelController } from './session-cancel.controller';
import { SessionCancelHandler } from './session-cancel.handler';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { BookingLinksModule } from '../booking-links/booking-links.module';

/** Orders: reading orders, the direct-enroll order, payment links, the store's checkout, subscriptions, and the money audit. */
@Module({
  imports: [
    MikroOrmModule.forFeature([Order, OrderLine, OrderFormSubmission, OrderActivity, OrderRefund, Subscription, SubscriptionInvoice]),
    SchedulingModule,
    StudentsModule,
    PaymentsModule,
    NotificationsModule,
    OrganizationsModule,
    ProductsModule,
    OrderEventsModule,
    DiscountsModule,
    WaiversModule,
    LoyaltyModule,
    WalletModule,
    WaitlistModule,
    BookingLinksModule,
  ],
  controllers: [
    OrdersController,
    OrderController,
    PaymentLinksController,
    RefundsController,
    RemovalRefundController,
    AppointmentRemovalRefundController,
    PaymentMethodsController,
    SubscriptionsController,
    SessionCancelController,
  ],
  providers: [
    OrdersService,
    DirectEnrollService,
    ExternalSalesService,
    OrderDetailService,
    OrderListQueryService,
    OrderActivityService,
    StudentOrdersQuery,
    PaymentLinksService,
    PaymentSettlementService,
    RefundsService,
    RefundLedger,
    RefundProviderSync,
    BookingRefunds,
    RefundQuotes,
    RefundReconciler,
    SubscriptionsService,
    SubscriptionCancel,
    SubscriptionMembership,
    StoreCheckoutService,
    // The store checkout's parts (issue 33): the flows, and the jobs they compose.
    SessionCheckout,
    AppointmentCheckout,
    ProductCheckout,
    StoreCheckoutPricing,
    StoreOrderWriter,
    StoreCheckoutSettle,
    StorePaymentStart,
    StoreCheckoutWaiver,
    StoreOrderView,
    StoreConfirmationMails,
    StoreCheckoutHandlers,
    StoreWalletPayment,
    SessionCancelHandler,
  ],
  exports: [OrdersService, ExternalSalesService, OrderActivityService, SubscriptionsService, StoreCheckoutService, RefundsService, StoreWalletPayment],
})
export class OrdersModule {}
