import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { SyncConfig } from './entities/sync-config.entity';
import { SyncConnection } from './entities/sync-connection.entity';
import { SyncMapping } from './entities/sync-mapping.entity';
import { SYNC_DRIVERS, SyncDriver } from './drivers/sync-driver';
import { SYNC_JOB_HANDLERS, SyncJobHandler } from './jobs/sync-job.types';
import { SyncJobsService } from './jobs/sync-jobs.service';
import { SyncController } from './sync.controller';
import { SyncConnectionsService } from './sync-connections.service';
import { SyncSettingsService } from './sync-settings.service';
import { TokenCipher } from './token-cipher';
import { CatalogModule } from '../catalog/catalog.module';
import { OrdersModule } from '../orders/orders.module';
import { EventbriteOrdersCron } from './crons/eventbrite-orders.cron';
import { EventbriteEventCancelHandler, EventbriteEventUpsertHandler } from './drivers/eventbrite/eventbrite-event.handlers';
import { EventbriteOrdersService } from './drivers/eventbrite/eventbrite-orders.service';
import { EventbriteDriver } from './drivers/eventbrite/eventbrite.driver';
import {
  ZoomMeetingDeleteHandler,
  ZoomMeetingSummaryHandler,
  ZoomMeetingUpsertHandler,
} from './drivers/zoom/zoom-meeting.handlers';
import { ZoomDriver } from './drivers/zoom/zoom.driver';
import { EventsSyncListener } from './events-sync.listener';
import { PartnersController } from './partners.controller';
import { SyncWebhooksController } from './webhooks.controller';

/**
 * Ticketing (Eventbrite), mailing-list (Mailchimp, Klaviyo) and video-meeting (Zoom) providers,
 * laid out like Twenty's calendar import: `entities/` (connections with encrypted tokens, settings,
 * one mapping per synced record with its stage), and, as they come, `drivers/<provider>/`, `jobs/`
 * and `crons/`. Today: the settings and connection state the four panels read and save.
 */
@Module({
  imports: [MikroOrmModule.forFeature([SyncConnection, SyncConfig, SyncMapping]), CatalogModule, OrdersModule],
  controllers: [SyncController, PartnersController, SyncWebhooksController],
  providers: [
    TokenCipher,
    SyncConnectionsService,
    SyncSettingsService,
    SyncJobsService,
    EventbriteDriver,
    ZoomDriver,
    EventbriteEventUpsertHandler,
    EventbriteEventCancelHandler,
    ZoomMeetingUpsertHandler,
    ZoomMeetingDeleteHandler,
    ZoomMeetingSummaryHandler,
    EventbriteOrdersService,
    EventbriteOrdersCron,
    EventsSyncListener,
    // One driver per provider (drivers/<provider>/); add each driver class to `inject`.
    { provide: SYNC_DRIVERS, inject: [EventbriteDriver, ZoomDriver], useFactory: (...drivers: SyncDriver[]) => drivers },
    // Every job handler (jobs/ and drivers/<provider>/); add each handler class to `inject`.
    {
      provide: SYNC_JOB_HANDLERS,
      inject: [
        EventbriteEventUpsertHandler,
        EventbriteEventCancelHandler,
        ZoomMeetingUpsertHandler,
        ZoomMeetingDeleteHandler,
        ZoomMeetingSummaryHandler,
      ],
      useFactory: (...handlers: SyncJobHandler[]) => handlers,
    },
  ],
  exports: [SyncSettingsService, SyncConnectionsService, SyncJobsService, EventbriteOrdersService],
})
export class SyncModule {}
