import { Module } from '@nestjs/common';
import { LoyaltyModule } from '../loyalty/loyalty.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { StoreGuard } from './store.guard';
import { PublicRateLimitGuard } from './public-rate-limit.guard';
import { StoreSlotsController } from './store-slots.controller';
import { StoreWaitlistController } from './store-waitlist.controller';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { StorefrontController } from './storefront.controller';
import { StorefrontService } from './storefront.service';

/** The online store's public API (issue 21): its reads, and the checkout (StoreCheckoutService of orders). */
@Module({
  imports: [OrganizationsModule, OrdersModule, LoyaltyModule, WaitlistModule],
  controllers: [StorefrontController, StoreSlotsController, StoreWaitlistController],
  providers: [StorefrontService, PublicRateLimitGuard, StoreGuard],
  exports: [StorefrontService],
})
export class StorefrontModule {}
