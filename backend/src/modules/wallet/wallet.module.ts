import { Module } from '@nestjs/common';
import { OrderEventsModule } from '../orders/order-events.module';
import { StudentsModule } from '../students/students.module';
import { WalletBookingService } from './wallet-booking.service';
import { WalletOrderListener } from './wallet-order-listener';
import { WalletController } from './wallet.controller';
import { WalletService } from './wallet.service';

/**
 * The wallet (issue 24): what students hold (memberships, class packs, gift cards, store credit)
 * as one ledger per student. It owns wallet_holding and wallet_entry; other modules (products, the
 * store's checkout, refunds) grant, use and return through WalletService, never through its tables.
 */
@Module({
  imports: [StudentsModule, OrderEventsModule],
  controllers: [WalletController],
  providers: [WalletService, WalletOrderListener, WalletBookingService],
  exports: [WalletService, WalletBookingService],
})
export class WalletModule {}
