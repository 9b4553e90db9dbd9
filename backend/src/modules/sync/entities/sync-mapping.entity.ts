import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { SyncLocalType, SyncProviderName, SyncStage } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/**
 * One synced record and provider: the local id, the provider's id once created (so a create is
 * never repeated), where it stands, and its last failure. `localId` is a plain id: the record
 * belongs to another module.
 */
@Entity({ tableName: 'sync_mapping' })
@Unique({
  name: 'sync_mapping_record_unique',
  properties: ['organization', 'provider', 'localType', 'localId'],
})
export class SyncMapping {
  [OptionalProps]?:
    'remoteId' | 'action' | 'stage' | 'lastError' | 'attempts' | 'version' | 'lastSyncedAt' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  provider!: SyncProviderName;

  @Property({ type: 'text' })
  localType!: SyncLocalType;

  @Property({ type: 'uuid' })
  localId!: string;

  @Property({ type: 'text', nullable: true })
  remoteId: string | null = null;

  /** The last job's action (`student.upsert`, …): what Retry enqueues again. */
  @Property({ type: 'text', nullable: true })
  action: string | null = null;

  @Property({ type: 'text' })
  stage: SyncStage = 'pending';

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'integer' })
  attempts: number = 0;

  /** Bumped by each change enqueued while the record is not already waiting; part of the job id. */
  @Property({ type: 'integer' })
  version: number = 0;

  @Property({ type: 'timestamptz', nullable: true })
  lastSyncedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
