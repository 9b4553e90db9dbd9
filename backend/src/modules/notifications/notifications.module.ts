import { Module } from '@nestjs/common';

/** Email (SMTP) and chat alerts. Its boundary is set now; later issues fill it in. */
@Module({})
export class NotificationsModule {}
