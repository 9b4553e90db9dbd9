import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { KLAVIYO_SCOPES, SYNC_MESSAGES as M, SyncProviderName } from '@studio/contracts';
import { createHash, randomBytes } from 'node:crypto';
import { SyncConnectionsService } from '../src/modules/sync/sync-connections.service';
import { FakeHttpServer } from '../src/sync-fakes/fake-http';
import { FakeOAuth } from '../src/sync-fakes/fake-oauth';
import { startFakeEventbrite } from '../src/sync-fakes/eventbrite';
import { startFakeKlaviyo } from '../src/sync-fakes/klaviyo';
import { startFakeMailchimp } from '../src/sync-fakes/mailchimp';
import { FakeZoom, startFakeZoom } from '../src/sync-fakes/zoom';
import { startTestApp, TestApp } from './test-app';

/**
 * Connect and Disconnect (issue 11, spec 001 §7) against local fakes of the four providers'
 * OAuth servers, with their real paths and client-auth methods: the state bound to the session,
 * Klaviyo's PKCE, tokens encrypted at rest, refresh of expiring tokens, revocation.
 */
const PROVIDERS: SyncProviderName[] = ['eventbrite', 'mailchimp', 'klaviyo', 'zoom'];
const APP_URL = 'http://studio.test';

