import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES, SYNC_CONFIG_DEFAULTS, SYNC_MESSAGES as M } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { SyncConnectionsService } from '../src/modules/sync/sync-connections.service';
import { startTestApp, TestApp } from './test-app';

/**
 * Sync settings (spec 001 §3, §7): each provider's GET answer, the PUT's per-provider fields, the
 * unknown provider's 404, tenancy, and the connection tokens encrypted at rest.
 */
/** Without client credentials (none are set here), each provider names its OAuth env vars. */
const envVarsOf = (provider: string) => [`${provider.toUpperCase()}_CLIENT_ID`, `${provider.toUpperCase()}_CLIENT_SECRET`];

describe('sync settings (/api/admin/sync/providers)', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };

  const get = (provider: string, token = a.token) =>
    t.http.get(`/api/admin/sync/providers/${provider}`).set('token', token);
  const put = (body: object, token = a.token) =>
    t.http.put('/api/admin/sync/providers/config_schema').set('token', token).send(body);
  const connections = () => t.created.app.get(SyncConnectionsService);
  const inContext = <T>(fn: () => Promise<T>) => OrmContext.create(t.created.app.get(EntityManager), fn);

  beforeAll(async () => {
    t = await startTestApp({ SYNC_TOKEN_KEY: randomBytes(32).toString('base64') });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const staffB = await t.organizationWithUser('staff', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: staffB.token, organizationId: staffB.organization.id };
  }, 120000);
  afterAll(() => t.close());

  describe('GET a provider', () => {
    it('answers Eventbrite not connected, its defaults, an empty organization list and no sale conflicts', async () => {
      const res = await get('eventbrite').expect(200);
      expect(res.body).toEqual({
        provider: {
          name: 'eventbrite',
          connected: false,
          account_name: null,
          connected_at: null,
          oauth_configured: false,
          env_vars: envVarsOf('eventbrite'),
          config_schema: SYNC_CONFIG_DEFAULTS.eventbrite,
          last_synced_at: null,
          failures: [],
          failures_total: 0,
        },
        organizations: [],
        conflicts: [],
        conflicts_total: 0,
      });
    });

    it.each(['mailchimp', 'klaviyo'] as const)(
      'answers %s with its lists (empty until connected)',
      async (provider) => {
        const res = await get(provider).expect(200);
        expect(res.body).toEqual({
          provider: {
            name: provider,
            connected: false,
            account_name: null,
            connected_at: null,
            oauth_configured: false,
            env_vars: envVarsOf(provider),
            config_schema: { list_id: null, sync_all_customers: false },
            last_synced_at: null,
            failures: [],
            failures_total: 0,
          },
          lists: [],
        });
      },
    );

    it('answers Zoom with meeting_summary only, and neither organizations nor lists', async () => {
      const res = await get('zoom').expect(200);
      expect(res.body).toEqual({
        provider: {
          name: 'zoom',
          connected: false,
          account_name: null,
          connected_at: null,
          oauth_configured: false,
          env_vars: envVarsOf('zoom'),
          config_schema: { meeting_summary: false },
          last_synced_at: null,
          failures: [],
          failures_total: 0,
        },
      });
    });

    it('answers 404 with a clear message for an unknown provider', async () => {
      const res = await get('hubspot').expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: M.unknownProvider });
      await get('config_schema').expect(404);
    });

    it('needs a signed-in caller', async () => {
      await t.http.get('/api/admin/sync/providers/zoom').expect(401);
      await t.http
        .put('/api/admin/sync/providers/config_schema')
        .send({ provider_name: 'zoom', meeting_summary: true })
        .expect(401);
    });
  });

  describe('PUT config_schema', () => {
    it('saves Eventbrite settings and answers the saved provider', async () => {
      const res = await put({
        provider_name: 'eventbrite',
        organization_id: '1234567890',
        sync_all_courses: true,
        sync_all_enrollments: true,
      }).expect(200);
      expect(res.body.provider.config_schema).toEqual({
        organization_id: '1234567890',
        sync_all_courses: true,
        sync_all_enrollments: true,
      });
      expect((await get('eventbrite').expect(200)).body.provider.config_schema).toEqual(
        res.body.provider.config_schema,
      );
    });

    it('keeps the fields a save leaves out', async () => {
      await put({ provider_name: 'mailchimp', list_id: 'a1b2c3d4e5', sync_all_customers: true }).expect(200);
      const res = await put({ provider_name: 'mailchimp', sync_all_customers: false }).expect(200);
      expect(res.body.provider.config_schema).toEqual({ list_id: 'a1b2c3d4e5', sync_all_customers: false });
      const cleared = await put({ provider_name: 'mailchimp', list_id: null }).expect(200);
      expect(cleared.body.provider.config_schema).toEqual({ list_id: null, sync_all_customers: false });
    });

    it('saves Klaviyo and Zoom settings', async () => {
      expect(
        (await put({ provider_name: 'klaviyo', list_id: 'XyZ123', sync_all_customers: true }).expect(200))
          .body,
      ).toEqual({
        provider: {
          name: 'klaviyo',
          connected: false,
          account_name: null,
          connected_at: null,
          oauth_configured: false,
          env_vars: envVarsOf('klaviyo'),
          config_schema: { list_id: 'XyZ123', sync_all_customers: true },
          last_synced_at: null,
          failures: [],
          failures_total: 0,
        },
        lists: [],
      });
      expect(
        (await put({ provider_name: 'zoom', meeting_summary: true }).expect(200)).body.provider.config_schema,
      ).toEqual({ meeting_summary: true });
    });

    it('two saves at once, of different fields, both stay (and a first save never collides)', async () => {
      const other = await t.organizationWithUser('owner', 'Gamma Wood');
      const [first, second] = await Promise.all([
        put({ provider_name: 'klaviyo', list_id: 'GammaList' }, other.token),
        put({ provider_name: 'klaviyo', sync_all_customers: true }, other.token),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect((await get('klaviyo', other.token).expect(200)).body.provider.config_schema).toEqual({
        list_id: 'GammaList',
        sync_all_customers: true,
      });
    });

    it('refuses sync_all_enrollments false with a clear 400 and changes nothing', async () => {
      const before = (await get('eventbrite').expect(200)).body.provider.config_schema;
      const res = await put({
        provider_name: 'eventbrite',
        sync_all_courses: false,
        sync_all_enrollments: false,
      }).expect(400);
      expect(res.body).toEqual({
        statusCode: 400,
        message: MESSAGES.common.validationFailed,
        errors: { sync_all_enrollments: M.enrollmentsAlwaysSynced },
      });
      expect((await get('eventbrite').expect(200)).body.provider.config_schema).toEqual(before);
    });

    it.each([
      ['eventbrite', { list_id: 'abc' }, 'list_id'],
      ['eventbrite', { meeting_summary: true }, 'meeting_summary'],
      ['mailchimp', { organization_id: '123' }, 'organization_id'],
      ['mailchimp', { sync_all_courses: true }, 'sync_all_courses'],
      ['klaviyo', { meeting_summary: true }, 'meeting_summary'],
      ['zoom', { list_id: 'abc' }, 'list_id'],
      ['zoom', { sync_all_customers: true }, 'sync_all_customers'],
    ])("%s refuses another provider's field %j", async (provider, fields, field) => {
      const res = await put({ provider_name: provider, ...fields }).expect(400);
      expect(res.body.errors).toEqual({ [field]: `Unknown field: ${field}` });
    });

    it.each([
      [{ provider_name: 'hubspot', list_id: 'abc' }, 'provider_name', M.providerRequired],
      [{ list_id: 'abc' }, 'provider_name', M.providerRequired],
      [{ provider_name: 'klaviyo', list_id: 'x'.repeat(65) }, 'list_id', M.remoteIdInvalid],
      [
        { provider_name: 'klaviyo', list_id: 'a\u0000b' },
        'list_id',
        'Text cannot contain control characters such as NUL.',
      ],
      [{ provider_name: 'eventbrite', organization_id: '12 34' }, 'organization_id', M.remoteIdInvalid],
      [{ provider_name: 'zoom', meeting_summary: 'yes' }, 'meeting_summary', M.toggleInvalid],
    ])('refuses %j', async (body, field, message) => {
      const res = await put(body).expect(400);
      expect(res.body.errors).toEqual({ [field]: message });
    });
  });

  describe('tenancy', () => {
    it("one organization's settings and connection are invisible to another", async () => {
      await put({ provider_name: 'zoom', meeting_summary: true }).expect(200);
      await inContext(() =>
        connections().store(a, 'zoom', {
          accountName: 'Alpha Zoom',
          accessToken: 'alpha-access',
          refreshToken: null,
          scopes: [],
          expiresAt: null,
        }),
      );
      expect((await get('zoom').expect(200)).body.provider).toMatchObject({
        connected: true,
        account_name: 'Alpha Zoom',
        config_schema: { meeting_summary: true },
      });
      expect((await get('zoom', b.token).expect(200)).body.provider).toEqual({
        name: 'zoom',
        connected: false,
        account_name: null,
        connected_at: null,
        oauth_configured: false,
        env_vars: envVarsOf('zoom'),
        config_schema: { meeting_summary: false },
        last_synced_at: null,
        failures: [],
        failures_total: 0,
      });
      await put({ provider_name: 'zoom', meeting_summary: false }, b.token).expect(200);
      expect((await get('zoom').expect(200)).body.provider.config_schema).toEqual({ meeting_summary: true });
      expect(await inContext(() => connections().tokens(b, 'zoom'))).toBeNull();
    });
  });

  describe('connection tokens', () => {
    it('are encrypted in the database and decrypted by the service', async () => {
      const expiresAt = new Date('2030-01-01T00:00:00.000Z');
      await inContext(() =>
        connections().store(a, 'klaviyo', {
          accountName: 'Alpha Klaviyo',
          accessToken: 'klaviyo-access-token-plaintext',
          refreshToken: 'klaviyo-refresh-token-plaintext',
          scopes: ['accounts:read', 'lists:read'],
          expiresAt,
        }),
      );
      const rows = await t.withEm((em) =>
        em
          .getConnection()
          .execute<{ access_token_encrypted: string; refresh_token_encrypted: string }[]>(
            `select * from "sync_connection" where "organization_id" = ? and "provider" = 'klaviyo'`,
            [a.organizationId],
          ),
      );
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows[0]);
      expect(stored).not.toContain('plaintext');
      expect(rows[0].access_token_encrypted).toMatch(/^v1\./);
      expect(await inContext(() => connections().tokens(a, 'klaviyo'))).toEqual({
        accessToken: 'klaviyo-access-token-plaintext',
        refreshToken: 'klaviyo-refresh-token-plaintext',
        scopes: ['accounts:read', 'lists:read'],
        expiresAt,
        metadata: {},
      });
      const res = await get('klaviyo').expect(200);
      expect(res.body.provider).toMatchObject({ connected: true, account_name: 'Alpha Klaviyo' });
      expect(JSON.stringify(res.body)).not.toContain('token');
    });

    it('forgetting a connection answers not connected', async () => {
      await inContext(() => connections().forget(a, 'klaviyo'));
      expect((await get('klaviyo').expect(200)).body.provider).toMatchObject({
        connected: false,
        account_name: null,
      });
    });
  });
});
