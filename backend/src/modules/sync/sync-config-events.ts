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

/**
 * A connection's life: `sync.connected` once stored (also a reconnect; SyncConnectionsService),
 * `sync.disconnecting` while its tokens are still there (SyncConnectService) (listeners undo what they set up at the provider, best effort, and
 * must not throw), `sync.disconnected` once they are forgotten.
 */
export type SyncConnectionEvent = {
  [T in 'sync.connected' | 'sync.disconnecting' | 'sync.disconnected']: {
    type: T;
    organizationId: string;
    provider: SyncProviderName;
  };
}['sync.connected' | 'sync.disconnecting' | 'sync.disconnected'];

/** Every announcement of SyncConfigEvents: a settings save or a connection's life. Listeners read theirs by `type`. */
export type SyncEvent = SyncConfigSavedEvent | SyncConnectionEvent;

/**
 * What the sync settings and connections announce inside the sync module (see InProcessEvents):
 * the mailing lists backfill on a save, and the cached sync switches (SyncSwitches) are dropped on a save
 * and on a connection change; the Eventbrite webhook and poll schedule follow both. In process
 * only: another API process learns of a change when its cache entry expires.
 */
@Injectable()
export class SyncConfigEvents extends InProcessEvents<SyncEvent> {}
