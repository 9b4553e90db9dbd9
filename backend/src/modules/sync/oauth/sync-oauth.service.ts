import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { KLAVIYO_SCOPES, SYNC_MESSAGES as M, SyncProviderName } from '@studio/contracts';
import * as oauth from 'oauth4webapi';
import { ApiError } from '../../../common/api-error';
import { isRefusal } from '../../../common/domain-error';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.schema';
import { ProviderEndpoints, providerEndpoints } from '../provider-endpoints';

/** Tokens as a provider's token endpoint answers them. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string | null;
  scopes: string[];
  /** null: the token does not expire (Eventbrite, Mailchimp). */
  expiresAt: Date | null;
}

/**
 * How each provider's authorization server wants to be called (their developer documentation):
 * - Eventbrite: code flow, no scopes, client_id/client_secret in the token request's form;
 *   tokens do not expire; no revocation endpoint.
 * - Mailchimp: code flow, no scopes, client credentials in the form; tokens do not expire
 *   (expires_in 0); no revocation endpoint; the account's data centre comes from the metadata call.
 * - Klaviyo: code flow with PKCE S256 and the scopes of spec 001 §7, HTTP Basic client auth at the
 *   token and revoke endpoints; access tokens expire (1 h), refresh tokens rotate.
 * - Zoom: code flow, scopes come from the app's settings, HTTP Basic client auth; access tokens
 *   expire (1 h); revocation at /oauth/revoke.
 */
const PROVIDER_OAUTH: Record<
  SyncProviderName,
  { clientAuth: 'basic' | 'post'; scopes: readonly string[]; pkce: boolean; expires: boolean }
> = {
  eventbrite: { clientAuth: 'post', scopes: [], pkce: false, expires: false },
  mailchimp: { clientAuth: 'post', scopes: [], pkce: false, expires: false },
  klaviyo: { clientAuth: 'basic', scopes: KLAVIYO_SCOPES, pkce: true, expires: true },
  zoom: { clientAuth: 'basic', scopes: [], pkce: false, expires: true },
};

export const providerUsesPkce = (provider: SyncProviderName) => PROVIDER_OAUTH[provider].pkce;
export const providerTokensExpire = (provider: SyncProviderName) => PROVIDER_OAUTH[provider].expires;

/**
 * Mailchimp's token endpoint answers `"scope": null` and `"expires_in": 0` (a token that never
 * expires), sometimes without `token_type`: RFC 6749 wants a string scope or none and a token type.
 * Like requests-oauthlib's Mailchimp compliance fix, the answer is normalised before oauth4webapi
 * reads it (null scope dropped, bearer type filled in); oauth4webapi still makes the request.
 */
async function mailchimpCompliantFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const body = (await response.json()) as Record<string, unknown>;
  if (body.scope === null) delete body.scope;
  if (body.token_type === undefined || body.token_type === null) body.token_type = 'bearer';
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

interface Prepared {
  endpoints: ProviderEndpoints;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  clientAuth: oauth.ClientAuth;
  options: {
    [oauth.allowInsecureRequests]?: boolean;
    [oauth.customFetch]?: (url: string, init: oauth.CustomFetchOptions<'POST', URLSearchParams>) => Promise<Response>;
    signal: AbortSignal;
  };
}

/**
 * The OAuth 2.0 flows of the four providers, through oauth4webapi (no hand-written token requests).
 * Plain http is allowed only when `<PROVIDER>_BASE_URL` points the provider at a local fake;
 * the real hosts are always https.
 */
/**
 * The provider refused to refresh the connection's token (the studio revoked the app there, or the
 * grant expired): a 409 saying to connect again for an admin call, and a permanent failure for a
 * sync job, which retries could not mend.
 */
export class SyncReconnectRequiredError extends ApiError {
  constructor(readonly provider: SyncProviderName) {
    super(HttpStatus.CONFLICT, M.reconnectRequired(provider));
  }
}

@Injectable()
export class SyncOAuthService {
  private readonly logger = new Logger('SyncOAuth');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether the provider's client id and secret are set, and the env vars that set them. */
  configured(provider: SyncProviderName): { configured: boolean; envVars: string[] } {
    const e = providerEndpoints(this.config, provider);
    return { configured: Boolean(e.clientId && e.clientSecret), envVars: [...e.envVars] };
  }

