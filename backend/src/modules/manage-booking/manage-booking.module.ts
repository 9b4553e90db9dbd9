import { WalletModule } from '../wallet/wallet.module';
import { Module } from '@nestjs/common';
import { BookingLinksModule } from '../booking-links/booking-links.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrdersModule } from '../orders/orders.module';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { PublicRateLimitGuard } from '../storefront/public-rate-limit.guard';
import { StoreGuard } from '../storefront/store.guard';
import { StorefrontModule } from '../storefront/storefront.module';
import { AdminBookingController, PublicBookingController } from './manage-booking.controller';
import { ManageBookingService } from './manage-booking.service';
import { BookingMovedMailer } from './booking-moved.mailer';

/**
 * After the booking (issue 23): the manage link's page and the student's cancel and reschedule, the
 * admin's Cancel booking, Modify booking and Move students, and the moved booking's mail.
 */
@Module({
  imports: [SchedulingModule, OrdersModule, StorefrontModule, BookingLinksModule, NotificationsModule, WalletModule],
  controllers: [PublicBookingController, AdminBookingController],
  providers: [ManageBookingService, BookingMovedMailer, PublicRateLimitGuard, StoreGuard],
  exports: [ManageBookingService],
})
export class ManageBookingModule {}
