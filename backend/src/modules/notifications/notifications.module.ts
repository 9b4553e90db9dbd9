import { Module } from '@nestjs/common';
import { ChatAlertsController } from './chat-alerts.controller';
import { ChatAlertsService } from './chat-alerts.service';
import { MailService } from './mail.service';

/** Email (SMTP, or .eml files in an outbox folder) and chat alerts, both sent by queue jobs. */
@Module({
  controllers: [ChatAlertsController],
  providers: [ChatAlertsService, MailService],
  exports: [ChatAlertsService, MailService],
})
export class NotificationsModule {}