  /** The provider's authorize page, with the state (and the PKCE challenge for Klaviyo). */
  authorizationUrl(
    provider: SyncProviderName,
    input: { state: string; redirectUri: string; codeChallenge?: string },
  ): string {
    const { endpoints, client } = this.prepare(provider);
    const url = new URL(endpoints.authorize);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('state', input.state);
    const { scopes, pkce } = PROVIDER_OAUTH[provider];
    if (scopes.length) url.searchParams.set('scope', scopes.join(' '));
    if (pkce) {
      if (!input.codeChallenge) throw new ApiError(HttpStatus.BAD_REQUEST, M.codeChallengeRequired);
      url.searchParams.set('code_challenge', input.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
    }
    return url.toString();
  }

  /** Exchanges the code (with the verifier for Klaviyo). A refusal is a 400, never a 500. */
  async exchange(
    provider: SyncProviderName,
    input: { code: string; state: string; redirectUri: string; codeVerifier?: string },
  ): Promise<OAuthTokens> {
    const p = this.prepare(provider);
    const pkce = PROVIDER_OAUTH[provider].pkce;
    if (pkce && !input.codeVerifier) throw new ApiError(HttpStatus.BAD_REQUEST, M.codeVerifierInvalid);
    return this.call(provider, 'exchange', async () => {
      const params = oauth.validateAuthResponse(
        p.as,
        p.client,
        new URLSearchParams({ code: input.code, state: input.state }),
        input.state,
      );
      const response = await oauth.authorizationCodeGrantRequest(
        p.as,
        p.client,
        p.clientAuth,
        params,
        input.redirectUri,
        pkce ? input.codeVerifier! : oauth.nopkce,
        p.options,
      );
      return this.tokens(provider, await oauth.processAuthorizationCodeResponse(p.as, p.client, response));
    });
  }

  /** A new access token from the refresh token (Klaviyo and Zoom rotate the refresh token too). */
  async refresh(provider: SyncProviderName, refreshToken: string): Promise<OAuthTokens> {
    const p = this.prepare(provider);
    return this.call(provider, 'refresh', async () => {
      const response = await oauth.refreshTokenGrantRequest(p.as, p.client, p.clientAuth, refreshToken, p.options);
      const answer = await oauth.processRefreshTokenResponse(p.as, p.client, response);
      const tokens = this.tokens(provider, answer);
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    });
  }

  /**
   * Revokes the tokens where the provider has a revocation endpoint (Klaviyo, Zoom); a provider
   * without one (Eventbrite, Mailchimp) is a no-op. Answers whether anything was revoked.
   */
  async revoke(provider: SyncProviderName, tokens: { accessToken: string; refreshToken: string | null }): Promise<boolean> {
    const p = this.prepare(provider);
    if (!p.as.revocation_endpoint) return false;
    // Revoking the refresh token ends the grant (and its access tokens) at Klaviyo; Zoom revokes by access token.
    const token = provider === 'klaviyo' && tokens.refreshToken ? tokens.refreshToken : tokens.accessToken;
    await this.call(provider, 'revoke', async () => {
      const response = await oauth.revocationRequest(p.as, p.client, p.clientAuth, token, {
        ...p.options,
        additionalParameters: { token_type_hint: token === tokens.accessToken ? 'access_token' : 'refresh_token' },
      });
      await oauth.processRevocationResponse(response);
    });
    return true;
  }

  private tokens(provider: SyncProviderName, answer: oauth.TokenEndpointResponse): OAuthTokens {
    const expiresIn = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : null;
    return {
      accessToken: answer.access_token,
      refreshToken: typeof answer.refresh_token === 'string' ? answer.refresh_token : null,
      scopes: answer.scope ? answer.scope.split(/\s+/).filter(Boolean) : [...PROVIDER_OAUTH[provider].scopes],
      expiresAt: expiresIn === null ? null : new Date(Date.now() + expiresIn * 1000),
    };
  }

  /** Maps the provider's refusals to clear 4xx/502 answers. */
  private async call<T>(provider: SyncProviderName, kind: 'exchange' | 'refresh' | 'revoke', fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isRefusal(error)) throw error;
      if (error instanceof oauth.ResponseBodyError && (error.error === 'invalid_grant' || error.error === 'invalid_request')) {
        // A refused refresh token was revoked or has expired at the provider: no retry can help.
        if (kind === 'refresh') throw new SyncReconnectRequiredError(provider);
        throw new ApiError(HttpStatus.BAD_REQUEST, M.exchangeRefused(provider));
      }
      if (error instanceof oauth.AuthorizationResponseError) {
        throw new ApiError(HttpStatus.BAD_REQUEST, M.exchangeRefused(provider));
      }
      this.logger.warn(`${provider} OAuth call failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ApiError(HttpStatus.BAD_GATEWAY, M.providerUnavailable(provider));
    }
  }

  private prepare(provider: SyncProviderName): Prepared {
    const endpoints = providerEndpoints(this.config, provider);
    if (!endpoints.clientId || !endpoints.clientSecret) {
      throw new ApiError(HttpStatus.CONFLICT, M.oauthNotConfigured(provider, endpoints.envVars));
    }
    const fake = Boolean(this.config[`${provider.toUpperCase() as Uppercase<SyncProviderName>}_BASE_URL`]);
    const as: oauth.AuthorizationServer = {
      issuer: new URL(endpoints.authorize).origin,
      authorization_endpoint: endpoints.authorize,
      token_endpoint: endpoints.token,
      ...(endpoints.revoke ? { revocation_endpoint: endpoints.revoke } : {}),
    };
    const { clientAuth } = PROVIDER_OAUTH[provider];
    return {
      endpoints,
      as,
      client: { client_id: endpoints.clientId },
      clientAuth:
        clientAuth === 'basic' ? oauth.ClientSecretBasic(endpoints.clientSecret) : oauth.ClientSecretPost(endpoints.clientSecret),
      options: {
        ...(fake ? { [oauth.allowInsecureRequests]: true } : {}),
        ...(provider === 'mailchimp' ? { [oauth.customFetch]: mailchimpCompliantFetch } : {}),
        signal: AbortSignal.timeout(15000),
      },
    };
  }
}
