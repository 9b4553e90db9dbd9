import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { SYNC_MESSAGES as M, syncCallbackPath, SyncProviderName } from '@studio/contracts';
import { createHash, randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { ApiError } from '../../../common/api-error';
import type { RequestContext } from '../../../common/request-context';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.schema';
import { SYNC_DRIVERS, SyncDriver } from '../drivers/sync-driver';
import { SyncConfigEvents } from '../sync-config-events';
import { SyncConnectionsService } from '../sync-connections.service';
import { providerUsesPkce, SyncOAuthService } from './sync-oauth.service';

type SessionContext = Pick<RequestContext, 'organizationId' | 'sessionId'>;

/** How long a Connect click stays good. */
export const OAUTH_STATE_TTL_MINUTES = 10;

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

interface StateRow {
  id: string;
  organization_id: string;
  provider: SyncProviderName;
  session_id: string;
  redirect_uri: string;
  used_at: Date | null;
  expired: boolean;
}

/**
 * Connect and Disconnect. The OAuth `state` is random, kept only as its SHA-256, bound to the
 * organization, the provider and the signed-in session; a callback claims it once, within
 * OAUTH_STATE_TTL_MINUTES. A refused callback changes nothing.
 */
@Injectable()
export class SyncConnectService {
  private readonly logger = new Logger('SyncConnect');

  constructor(
    private readonly em: EntityManager,
    private readonly oauthFlows: SyncOAuthService,
    private readonly connections: SyncConnectionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(SYNC_DRIVERS) private readonly drivers: SyncDriver[] | null,
    private readonly events: SyncConfigEvents,
  ) {}

  /** The provider's authorize URL for this session (Klaviyo: with the browser's S256 challenge). */
  async authorize(
    ctx: SessionContext,
    provider: SyncProviderName,
    input: { codeChallenge?: string; requestOrigin: string },
  ): Promise<string> {
    const pkce = providerUsesPkce(provider);
    const redirectUri = `${(this.config.PUBLIC_APP_URL ?? input.requestOrigin).replace(/\/+$/, '')}${syncCallbackPath(provider)}`;
    const state = oauth.generateRandomState();
    // Builds (and checks configuration and the challenge) before anything is stored.
    const url = this.oauthFlows.authorizationUrl(provider, {
      state,
      redirectUri,
      codeChallenge: pkce ? input.codeChallenge : undefined,
    });
    const sql = this.em.getConnection();
    await sql.execute(
      `delete from "sync_oauth_state" where "created_at" < now() - interval '1 day'`,
    );
    await sql.execute(
      `insert into "sync_oauth_state" ("id", "state_hash", "organization_id", "provider", "session_id", "redirect_uri", "pkce")
       values (?, ?, ?, ?, ?, ?, ?)`,
      [randomUUID(), hashState(state), ctx.organizationId, provider, ctx.sessionId, redirectUri, pkce],
    );
    return url;
  }

  /**
   * The provider sent the browser back: check the state, exchange the code, read the account
   * (the provider's driver, when there is one) and store the connection, tokens encrypted.
   */
  async callback(
    ctx: SessionContext,
    provider: SyncProviderName,
    input: { code: string; state: string; codeVerifier?: string },
  ): Promise<void> {
    const row = await this.claim(ctx, provider, input.state);
    let tokens;
    try {
      tokens = await this.oauthFlows.exchange(provider, {
        code: input.code,
        state: input.state,
        redirectUri: row.redirect_uri,
        codeVerifier: input.codeVerifier,
      });
    } catch (error) {
      // The provider refused (wrong code or verifier): the attempt stays as it was.
      await this.em.getConnection().execute(`update "sync_oauth_state" set "used_at" = null where "id" = ?`, [row.id]);
      throw error;
    }
    const driver = this.drivers?.find((d) => d.provider === provider);
    let account = { accountName: null as string | null, metadata: {} as Record<string, string> };
    if (driver) {
      try {
        account = await driver.identify(tokens.accessToken);
      } catch (error) {
        this.logger.warn(`${provider} identify failed: ${error instanceof Error ? error.message : String(error)}`);
        // Nothing is stored: the grant just made must not stay live at the provider either.
        await this.revokeQuietly(provider, tokens);
        throw new ApiError(HttpStatus.BAD_GATEWAY, M.providerUnavailable(provider));
      }
    }
    // Announces sync.connected: listeners only enqueue (Eventbrite's webhook registration).
    await this.connections.store(ctx, provider, { ...tokens, accountName: account.accountName, metadata: account.metadata });
  }

  /** Revokes at the provider where it can (Klaviyo, Zoom), then forgets the tokens in every case. */
  async disconnect(ctx: SessionContext, provider: SyncProviderName): Promise<void> {
    const tokens = await this.connections.tokens(ctx, provider);
    // While the tokens still work: Eventbrite's webhook is deleted (best effort, logged).
    if (tokens) await this.events.emit({ type: 'sync.disconnecting', organizationId: ctx.organizationId, provider });
    if (tokens) await this.revokeQuietly(provider, tokens);
    // Announces sync.disconnected: listeners only clean up (the Eventbrite poll's schedule, cached switches).
    await this.connections.forget(ctx, provider);
  }

  /**
   * Revokes the tokens where the provider supports it (Klaviyo, Zoom; a no-op elsewhere). A
   * provider that cannot be reached is logged: it must not keep the organization connected here,
   * nor hide the error the caller answers.
   */
  private async revokeQuietly(
    provider: SyncProviderName,
    tokens: { accessToken: string; refreshToken: string | null },
  ): Promise<void> {
    if (!this.oauthFlows.configured(provider).configured) return;
    try {
      await this.oauthFlows.revoke(provider, tokens);
    } catch (error) {
      this.logger.warn(`${provider} revoke failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Marks the state used, once, for this session, organization and provider, within the TTL. */
  private async claim(ctx: SessionContext, provider: SyncProviderName, state: string): Promise<StateRow> {
    const sql = this.em.getConnection();
    const hash = hashState(state);
    const claimed = await sql.execute<StateRow[]>(
      `update "sync_oauth_state" set "used_at" = now()
       where "state_hash" = ? and "organization_id" = ? and "provider" = ? and "session_id" = ?
         and "used_at" is null and "created_at" > now() - make_interval(mins => ?)
       returning "id", "redirect_uri"`,
      [hash, ctx.organizationId, provider, ctx.sessionId, OAUTH_STATE_TTL_MINUTES],
    );
    if (claimed.length === 1) return claimed[0];
    const [found] = await sql.execute<StateRow[]>(
      `select "organization_id", "provider", "session_id", "used_at",
              "created_at" <= now() - make_interval(mins => ?) as "expired"
       from "sync_oauth_state" where "state_hash" = ?`,
      [OAUTH_STATE_TTL_MINUTES, hash],
    );
    const mine =
      found && found.organization_id === ctx.organizationId && found.session_id === ctx.sessionId && found.provider === provider;
    if (!mine) throw new ApiError(HttpStatus.BAD_REQUEST, M.stateInvalid);
    if (found.used_at) throw new ApiError(HttpStatus.CONFLICT, M.stateUsed);
    if (found.expired) throw new ApiError(HttpStatus.BAD_REQUEST, M.stateExpired);
    throw new ApiError(HttpStatus.BAD_REQUEST, M.stateInvalid);
  }
}

