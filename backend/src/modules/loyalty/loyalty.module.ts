import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { OrderEventsModule } from '../orders/order-events.module';
import { StudentsModule } from '../students/students.module';
import { LoyaltyOrderListener } from './loyalty-order-listener';
import { LoyaltyBalanceController } from './loyalty-balance.controller';
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
  imports: [MikroOrmModule.forFeature([LoyaltyProgram]), StudentsModule, OrderEventsModule],
  controllers: [LoyaltyController, LoyaltyBalanceController],
  providers: [LoyaltyService, LoyaltyLedgerService, LoyaltyStudentDetail, LoyaltyOrderListener],
  exports: [LoyaltyService, LoyaltyLedgerService],
})
export class LoyaltyModule {}
