import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import { SYNC_MESSAGES as M, SyncProviderName } from '@studio/contracts';
import { ApiError } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import type { DriverAuth } from './drivers/sync-driver';
import { SyncConnection } from './entities/sync-connection.entity';
import { OAuthTokens, SyncOAuthService } from './oauth/sync-oauth.service';
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
/** How long one refresh may take (the token call times out after 15 s): a lease older than this was a process that died. */
const REFRESH_LEASE_MS = 30_000;
/** How often a caller waiting on another's refresh looks for the fresh token. */
const REFRESH_WAIT_MS = 50;

/** A refresh leased to this caller: the row, the lease's end, what to refresh with. */
interface RefreshLease {
  id: string;
  until: Date;
  refreshToken: string;
  metadata: Record<string, string>;
}

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
   * refreshed first when it expires within a minute (Klaviyo, Zoom). One refresh at a time per
   * connection, and none inside a transaction (the provider is an outside call): the refresher
   * takes a lease on the row (`refreshing_until`, under its lock, committed), asks the provider, then
   * stores the new tokens and ends the lease; another caller meanwhile waits for the fresh token (a
   * refresh token is used once: Klaviyo and Zoom rotate it). A lease left by a process that died
   * runs out after REFRESH_LEASE_MS. Throws ProviderNotConnectedError (409) when the organization
   * is not connected; authIfConnected answers null instead.
   */
  async auth(ctx: OrgContext, provider: SyncProviderName): Promise<DriverAuth> {
    const auth = await this.authIfConnected(ctx, provider);
    if (!auth) throw new ProviderNotConnectedError(provider);
    return auth;
  }

  /** As auth, for work that simply does nothing without a connection (an order import, a poll): null then. */
  async authIfConnected(ctx: OrgContext, provider: SyncProviderName): Promise<DriverAuth | null> {
    const deadline = Date.now() + 2 * REFRESH_LEASE_MS;
    for (;;) {
      const current = await this.tokens(ctx, provider);
      if (!current) return null;
      if (!this.expiring(current.expiresAt) || current.refreshToken === null) {
        return { accessToken: current.accessToken, metadata: current.metadata };
      }
      const lease = await this.takeRefreshLease(ctx, provider);
      if (lease === 'gone') return null;
      if (lease === 'fresh') continue;
      if (lease !== 'taken') return this.refreshLeased(provider, lease);
      // Another caller is refreshing: its fresh token is read on the next turn.
      if (Date.now() > deadline) throw new Error(`The ${provider} token refresh of organization ${ctx.organizationId} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, REFRESH_WAIT_MS));
    }
  }

  /** Under the row's lock: the lease of its refresh, or why not (no row, not expiring any more, leased). */
  private takeRefreshLease(ctx: OrgContext, provider: SyncProviderName): Promise<RefreshLease | 'gone' | 'fresh' | 'taken'> {
    return this.em.fork().transactional(async (em) => {
      const row = await em.findOne(
        SyncConnection,
        { organization: ctx.organizationId, provider },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!row) return 'gone'; // forgotten meanwhile
      if (!this.expiring(row.expiresAt) || row.refreshTokenEncrypted === null) return 'fresh';
      const now = Date.now();
      if (row.refreshingUntil && row.refreshingUntil.getTime() > now) return 'taken';
      row.refreshingUntil = new Date(now + REFRESH_LEASE_MS);
      return { id: row.id, until: row.refreshingUntil, refreshToken: this.cipher.decrypt(row.refreshTokenEncrypted), metadata: row.metadata };
    });
  }

  /** The provider asked outside any transaction; its tokens stored if the row still holds the refresh token used. */
  private async refreshLeased(provider: SyncProviderName, lease: RefreshLease): Promise<DriverAuth> {
    let fresh: OAuthTokens;
    try {
      fresh = await this.oauth.refresh(provider, lease.refreshToken);
    } catch (error) {
      await this.em.fork().nativeUpdate(SyncConnection, { id: lease.id, refreshingUntil: lease.until }, { refreshingUntil: null });
      throw error;
    }
    await this.em.fork().transactional(async (em) => {
      const row = await em.findOne(SyncConnection, { id: lease.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      // Forgotten, or connected again with a new grant, meanwhile: the new grant's tokens stay.
      if (!row || row.refreshTokenEncrypted === null || this.cipher.decrypt(row.refreshTokenEncrypted) !== lease.refreshToken) return;
      em.assign(row, {
        accessTokenEncrypted: this.cipher.encrypt(fresh.accessToken),
        refreshTokenEncrypted: fresh.refreshToken === null ? null : this.cipher.encrypt(fresh.refreshToken),
        expiresAt: fresh.expiresAt,
        refreshingUntil: null,
        ...(fresh.scopes.length ? { scopes: fresh.scopes } : {}),
      });
    });
    return { accessToken: fresh.accessToken, metadata: lease.metadata };
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
      refreshingUntil: null,
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
