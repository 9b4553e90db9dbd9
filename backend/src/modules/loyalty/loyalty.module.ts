import { Module } from '@nestjs/common';

/** The loyalty points programme and student balances. Its boundary is set now; later issues fill it in. */
@Module({})
export class LoyaltyModule {}
