import { Module } from '@nestjs/common';

/** Orders, payments, refunds, subscriptions and payment links. Its boundary is set now; later issues fill it in. */
@Module({})
export class OrdersModule {}
