import { Injectable } from '@nestjs/common';
import type { AnySyncConfig, SyncProviderName } from '@studio/contracts';
import { InProcessEvents } from '../../common/in-process-events';

/** A provider's config_schema was saved: what it was and what it is now (mailing lists backfill on it). */
export type SyncConfigEvent = {
  type: 'sync.config.saved';
  organizationId: string;
  provider: SyncProviderName;
  before: AnySyncConfig;
  after: AnySyncConfig;
};

/** An organization disconnected a provider (its tokens are forgotten). */
export type SyncDisconnectedEvent = {
  type: 'sync.disconnected';
  organizationId: string;
  provider: SyncProviderName;
};

/** What the sync settings and connections announce inside the sync module (see InProcessEvents). */
@Injectable()
export class SyncConfigEvents extends InProcessEvents<SyncConfigEvent | SyncDisconnectedEvent> {}
