import { Injectable } from '@nestjs/common';
import type { AnySyncConfig, SyncProviderName } from '@studio/contracts';
import { InProcessEvents } from '../../common/in-process-events';
import { DurableEvents } from '../../outbox/durable-events';
import { OutboxService } from '../../outbox/outbox.service';

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
 * What the sync settings and connections announce inside this process, after the commit (see
 * InProcessEvents): what may be lost. The cached sync switches (SyncSwitches) are dropped on a save
 * and on a connection change (another API process learns of a change when its cache entry
 * expires), and `sync.disconnecting` lets listeners undo what they set up at the provider while the
 * tokens still work. What must follow a change is on SyncChangeEvents.
 */
@Injectable()
export class SyncConfigEvents extends InProcessEvents<SyncEvent> {}

/** The changes whose effects must not be lost: a settings save, a connection made or forgotten. */
export type SyncChangeEvent = SyncConfigSavedEvent | Extract<SyncConnectionEvent, { type: 'sync.connected' | 'sync.disconnected' }>;

/**
 * What must follow a sync settings save or a connection change, published in its transaction (the
 * outbox): the mailing lists' backfill, the Eventbrite webhook's registration and the poll
 * schedule. In order per organization and provider; listeners only enqueue, and are idempotent.
 */
@Injectable()
export class SyncChangeEvents extends DurableEvents<SyncChangeEvent> {
  constructor(outbox: OutboxService) {
    super(outbox, (e) => `${e.organizationId}:${e.provider}`);
  }
}
