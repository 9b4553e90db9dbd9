import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { SyncConfig } from './entities/sync-config.entity';
import { SyncConnection } from './entities/sync-connection.entity';
import { SyncMapping } from './entities/sync-mapping.entity';
import { SyncConnectService } from './oauth/sync-connect.service';
import { SyncOAuthController } from './oauth/sync-oauth.controller';
import { SyncOAuthService } from './oauth/sync-oauth.service';
import { SyncController } from './sync.controller';
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
  controllers: [SyncController, SyncOAuthController],
  providers: [TokenCipher, SyncOAuthService, SyncConnectionsService, SyncSettingsService, SyncConnectService],
  exports: [SyncSettingsService, SyncConnectionsService],
})
export class SyncModule {}