const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('sync OAuth (/api/admin/sync/providers/{provider}/authorize|callback|connection)', () => {
  let t: TestApp;
  const servers = {} as Record<SyncProviderName, FakeHttpServer>;
  const fakes = {} as Record<SyncProviderName, FakeOAuth>;
  let zoomFake: FakeZoom;
  let a: { token: string; organizationId: string; email: string };
  let b: { token: string; organizationId: string };

  const http = () => t.http;
  const authorize = (provider: string, body: object = {}, token = a.token) =>
    http().post(`/api/admin/sync/providers/${provider}/authorize`).set('token', token).send(body);
  const callback = (provider: string, body: object, token = a.token) =>
    http().post(`/api/admin/sync/providers/${provider}/callback`).set('token', token).send(body);
  const disconnect = (provider: string, token = a.token) =>
    http().delete(`/api/admin/sync/providers/${provider}/connection`).set('token', token);
  const get = (provider: string, token = a.token) =>
    http().get(`/api/admin/sync/providers/${provider}`).set('token', token);
  const sql = <T = Record<string, unknown>[]>(query: string, params: unknown[] = []) =>
    t.withEm((em) => em.getConnection().execute(query, params as never[])) as Promise<T>;
  const connections = () => t.created.app.get(SyncConnectionsService);
  const inContext = <T>(fn: () => Promise<T>) => OrmContext.create(t.created.app.get(EntityManager), fn);

  /** Clicks Connect, lets the fake approve, and answers what came back to the callback page. */
  const approve = async (provider: SyncProviderName, body: object = {}, token = a.token) => {
    const res = await authorize(provider, body, token).expect(200);
    const url = new URL(res.body.authorize_url as string);
    const back = await fetch(url, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${APP_URL}/admin/integrations/${provider}/callback`);
    return { url, code: location.searchParams.get('code')!, state: location.searchParams.get('state')! };
  };

  beforeAll(async () => {
    const env: Record<string, string> = {
      SYNC_TOKEN_KEY: randomBytes(32).toString('base64'),
      PUBLIC_APP_URL: APP_URL,
    };
    // The providers' own fakes (their OAuth servers with the real paths and client-auth methods,
    // and the identity calls the drivers make right after the exchange).
    const start = { eventbrite: startFakeEventbrite, mailchimp: startFakeMailchimp, klaviyo: startFakeKlaviyo, zoom: startFakeZoom };
    for (const provider of PROVIDERS) {
      const clientId = `${provider}-client`;
      const clientSecret = `${provider}-secret-${randomBytes(4).toString('hex')}`;
      const fake = await start[provider]({ clientId, clientSecret });
      fakes[provider] = fake.oauth;
      if (provider === 'zoom') zoomFake = fake as FakeZoom;
      servers[provider] = fake.server;
      const P = provider.toUpperCase();
      env[`${P}_BASE_URL`] = fake.url;
      env[`${P}_CLIENT_ID`] = clientId;
      env[`${P}_CLIENT_SECRET`] = clientSecret;
    }
    t = await startTestApp(env);
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id, email: ownerA.user.email };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
  }, 120000);
  afterAll(async () => {
    await t?.close();
    await Promise.all(Object.values(servers).map((s) => s.close()));
  });

  it('GET says Connect works (oauth_configured) and names the env vars', async () => {
    const res = await get('zoom').expect(200);
    expect(res.body.provider).toMatchObject({
      connected: false,
      oauth_configured: true,
      env_vars: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET'],
    });
  });

  it.each(['eventbrite', 'mailchimp', 'zoom'] as const)('connects %s end to end, tokens encrypted at rest', async (provider) => {
    const { url, code, state } = await approve(provider);
    expect(url.searchParams.get('code_challenge')).toBeNull();
    const res = await callback(provider, { code, state }).expect(200);
    // The driver named the account right after the exchange (the fake's account).
    expect(res.body.provider).toMatchObject({ name: provider, connected: true, account_name: expect.stringMatching(/\S/) });
    expect((await get(provider).expect(200)).body.provider.connected).toBe(true);

    const [row] = await sql<{ access_token_encrypted: string; refresh_token_encrypted: string | null }[]>(
      `select * from "sync_connection" where "organization_id" = ? and "provider" = ?`,
      [a.organizationId, provider],
    );
    const tokens = await inContext(() => connections().tokens({ organizationId: a.organizationId }, provider));
    const issued = fakes[provider].tokens.get(tokens!.accessToken);
    expect(issued).toBeDefined();
    expect(row.access_token_encrypted).not.toContain(tokens!.accessToken);
    expect(row.refresh_token_encrypted).not.toContain(issued!.refreshToken);
    expect(JSON.stringify(row)).not.toContain(tokens!.accessToken);
    expect(tokens!.expiresAt === null).toBe(provider !== 'zoom');
    // Mailchimp's API host is per account: the metadata call's api_endpoint, kept for later calls.
    if (provider === 'mailchimp') expect(tokens!.metadata.api_endpoint).toBe(servers.mailchimp.url);
  });

  describe('Klaviyo (PKCE S256, spec 001 §7)', () => {
    it('refuses authorize without a challenge, or with one that is not S256-shaped', async () => {
      const res = await authorize('klaviyo').expect(400);
      expect(res.body.message).toBe(M.codeChallengeRequired);
      const bad = await authorize('klaviyo', { code_challenge: 'short' }).expect(400);
      expect(bad.body.errors?.code_challenge ?? bad.body.message).toBe(M.codeChallengeInvalid);
    });

    it('refuses a wrong verifier with a clear 400, changing nothing; the right one then connects', async () => {
      const { verifier, challenge } = pkcePair();
      const { url, code, state } = await approve('klaviyo', { code_challenge: challenge });
      expect(url.searchParams.get('scope')).toBe(KLAVIYO_SCOPES.join(' '));
      expect(url.searchParams.get('scope')).toBe('accounts:read lists:read lists:write profiles:read profiles:write');
      expect(url.searchParams.get('code_challenge')).toBe(challenge);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');

      const wrong = await callback('klaviyo', { code, state, code_verifier: pkcePair().verifier }).expect(400);
      expect(wrong.body.message).toBe(M.exchangeRefused('klaviyo'));
      expect((await get('klaviyo').expect(200)).body.provider.connected).toBe(false);

      const missing = await callback('klaviyo', { code, state }).expect(400);
      expect(missing.body.message).toBe(M.codeVerifierInvalid);

      const ok = await callback('klaviyo', { code, state, code_verifier: verifier }).expect(200);
      expect(ok.body.provider).toMatchObject({ name: 'klaviyo', connected: true });
      const tokens = await inContext(() => connections().tokens({ organizationId: a.organizationId }, 'klaviyo'));
      expect(tokens!.scopes).toEqual([...KLAVIYO_SCOPES]);
      expect(tokens!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    });

    it('refuses a reused state', async () => {
      const { verifier, challenge } = pkcePair();
      const { code, state } = await approve('klaviyo', { code_challenge: challenge });
      await callback('klaviyo', { code, state, code_verifier: verifier }).expect(200);
      const again = await callback('klaviyo', { code, state, code_verifier: verifier }).expect(409);
      expect(again.body.message).toBe(M.stateUsed);
    });
  });

  describe('the state', () => {
    it('refuses a wrong state', async () => {
      const { code } = await approve('eventbrite');
      const res = await callback('eventbrite', { code, state: randomBytes(32).toString('base64url') }).expect(400);
      expect(res.body.message).toBe(M.stateInvalid);
    });

    it("refuses another session's state, which then still works for its own session", async () => {
      const other = await t.login(a.email);
      const { code, state } = await approve('mailchimp');
      const res = await callback('mailchimp', { code, state }, other).expect(400);
      expect(res.body.message).toBe(M.stateInvalid);
      await callback('mailchimp', { code, state }).expect(200);
    });

    it('refuses a state for another provider', async () => {
      const { code, state } = await approve('eventbrite');
      const res = await callback('mailchimp', { code, state }).expect(400);
      expect(res.body.message).toBe(M.stateInvalid);
    });

    it('refuses an expired state (over 10 minutes)', async () => {
      const { code, state } = await approve('zoom');
      const hash = createHash('sha256').update(state).digest('hex');
      await sql(`update "sync_oauth_state" set "created_at" = now() - interval '11 minutes' where "state_hash" = ?`, [hash]);
      const res = await callback('zoom', { code, state }).expect(400);
      expect(res.body.message).toBe(M.stateExpired);
    });

    it('keeps only a hash of the state', async () => {
      const { state } = await approve('eventbrite');
      const rows = await sql<{ state_hash: string }[]>(`select "state_hash" from "sync_oauth_state"`);
      expect(rows.some((r) => r.state_hash === state)).toBe(false);
      expect(rows.some((r) => r.state_hash === createHash('sha256').update(state).digest('hex'))).toBe(true);
    });

    it('bounds the callback body at the schema', async () => {
      const res = await callback('eventbrite', { code: 'x'.repeat(5000), state: 'y' }).expect(400);
      expect(res.body.errors.code).toBe(M.codeInvalid);
      await callback('eventbrite', { code: 'x', state: 'y', extra: 1 }).expect(400);
    });
  });

  describe('tenancy', () => {
    it('another organization sees nothing connected and cannot use the state', async () => {
      const { verifier, challenge } = pkcePair();
      const { code, state } = await approve('klaviyo', { code_challenge: challenge });
      const res = await callback('klaviyo', { code, state, code_verifier: verifier }, b.token).expect(400);
      expect(res.body.message).toBe(M.stateInvalid);
      for (const provider of PROVIDERS) {
        expect((await get(provider, b.token).expect(200)).body.provider).toMatchObject({
          connected: false,
          account_name: null,
        });
      }
      // B's disconnect does not touch A's connection.
      await disconnect('klaviyo', b.token).expect(204);
      expect((await get('klaviyo').expect(200)).body.provider.connected).toBe(true);
    });
  });

  describe('refresh', () => {
    it.each(['klaviyo', 'zoom'] as const)(
      'refreshes an expiring %s token once, even for two callers at once',
      async (provider) => {
        const ctx = { organizationId: a.organizationId };
        const before = await inContext(() => connections().tokens(ctx, provider));
        await sql(`update "sync_connection" set "expires_at" = now() + interval '30 seconds' where "organization_id" = ? and "provider" = ?`, [
          a.organizationId,
          provider,
        ]);
        const refreshes = () =>
          servers[provider].requests.filter((r) => (r.body as Record<string, string> | null)?.grant_type === 'refresh_token').length;
        const count = refreshes();
        const [one, two] = await Promise.all([
          inContext(() => connections().auth(ctx, provider)),
          inContext(() => connections().auth(ctx, provider)),
        ]);
        expect(refreshes()).toBe(count + 1);
        expect(one.accessToken).toBe(two.accessToken);
        expect(one.accessToken).not.toBe(before!.accessToken);
        const fresh = fakes[provider].tokens.get(one.accessToken)!;
        expect(fresh.revoked).toBe(false);
        expect(fakes[provider].tokens.get(before!.accessToken)!.revoked).toBe(true);
        const after = await inContext(() => connections().tokens(ctx, provider));
        expect(after!.refreshToken).toBe(fresh.refreshToken);
        expect(after!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
        // A fresh token is handed out as is.
        expect((await inContext(() => connections().auth(ctx, provider))).accessToken).toBe(one.accessToken);
        expect(refreshes()).toBe(count + 1);
      },
    );

    it('a refresh left unfinished by a process that died is taken over once its lease runs out, and asks the provider once', async () => {
      const ctx = { organizationId: a.organizationId };
      const before = await inContext(() => connections().tokens(ctx, 'zoom'));
      // The token expires, and a refresh is under way (its lease runs for another 300 ms) that will never finish.
      await sql(
        `update "sync_connection" set "expires_at" = now() + interval '30 seconds', "refreshing_until" = now() + interval '300 milliseconds'
          where "organization_id" = ? and "provider" = ?`,
        [a.organizationId, 'zoom'],
      );
      const refreshes = () => servers.zoom.requests.filter((r) => (r.body as Record<string, string> | null)?.grant_type === 'refresh_token').length;
      const count = refreshes();
      const auth = await inContext(() => connections().auth(ctx, 'zoom'));
      expect(auth.accessToken).not.toBe(before!.accessToken);
      expect(refreshes()).toBe(count + 1);
      const [row] = await sql<{ refreshing_until: Date | null }[]>(
        `select "refreshing_until" from "sync_connection" where "organization_id" = ? and "provider" = ?`,
        [a.organizationId, 'zoom'],
      );
      expect(row.refreshing_until).toBeNull();
    });

    it('a refresh the provider refuses (revoked there) says to connect again, and keeps the saved tokens', async () => {
      const ctx = { organizationId: a.organizationId };
      const before = await inContext(() => connections().tokens(ctx, 'zoom'));
      const issued = fakes.zoom.tokens.get(before!.accessToken)!;
      await sql(`update "sync_connection" set "expires_at" = now() + interval '30 seconds' where "organization_id" = ? and "provider" = ?`, [
        a.organizationId,
        'zoom',
      ]);
      issued.revoked = true; // the studio removed the app at Zoom
      try {
        await expect(inContext(() => connections().auth(ctx, 'zoom'))).rejects.toMatchObject({
          status: 409,
          message: M.reconnectRequired('zoom'),
        });
        expect((await inContext(() => connections().tokens(ctx, 'zoom')))!.accessToken).toBe(before!.accessToken);
      } finally {
        issued.revoked = false;
      }
    });

    it('answers 409 when asked for the auth of a provider that is not connected', async () => {
      await expect(inContext(() => connections().auth({ organizationId: b.organizationId }, 'zoom'))).rejects.toMatchObject({
        status: 409,
      });
    });
  });

  describe('disconnect', () => {
    it.each(['klaviyo', 'zoom'] as const)('revokes %s at the provider and forgets the tokens', async (provider) => {
      const ctx = { organizationId: a.organizationId };
      const tokens = await inContext(() => connections().tokens(ctx, provider));
      expect(fakes[provider].tokens.get(tokens!.accessToken)!.revoked).toBe(false);
      await disconnect(provider).expect(204);
      expect(fakes[provider].tokens.get(tokens!.accessToken)!.revoked).toBe(true);
      expect(servers[provider].requests.some((r) => r.path === '/oauth/revoke')).toBe(true);
      expect((await get(provider).expect(200)).body.provider).toMatchObject({ connected: false, account_name: null });
      expect(await sql(`select 1 from "sync_connection" where "organization_id" = ? and "provider" = ?`, [a.organizationId, provider])).toHaveLength(0);
    });

    it.each(['eventbrite', 'mailchimp'] as const)('forgets %s (no revocation endpoint)', async (provider) => {
      await disconnect(provider).expect(204);
      expect((await get(provider).expect(200)).body.provider.connected).toBe(false);
    });

    it('answers 404 for an unknown provider', async () => {
      const res = await disconnect('hubspot').expect(404);
      expect(res.body.message).toBe(M.unknownProvider);
    });
  });

  describe('the account call fails after the exchange', () => {
    it('revokes the fresh tokens at the provider, stores nothing, and answers a clear 502', async () => {
      await disconnect('zoom').expect(204);
      const { code, state } = await approve('zoom');
      const issuedBefore = new Set(fakes.zoom.tokens.keys());
      const revokes = () => servers.zoom.requests.filter((r) => r.path === '/oauth/revoke').length;
      const revokesBefore = revokes();
      // The token exchange succeeds; the driver's account call (GET /v2/users/me) then fails.
      zoomFake.state.rateLimit.next(1, 1);
      const res = await callback('zoom', { code, state }).expect(502);
      expect(res.body.message).toBe(M.providerUnavailable('zoom'));
      const fresh = [...fakes.zoom.tokens.values()].filter((tok) => !issuedBefore.has(tok.accessToken));
      expect(fresh).toHaveLength(1);
      expect(fresh[0].revoked).toBe(true);
      expect(revokes()).toBe(revokesBefore + 1);
      expect((await get('zoom').expect(200)).body.provider.connected).toBe(false);
      expect(await sql(`select 1 from "sync_connection" where "organization_id" = ? and "provider" = 'zoom'`, [a.organizationId])).toHaveLength(0);
    });

    it('still answers the 502 when the revocation itself fails (logged), with nothing stored', async () => {
      const { code, state } = await approve('zoom');
      const revokes = () => servers.zoom.requests.filter((r) => r.path === '/oauth/revoke').length;
      const revokesBefore = revokes();
      zoomFake.state.rateLimit.next(1, 1);
      const before = servers.zoom.before;
      servers.zoom.before = (req) => (req.path === '/oauth/revoke' ? { status: 503, json: { error: 'unavailable' } } : (before?.(req) ?? null));
      try {
        const res = await callback('zoom', { code, state }).expect(502);
        expect(res.body.message).toBe(M.providerUnavailable('zoom'));
      } finally {
        servers.zoom.before = before;
      }
      expect(revokes()).toBe(revokesBefore + 1); // it was tried
      expect((await get('zoom').expect(200)).body.provider.connected).toBe(false);
    });
  });

  describe('not configured', () => {
    it('authorize names the env vars, and GET says oauth_configured false', async () => {
      const saved = { id: t.config.ZOOM_CLIENT_ID, secret: t.config.ZOOM_CLIENT_SECRET };
      delete t.config.ZOOM_CLIENT_ID;
      delete t.config.ZOOM_CLIENT_SECRET;
      try {
        const res = await authorize('zoom').expect(409);
        expect(res.body.message).toBe(M.oauthNotConfigured('zoom', ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET']));
        expect(res.body.message).toContain('ZOOM_CLIENT_ID');
        expect((await get('zoom').expect(200)).body.provider).toMatchObject({
          oauth_configured: false,
          env_vars: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET'],
        });
      } finally {
        Object.assign(t.config, { ZOOM_CLIENT_ID: saved.id, ZOOM_CLIENT_SECRET: saved.secret });
      }
    });
  });
});
