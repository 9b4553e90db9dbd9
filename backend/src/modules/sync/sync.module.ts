import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { StudentsModule } from '../students/students.module';
import { KlaviyoDriver } from './drivers/klaviyo/klaviyo.driver';
import { KlaviyoStudentsBatchHandler, KlaviyoStudentUpsertHandler } from './drivers/klaviyo/klaviyo.jobs';
import { MailchimpDriver } from './drivers/mailchimp/mailchimp.driver';
import {
  MailchimpStudentsBatchHandler,
  MailchimpStudentUpsertHandler,
} from './drivers/mailchimp/mailchimp.jobs';
import { MailingListSync } from './jobs/mailing-list-sync';
import { SyncChangeEvents, SyncConfigEvents } from './sync-config-events';
import { SyncSwitches } from './sync-switches';
import { SyncConfig } from './entities/sync-config.entity';
import { SyncConnection } from './entities/sync-connection.entity';
import { SyncMapping } from './entities/sync-mapping.entity';
import { SYNC_DRIVERS, SyncDriver } from './drivers/sync-driver';
import { SYNC_JOB_HANDLERS, SyncJobHandler } from './jobs/sync-job.types';
import { SyncJobsService } from './jobs/sync-jobs.service';
import { SyncConnectService } from './oauth/sync-connect.service';
import { SyncOAuthController } from './oauth/sync-oauth.controller';
import { SyncOAuthService } from './oauth/sync-oauth.service';
import { SyncConflictsController, SyncController, SyncMappingsController } from './sync.controller';
import { SyncConnectionsService } from './sync-connections.service';
import { SyncSettingsService } from './sync-settings.service';
import { TokenCipher } from './token-cipher';
import { CatalogModule } from '../catalog/catalog.module';
import { OrdersModule } from '../orders/orders.module';
import { EventbriteOrdersCron } from './crons/eventbrite-orders.cron';
import { EventbriteEventCancelHandler, EventbriteEventUpsertHandler } from './drivers/eventbrite/eventbrite-event.handlers';
import { EventbriteOrdersService } from './drivers/eventbrite/eventbrite-orders.service';
import { EventbriteWebhooksService } from './drivers/eventbrite/eventbrite-webhooks.service';
import { EventbriteDriver } from './drivers/eventbrite/eventbrite.driver';
import {
  ZoomAppointmentMeetingDeleteHandler,
  ZoomAppointmentMeetingUpsertHandler,
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
  imports: [
    MikroOrmModule.forFeature([SyncConnection, SyncConfig, SyncMapping]),
    StudentsModule,
    SchedulingModule,
    CatalogModule,
    OrdersModule,
  ],
  controllers: [SyncController, SyncMappingsController, SyncConflictsController, SyncOAuthController, PartnersController, SyncWebhooksController],
  providers: [
    TokenCipher,
    SyncOAuthService,
    SyncConnectService,
    SyncConnectionsService,
    SyncSettingsService,
    SyncJobsService,
    SyncConfigEvents,
    SyncChangeEvents,
    SyncSwitches,
    MailingListSync,
    MailchimpDriver,
    KlaviyoDriver,
    MailchimpStudentUpsertHandler,
    MailchimpStudentsBatchHandler,
    KlaviyoStudentUpsertHandler,
    KlaviyoStudentsBatchHandler,
    EventbriteDriver,
    ZoomDriver,
    EventbriteEventUpsertHandler,
    EventbriteEventCancelHandler,
    ZoomMeetingUpsertHandler,
    ZoomMeetingDeleteHandler,
    ZoomMeetingSummaryHandler,
    ZoomAppointmentMeetingUpsertHandler,
    ZoomAppointmentMeetingDeleteHandler,
    EventbriteOrdersService,
    EventbriteOrdersCron,
    EventbriteWebhooksService,
    EventsSyncListener,
    // One driver per provider (drivers/<provider>/); add each driver class to `inject`.
    {
      provide: SYNC_DRIVERS,
      inject: [EventbriteDriver, MailchimpDriver, KlaviyoDriver, ZoomDriver],
      useFactory: (...drivers: SyncDriver[]) => drivers,
    },
    // Every job handler (jobs/ and drivers/<provider>/); add each handler class to `inject`.
    {
      provide: SYNC_JOB_HANDLERS,
      inject: [
        MailchimpStudentUpsertHandler,
        MailchimpStudentsBatchHandler,
        KlaviyoStudentUpsertHandler,
        KlaviyoStudentsBatchHandler,
        EventbriteEventUpsertHandler,
        EventbriteEventCancelHandler,
        ZoomMeetingUpsertHandler,
        ZoomMeetingDeleteHandler,
        ZoomMeetingSummaryHandler,
        ZoomAppointmentMeetingUpsertHandler,
        ZoomAppointmentMeetingDeleteHandler,
      ],
      useFactory: (...handlers: SyncJobHandler[]) => handlers,
    },
  ],
  exports: [SyncSettingsService, SyncConnectionsService, SyncJobsService, EventbriteOrdersService],
})
export class SyncModule {}
