import { Injectable } from '@nestjs/common';
import type { AnySyncConfig, SyncProviderName } from '@studio/contracts';
import { InProcessEvents } from '../../common/in-process-events';

/** A provider's config_schema was saved: what it was and what it is now (mailing lists backfill on it). */
export type SyncConfigSavedEvent = {
  type: 'sync.config.saved';
  organizationId: string;
  provider: SyncProviderName;
  before: AnySyncConfig;
  after: AnySyncConfig;
};

/** An organization connected a provider (or connected it again), or forgot its connection. */
export type SyncConnectionChangedEvent = {
  type: 'sync.connection.changed';
  organizationId: string;
  provider: SyncProviderName;
  connected: boolean;
};

export type SyncConfigEvent = SyncConfigSavedEvent | SyncConnectionChangedEvent;

/**
 * What the sync settings and connections announce inside the sync module (see InProcessEvents):
 * the mailing lists backfill on a save, and the cached mailing-list switches are dropped on both.
 * In process only: another API process learns of a change when its cache entry expires.
 */
@Injectable()
export class SyncConfigEvents extends InProcessEvents<SyncConfigEvent> {}
