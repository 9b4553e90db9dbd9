import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { SyncConfig } from './entities/sync-config.entity';
import { SyncConnection } from './entities/sync-connection.entity';
import { SyncMapping } from './entities/sync-mapping.entity';
import { SYNC_DRIVERS, SyncDriver } from './drivers/sync-driver';
import { SYNC_JOB_HANDLERS, SyncJobHandler } from './jobs/sync-job.types';
import { SyncJobsService } from './jobs/sync-jobs.service';
import { SyncController, SyncMappingsController } from './sync.controller';
import { SyncConnectionsService } from './sync-connections.service';
import { SyncSettingsService } from './sync-settings.service';
import { TokenCipher } from './token-cipher';

/**
 * Ticketing (Eventbrite), mailing-list (Mailchimp, Klaviyo) and video-meeting (Zoom) providers,
 * laid out like Twenty's calendar import: `entities/` (connections with encrypted tokens, settings,
 * one mapping per synced record with its stage), and, as they come, `drivers/<provider>/`, `jobs/`
 * and `crons/`. Today: the settings and connection state the four panels read and save.
 */
@Module({
  imports: [MikroOrmModule.forFeature([SyncConnection, SyncConfig, SyncMapping])],
  controllers: [SyncController, SyncMappingsController],
  providers: [
    TokenCipher,
    SyncConnectionsService,
    SyncSettingsService,
    SyncJobsService,
    // One driver per provider (drivers/<provider>/); add each driver class to `inject`.
    { provide: SYNC_DRIVERS, inject: [], useFactory: (...drivers: SyncDriver[]) => drivers },
    // Every job handler (jobs/ and drivers/<provider>/); add each handler class to `inject`.
    { provide: SYNC_JOB_HANDLERS, inject: [], useFactory: (...handlers: SyncJobHandler[]) => handlers },
  ],
  exports: [SyncSettingsService, SyncConnectionsService, SyncJobsService],
})
export class SyncModule {}
