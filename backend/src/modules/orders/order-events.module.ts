import { Module } from '@nestjs/common';
import { OrderEvents } from './order-events';

/**
 * The orders module's announcements on their own, so listeners (loyalty) depend on the events and
 * not on the orders module itself (which depends on products, which depends on loyalty).
 */
@Module({
  providers: [OrderEvents],
  exports: [OrderEvents],
})
export class OrderEventsModule {}
