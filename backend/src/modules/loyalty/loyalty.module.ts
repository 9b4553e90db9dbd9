import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { LoyaltyController } from './loyalty.controller';
import { LoyaltyProgram } from './loyalty-program.entity';
import { LoyaltyService } from './loyalty.service';

/**
 * The loyalty points programme (spec 000 §3, §9). It owns the programme and, in a later issue, the
 * students' balances; other modules ask it through LoyaltyService, never through its tables.
 */
@Module({
  imports: [MikroOrmModule.forFeature([LoyaltyProgram])],
  controllers: [LoyaltyController],
  providers: [LoyaltyService],
  exports: [LoyaltyService],
})
export class LoyaltyModule {}
