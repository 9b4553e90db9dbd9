import { Module } from '@nestjs/common';
import { ChatAlertsController } from './chat-alerts.controller';
import { ChatAlertsService } from './chat-alerts.service';

/** Email (SMTP) and chat alerts. Email arrives with the orders issue. */
@Module({
  controllers: [ChatAlertsController],
  providers: [ChatAlertsService],
  exports: [ChatAlertsService],
})
export class NotificationsModule {}
