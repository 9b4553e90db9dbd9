import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { SyncProviderName } from '@studio/contracts';
import type { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { SyncConnection } from './entities/sync-connection.entity';
import { TokenCipher } from './token-cipher';

export interface ConnectionGrant {
  accountName: string | null;
  accessToken: string;
  refreshToken: string | null;
  scopes: string[];
  expiresAt: Date | null;
  /** Non-secret details later calls need (see SyncConnection.metadata). */
  metadata?: Record<string, string>;
}

export interface ConnectionTokens {
  accessToken: string;
  refreshToken: string | null;
  scopes: string[];
  expiresAt: Date | null;
  metadata: Record<string, string>;
}

type OrgContext = Pick<RequestContext, 'organizationId'>;

/**
 * The account each organization connected per provider. Tokens go in and out of here only: they
 * are encrypted before they reach the entity and decrypted when a driver asks for them.
 */
@Injectable()
export class SyncConnectionsService {
  constructor(
    private readonly em: EntityManager,
    private readonly cipher: TokenCipher,
  ) {}

  find(ctx: OrgContext, provider: SyncProviderName): Promise<SyncConnection | null> {
    return this.em.findOne(SyncConnection, { organization: ctx.organizationId, provider });
  }

  /** Saves (or replaces) the organization's connection to the provider, tokens encrypted. */
  async store(ctx: OrgContext, provider: SyncProviderName, grant: ConnectionGrant): Promise<SyncConnection> {
    const fields = {
      accountName: grant.accountName,
      accessTokenEncrypted: this.cipher.encrypt(grant.accessToken),
      refreshTokenEncrypted: grant.refreshToken === null ? null : this.cipher.encrypt(grant.refreshToken),
      scopes: grant.scopes,
      expiresAt: grant.expiresAt,
      metadata: grant.metadata ?? {},
    };
    const existing = await this.find(ctx, provider);
    if (existing) {
      this.em.assign(existing, { ...fields, connectedAt: new Date() });
      await this.em.flush();
      return existing;
    }
    const connection = this.em.create(SyncConnection, {
      organization: this.em.getReference(Organization, ctx.organizationId),
      provider,
      ...fields,
    });
    await this.em.persistAndFlush(connection);
    return connection;
  }

  /** The connection's tokens in clear, for a driver's call; null when not connected. */
  async tokens(ctx: OrgContext, provider: SyncProviderName): Promise<ConnectionTokens | null> {
    const connection = await this.find(ctx, provider);
    if (!connection) return null;
    return {
      accessToken: this.cipher.decrypt(connection.accessTokenEncrypted),
      refreshToken:
        connection.refreshTokenEncrypted === null
          ? null
          : this.cipher.decrypt(connection.refreshTokenEncrypted),
      scopes: connection.scopes,
      expiresAt: connection.expiresAt,
      metadata: connection.metadata,
    };
  }

  /** Forgets the organization's connection to the provider (revoking comes with the drivers). */
  async forget(ctx: OrgContext, provider: SyncProviderName): Promise<void> {
    await this.em.nativeDelete(SyncConnection, { organization: ctx.organizationId, provider });
  }
}
