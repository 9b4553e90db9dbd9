import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { AnySyncConfig, SyncProviderName } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/** A provider's config_schema settings for one organization (spec 001 §3), validated by the provider's zod schema. */
@Entity({ tableName: 'sync_config' })
@Unique({ name: 'sync_config_organization_provider_unique', properties: ['organization', 'provider'] })
export class SyncConfig {
  [OptionalProps]?: 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  provider!: SyncProviderName;

  @Property({ type: 'jsonb' })
  config!: AnySyncConfig;

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
