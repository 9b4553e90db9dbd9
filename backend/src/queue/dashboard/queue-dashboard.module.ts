import { FastifyAdapter } from '@bull-board/fastify';
import { BullBoardModule, BullBoardModuleOptions } from '@bull-board/nestjs';
import { Module } from '@nestjs/common';
import { IdentityModule } from '../../modules/identity/identity.module';
import { OutboxController } from '../../outbox/outbox.controller';
import { QueueDashboardController } from './queue-dashboard.controller';
import { dashboardMiddleware, DASHBOARD_ROUTE, QueueDashboardGate } from './queue-dashboard.gate';

/**
 * The BullMQ dashboard (bull-board) for super admins at /api/admin/queues, entered through a
 * one-time link (QueueDashboardController). With the in-process queue it answers 503 and says why.
 */
@Module({
  imports: [
    IdentityModule,
    BullBoardModule.forRoot({
      route: DASHBOARD_ROUTE,
      // @bull-board/fastify 9.10.1 carries its own @bull-board/api 9.10.1 (we pin 9.10.2): same
      // shape, separately declared types.
      adapter: FastifyAdapter as unknown as BullBoardModuleOptions['adapter'],
      middleware: dashboardMiddleware,
    }),
  ],
  // The outbox's state sits beside the queue dashboard: both are for the platform's operators.
  controllers: [QueueDashboardController, OutboxController],
  providers: [QueueDashboardGate],
})
export class QueueDashboardModule {}
