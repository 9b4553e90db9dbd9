import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrderEventsModule } from '../orders/order-events.module';
import { StudentsModule } from '../students/students.module';
import { LoyaltyOrderListener } from './loyalty-order-listener';
import { LoyaltyBalanceController } from './loyalty-balance.controller';
import { LoyaltyCodesService } from './loyalty-codes.service';
import { LoyaltyLedgerService } from './loyalty-ledger.service';
import { LoyaltyController } from './loyalty.controller';
import { LoyaltyProgram } from './loyalty-program.entity';
import { LoyaltyService } from './loyalty.service';
import { LoyaltyStudentDetail } from './loyalty-student-detail';

/**
 * The loyalty points programme (spec 000 §3, §9). It owns the programme and the students' points
 * ledger; other modules ask it through LoyaltyService, never through its tables.
 */
@Module({
  imports: [MikroOrmModule.forFeature([LoyaltyProgram]), StudentsModule, OrderEventsModule, NotificationsModule],
  controllers: [LoyaltyController, LoyaltyBalanceController],
  providers: [LoyaltyService, LoyaltyLedgerService, LoyaltyCodesService, LoyaltyStudentDetail, LoyaltyOrderListener],
  exports: [LoyaltyService, LoyaltyLedgerService, LoyaltyCodesService],
})
export class LoyaltyModule {}
