import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { SYNC_MESSAGES as M, SyncProviderName } from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import type { DriverAuth } from './drivers/sync-driver';
import { SyncConnection } from './entities/sync-connection.entity';
import { SyncOAuthService } from './oauth/sync-oauth.service';
import { SyncChangeEvents, SyncConfigEvents } from './sync-config-events';
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
 * The organization has no connection to the provider: a 409 with the contracts' message for an
 * admin call, and a permanent failure for a job (SyncJobsService: retrying cannot connect it).
 */
export class ProviderNotConnectedError extends ApiError {
  constructor(readonly provider: SyncProviderName) {
    super(HttpStatus.CONFLICT, M.notConnected(provider));
  }
}

/** A token that expires within this margin is refreshed before it is handed out. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * Whether a new grant is for the account already connected: every identity key the provider's
 * identify call answered (Eventbrite's user_id, Klaviyo's account_id, Mailchimp's api_endpoint)
 * has the stored value. A provider that answers none (Zoom) is the same account.
 */
export function sameAccount(stored: Record<string, string>, identified: Record<string, string>): boolean {
  return Object.entries(identified).every(([key, value]) => stored[key] === value);
}

/**
 * The account each organization connected per provider. Tokens go in and out of here only: they
 * are encrypted before they reach the entity and decrypted when a driver asks for them.
 */
@Injectable()
export class SyncConnectionsService {
  constructor(
    private readonly em: EntityManager,
    private readonly cipher: TokenCipher,
    private readonly oauth: SyncOAuthService,
    private readonly events: SyncConfigEvents,
    private readonly changes: SyncChangeEvents,
  ) {}

  /**
   * The one place drivers, jobs and admin calls get a provider's token: the access token,
   * refreshed first when it expires within a minute (Klaviyo, Zoom). The refresh holds the
   * connection row's lock (select … for update), so two jobs never refresh at once: the second one
   * waits and then reads the fresh token. Throws ProviderNotConnectedError (409) when the
   * organization is not connected; authIfConnected answers null instead.
   */
  async auth(ctx: OrgContext, provider: SyncProviderName): Promise<DriverAuth> {
    const auth = await this.authIfConnected(ctx, provider);
    if (!auth) throw new ProviderNotConnectedError(provider);
    return auth;
  }

  /** As auth, for work that simply does nothing without a connection (an order import, a poll): null then. */
  async authIfConnected(ctx: OrgContext, provider: SyncProviderName): Promise<DriverAuth | null> {
    const current = await this.tokens(ctx, provider);
    if (!current) return null;
    if (!this.expiring(current.expiresAt) || current.refreshToken === null) {
      return { accessToken: current.accessToken, metadata: current.metadata };
    }
    return this.em.fork().transactional(async (em) => {
      const row = await em.findOne(
        SyncConnection,
        { organization: ctx.organizationId, provider },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!row) return null; // forgotten meanwhile
      if (!this.expiring(row.expiresAt) || row.refreshTokenEncrypted === null) {
        return { accessToken: this.cipher.decrypt(row.accessTokenEncrypted), metadata: row.metadata };
      }
      const fresh = await this.oauth.refresh(provider, this.cipher.decrypt(row.refreshTokenEncrypted));
      em.assign(row, {
        accessTokenEncrypted: this.cipher.encrypt(fresh.accessToken),
        refreshTokenEncrypted: fresh.refreshToken === null ? null : this.cipher.encrypt(fresh.refreshToken),
        expiresAt: fresh.expiresAt,
        ...(fresh.scopes.length ? { scopes: fresh.scopes } : {}),
      });
      return { accessToken: fresh.accessToken, metadata: row.metadata };
    });
  }

  private expiring(expiresAt: Date | null): boolean {
    return expiresAt !== null && expiresAt.getTime() - Date.now() < REFRESH_MARGIN_MS;
  }

  find(ctx: OrgContext, provider: SyncProviderName): Promise<SyncConnection | null> {
    return this.em.findOne(SyncConnection, { organization: ctx.organizationId, provider });
  }

  /** Saves (or replaces) the organization's connection to the provider, tokens encrypted. */
  async store(ctx: OrgContext, provider: SyncProviderName, grant: ConnectionGrant): Promise<SyncConnection> {
    const metadata = grant.metadata ?? {};
    const fields = {
      accountName: grant.accountName,
      accessTokenEncrypted: this.cipher.encrypt(grant.accessToken),
      refreshTokenEncrypted: grant.refreshToken === null ? null : this.cipher.encrypt(grant.refreshToken),
      scopes: grant.scopes,
      expiresAt: grant.expiresAt,
    };
    const existing = await this.find(ctx, provider);
    // A reconnect of the same account keeps what the jobs recorded on the connection (Eventbrite's
    // webhook id): the deliveries of that webhook stay accepted, with no gap until a reconcile.
    // Another account is let go first, while its tokens are still the stored ones (its webhook is
    // deleted at the provider, as on Disconnect), and starts from its own metadata.
    const same = existing ? sameAccount(existing.metadata ?? {}, metadata) : false;
    if (existing && !same) await this.events.emit({ type: 'sync.disconnecting', organizationId: ctx.organizationId, provider });
    const connection = await this.em.transactional(async (em) => {
      const stored = existing ? await em.findOne(SyncConnection, { id: existing.id }, { refresh: true }) : null;
      let row: SyncConnection;
      if (stored) {
        em.assign(stored, { ...fields, metadata: same ? { ...stored.metadata, ...metadata } : metadata, connectedAt: new Date() });
        row = stored;
      } else {
        row = em.create(SyncConnection, {
          organization: em.getReference(Organization, ctx.organizationId),
          provider,
          ...fields,
          metadata,
        });
      }
      await em.flush();
      // With the connection (the outbox): the Eventbrite webhook and polls follow it.
      await this.changes.publish(em as EntityManager, { type: 'sync.connected', organizationId: ctx.organizationId, provider });
      return row;
    });
    await this.changed(ctx, provider, true);
    return connection;
  }

  /**
   * The connection's life in this process, after the commit (SyncConfigEvents): the cached switches
   * are dropped. What must follow it was published on SyncChangeEvents with the change.
   */
  private changed(ctx: OrgContext, provider: SyncProviderName, connected: boolean): Promise<void> {
    return this.events.emit({
      type: connected ? 'sync.connected' : 'sync.disconnected',
      organizationId: ctx.organizationId,
      provider,
    });
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

  /**
   * Sets (a string) or removes (null) keys of the connection's metadata in one statement, leaving
   * the others and the tokens as they are. Answers false when the organization is not connected.
   */
  async updateMetadata(ctx: OrgContext, provider: SyncProviderName, patch: Record<string, string | null>): Promise<boolean> {
    const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null));
    const remove = Object.keys(patch).filter((k) => patch[k] === null);
    const rows = await this.em.getConnection().execute<{ id: string }[]>(
      `update sync_connection set metadata = (metadata || ?::jsonb)${remove.map(() => ' - ?').join('')}, updated_at = now()
        where organization_id = ? and provider = ? returning id`,
      [JSON.stringify(set), ...remove, ctx.organizationId, provider],
    );
    return rows.length > 0;
  }

  /** Forgets the organization's connection to the provider (SyncConnectService revokes first). */
  async forget(ctx: OrgContext, provider: SyncProviderName): Promise<void> {
    await this.em.transactional(async (em) => {
      await em.nativeDelete(SyncConnection, { organization: ctx.organizationId, provider });
      await this.changes.publish(em as EntityManager, { type: 'sync.disconnected', organizationId: ctx.organizationId, provider });
    });
    await this.changed(ctx, provider, false);
  }
}
