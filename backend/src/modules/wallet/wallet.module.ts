import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrderEventsModule } from '../orders/order-events.module';
import { StudentsModule } from '../students/students.module';
import { WalletBookingService } from './wallet-booking.service';
import { WalletGrantsService } from './wallet-grants.service';
import { WalletOrderListener } from './wallet-order-listener';
import { WalletController } from './wallet.controller';
import { WalletService } from './wallet.service';
import { WalletMemberships } from './wallet-memberships';
import { WalletReadModel } from './wallet-read-model';

/**
 * The wallet (issue 24): what students hold (memberships, class packs, gift cards, store credit)
 * as one ledger per student. It owns wallet_holding and wallet_entry; other modules (products, the
 * store's checkout, refunds) grant, use and return through WalletService, never through its tables.
 * WalletGrantsService grants what a paid store order bought (packs, gift cards) and runs the expiry sweep.
 */
@Module({
  imports: [StudentsModule, OrderEventsModule, NotificationsModule],
  controllers: [WalletController],
  providers: [WalletService, WalletMemberships, WalletReadModel, WalletGrantsService, WalletOrderListener, WalletBookingService],
  exports: [WalletService, WalletGrantsService, WalletBookingService],
})
export class WalletModule {}
