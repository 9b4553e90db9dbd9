import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { SyncProviderName } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/**
 * The account an organization connected for one provider (one per organization and provider).
 * Tokens are stored only as TokenCipher ciphertext (AES-256-GCM, key from SYNC_TOKEN_KEY): read
 * them through SyncConnectionsService, never from these columns.
 */
@Entity({ tableName: 'sync_connection' })
@Unique({ name: 'sync_connection_organization_provider_unique', properties: ['organization', 'provider'] })
export class SyncConnection {
  [OptionalProps]?:
    'accountName' | 'refreshTokenEncrypted' | 'scopes' | 'expiresAt' | 'metadata' | 'connectedAt' | 'updatedAt' | 'refreshingUntil';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  provider!: SyncProviderName;

  @Property({ type: 'text', nullable: true })
  accountName: string | null = null;

  @Property({ type: 'text' })
  accessTokenEncrypted!: string;

  @Property({ type: 'text', nullable: true })
  refreshTokenEncrypted: string | null = null;

  @Property({ type: 'json' })
  scopes: string[] = [];

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null = null;

  /** A refresh of the tokens under way until then (SyncConnectionsService.authIfConnected), else null. */
  @Property({ type: 'timestamptz', nullable: true })
  refreshingUntil: Date | null = null;

  /**
   * What later calls need besides the token, as the provider told it at connect time (Mailchimp's
   * `api_endpoint`, for example). Never a secret.
   */
  @Property({ type: 'json' })
  metadata: Record<string, string> = {};

  @Property({ type: 'timestamptz' })
  connectedAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
