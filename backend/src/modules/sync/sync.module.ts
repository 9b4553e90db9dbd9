import { Module } from '@nestjs/common';

/** Ticketing, mailing-list and video-meeting providers: OAuth, settings and sync workers. Its boundary is set now; later issues fill it in. */
@Module({})
export class SyncModule {}
