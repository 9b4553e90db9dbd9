import { Global, Module } from '@nestjs/common';
import { OutboxService } from './outbox.service';

/** The transactional outbox every module announces through (see OutboxService). */
@Global()
@Module({
  providers: [OutboxService],
  exports: [OutboxService],
})
export class OutboxModule {}
