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

/**
 * A connection's life: `sync.connected` once stored (also a reconnect), `sync.disconnecting` while
 * its tokens are still there (listeners undo what they set up at the provider, best effort, and
 * must not throw), `sync.disconnected` once they are forgotten.
 */
export type SyncConnectionEvent = {
  [T in 'sync.connected' | 'sync.disconnecting' | 'sync.disconnected']: {
    type: T;
    organizationId: string;
    provider: SyncProviderName;
  };
}['sync.connected' | 'sync.disconnecting' | 'sync.disconnected'];

/** What the sync settings and connections announce inside the sync module (see InProcessEvents). */
@Injectable()
export class SyncConfigEvents extends InProcessEvents<SyncConfigEvent | SyncConnectionEvent> {}
