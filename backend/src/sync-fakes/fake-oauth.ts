import { createHash, randomBytes } from 'node:crypto';
import { FakeHttpServer, FakeRequest, FakeResponse } from './fake-http';

/*
 * A provider's OAuth 2.0 authorization server, mounted on its fake (RFC 6749 code flow, RFC 7636
 * PKCE S256 where the provider requires it, RFC 7009-style revocation where it has one). The
 * authorize page approves at once and redirects back with the code and the state, as the
 * provider's consent page would after the user clicks Allow.
 */

export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
  paths: { authorize: string; token: string; revoke?: string };
  /** Klaviyo: a code_challenge (S256) is required, and the code_verifier checked at the exchange. */
  pkce?: boolean;
  /** Access token lifetime; omitted: tokens never expire (Eventbrite, Mailchimp). */
  expiresInSeconds?: number;
  /** How the client authenticates at the token endpoint. */
  clientAuth: 'basic' | 'post' | 'either';
  /** Scopes granted when the request names none. */
  defaultScope?: string;
}

interface IssuedCode {
  redirectUri: string;
  challenge: string | null;
  scope: string;
  used: boolean;
}

export interface IssuedToken {
  accessToken: string;
  refreshToken: string;
  scope: string;
  expiresAt: number | null;
  revoked: boolean;
}

export interface FakeOAuth {
  /** Every token ever issued, by access token. */
  tokens: Map<string, IssuedToken>;
  /** The authorize requests received (their query), for tests to check scopes and the challenge. */
  authorizeRequests: URLSearchParams[];
  /** Answers 401 unless the bearer is a live token of this server. */
  requireToken(req: FakeRequest): FakeResponse | null;
  /** Makes every issued token expire now (to test refresh). */
  expireAll(): void;
}

const b64url = (buf: Buffer) => buf.toString('base64url');

export function mountFakeOAuth(server: FakeHttpServer, options: FakeOAuthOptions): FakeOAuth {
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, IssuedToken>();
  const byRefresh = new Map<string, IssuedToken>();
  const authorizeRequests: URLSearchParams[] = [];

  const issue = (scope: string): IssuedToken => {
    const token: IssuedToken = {
      accessToken: `${server.name}_at_${b64url(randomBytes(18))}`,
      refreshToken: `${server.name}_rt_${b64url(randomBytes(18))}`,
      scope,
      expiresAt: options.expiresInSeconds ? Date.now() + options.expiresInSeconds * 1000 : null,
      revoked: false,
    };
    tokens.set(token.accessToken, token);
    byRefresh.set(token.refreshToken, token);
    return token;
  };

  const tokenAnswer = (t: IssuedToken): FakeResponse => ({
    json: {
      access_token: t.accessToken,
      token_type: 'bearer',
      refresh_token: t.refreshToken,
      scope: t.scope,
      ...(options.expiresInSeconds ? { expires_in: options.expiresInSeconds } : {}),
    },
    headers: { 'cache-control': 'no-store' },
  });

  const error = (status: number, code: string, description: string): FakeResponse => ({
    status,
    json: { error: code, error_description: description },
  });

  /** The client's credentials, from HTTP Basic or from the form, as the provider accepts them. */
  const clientOk = (req: FakeRequest): boolean => {
    const form = (req.body ?? {}) as Record<string, string>;
    const basic = String(req.headers.authorization ?? '');
    if (options.clientAuth !== 'post' && /^basic\s+/i.test(basic)) {
      const [id, secret] = Buffer.from(basic.replace(/^basic\s+/i, ''), 'base64').toString().split(':');
      return decodeURIComponent(id) === options.clientId && decodeURIComponent(secret ?? '') === options.clientSecret;
    }
    if (options.clientAuth !== 'basic') {
      return form.client_id === options.clientId && form.client_secret === options.clientSecret;
    }
    return false;
  };

  server.route('GET', options.paths.authorize, (req) => {
    authorizeRequests.push(req.query);
    const q = req.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== options.clientId || !redirectUri) {
      return { status: 400, text: '<h1>Unknown application</h1>' };
    }
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (q.get('response_type') !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
      return { redirect: back.toString() };
    }
    const challenge = q.get('code_challenge');
    if (options.pkce && (!challenge || q.get('code_challenge_method') !== 'S256')) {
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', 'code_challenge with S256 is required');
      return { redirect: back.toString() };
    }
    const code = b64url(randomBytes(18));
    codes.set(code, {
      redirectUri,
      challenge: challenge ?? null,
      scope: q.get('scope') ?? options.defaultScope ?? '',
      used: false,
    });
    back.searchParams.set('code', code);
    return { redirect: back.toString() };
  });

  server.route('POST', options.paths.token, (req) => {
    const form = (req.body ?? {}) as Record<string, string>;
    if (!clientOk(req)) return error(401, 'invalid_client', 'Client authentication failed');
    if (form.grant_type === 'authorization_code') {
      const issued = codes.get(form.code ?? '');
      if (!issued || issued.used) return error(400, 'invalid_grant', 'Unknown or used code');
      if (issued.redirectUri !== form.redirect_uri) return error(400, 'invalid_grant', 'redirect_uri mismatch');
      if (issued.challenge !== null) {
        const verifier = form.code_verifier ?? '';
        const expected = b64url(createHash('sha256').update(verifier).digest());
        if (!verifier || expected !== issued.challenge) {
          return error(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
        }
      }
      issued.used = true;
      return tokenAnswer(issue(issued.scope));
    }
    if (form.grant_type === 'refresh_token') {
      const old = byRefresh.get(form.refresh_token ?? '');
      if (!old || old.revoked) return error(400, 'invalid_grant', 'Unknown refresh token');
      old.revoked = true;
      byRefresh.delete(old.refreshToken);
      return tokenAnswer(issue(old.scope));
    }
    return error(400, 'unsupported_grant_type', `grant_type ${form.grant_type ?? ''} is not supported`);
  });

  if (options.paths.revoke) {
    server.route('POST', options.paths.revoke, (req) => {
      if (!clientOk(req)) return error(401, 'invalid_client', 'Client authentication failed');
      const value = String(((req.body ?? {}) as Record<string, string>).token ?? '');
      const token = tokens.get(value) ?? byRefresh.get(value);
      if (token) token.revoked = true;
      return { status: 200, json: {} };
    });
  }

  return {
    tokens,
    authorizeRequests,
    requireToken(req) {
      const token = req.bearer ? tokens.get(req.bearer) : undefined;
      if (!token || token.revoked) return { status: 401, json: { error: 'invalid_token' } };
      if (token.expiresAt !== null && token.expiresAt <= Date.now()) {
        return { status: 401, json: { error: 'invalid_token', error_description: 'expired' } };
      }
      return null;
    },
    expireAll() {
      for (const t of tokens.values()) t.expiresAt = Date.now() - 1;
    },
  };
}
