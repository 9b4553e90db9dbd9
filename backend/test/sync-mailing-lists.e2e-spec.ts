import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes } from 'node:crypto';
import { KlaviyoDriver } from '../src/modules/sync/drivers/klaviyo/klaviyo.driver';
import {
  KlaviyoStudentsBatchHandler,
  KlaviyoStudentUpsertHandler,
} from '../src/modules/sync/drivers/klaviyo/klaviyo.jobs';
import { MailchimpDriver } from '../src/modules/sync/drivers/mailchimp/mailchimp.driver';
import {
  MailchimpStudentsBatchHandler,
  MailchimpStudentUpsertHandler,
} from '../src/modules/sync/drivers/mailchimp/mailchimp.jobs';
import { MailchimpClient } from '../src/modules/sync/drivers/mailchimp/mailchimp.client';
import { ProviderReconnectError } from '../src/modules/sync/drivers/provider-errors';
import { ProviderRateLimitedError } from '../src/modules/sync/drivers/sync-driver';
import { SyncJobsService } from '../src/modules/sync/jobs/sync-jobs.service';
import { SyncConnectionsService } from '../src/modules/sync/sync-connections.service';
import { FakeKlaviyo, startFakeKlaviyo } from '../src/sync-fakes/klaviyo';
import { FakeMailchimp, startFakeMailchimp } from '../src/sync-fakes/mailchimp';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * Mailing lists (issue 11): Mailchimp and Klaviyo against their local fakes. Connecting (stored
 * directly: the OAuth flow is tested elsewhere), the lists picker, the first full backfill in
 * pages when sync_all_customers turns on, new students and enrollments, idempotent reruns, the
 * 429 surfaced as ProviderRateLimitedError, and tenancy.
 */
/** A student whose address Mailchimp refuses; the last in id order, so never a page's cursor. */
const REFUSED_ID = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
const STUDENTS = 1203; // three backfill pages of 500 (with the one refused address, 1204 students)

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 30000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mailing-list sync (Mailchimp, Klaviyo)', () => {
  let t: TestApp;
  let mc: FakeMailchimp;
  let kl: FakeKlaviyo;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };

  const get = (provider: string, token = a.token) =>
    t.http.get(`/api/admin/sync/providers/${provider}`).set('token', token);
  const put = (body: object, token = a.token) =>
    t.http.put('/api/admin/sync/providers/config_schema').set('token', token).send(body);
  const inContext = <T>(fn: () => Promise<T>) => OrmContext.create(t.created.app.get(EntityManager), fn);
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    t.created.app.get(EntityManager).getConnection().execute<T[]>(query, params);
  const studentCount = async (organizationId: string) =>
    Number(
      (
        await sql<{ n: string }>('select count(*) n from student where organization_id = ?', [organizationId])
      )[0].n,
    );
  const mappings = (organizationId: string, provider: string) =>
    sql<{ local_id: string; remote_id: string | null; stage: string; last_error: string | null }>(
      `select local_id, remote_id, stage, last_error from sync_mapping where organization_id = ? and provider = ? and local_type = 'student'`,
      [organizationId, provider],
    );
  const md5 = (s: string) => createHash('md5').update(s).digest('hex');

  /** Test setup only: many students at once (the app's own create path is exercised below). */
  const seedStudents = async (organizationId: string, count: number, tag: string) => {
    await sql(
      `insert into student (id, organization_id, first_name, last_name, email, created_at)
       select gen_random_uuid(), ?, 'Student', 'N' || g, ? || g || '@example.test', now()
       from generate_series(1, ?) g`,
      [organizationId, `${tag}.`, count],
    );
  };

  beforeAll(async () => {
    mc = await startFakeMailchimp();
    kl = await startFakeKlaviyo();
    t = await startTestApp({
      SYNC_TOKEN_KEY: randomBytes(32).toString('base64'),
      QUEUE_MODE: 'in-process',
      RUN_WORKER: 'true',
      MAILCHIMP_BASE_URL: mc.url,
      MAILCHIMP_CLIENT_ID: mc.clientId,
      MAILCHIMP_CLIENT_SECRET: mc.clientSecret,
      KLAVIYO_BASE_URL: kl.url,
      KLAVIYO_CLIENT_ID: kl.clientId,
      KLAVIYO_CLIENT_SECRET: kl.clientSecret,
    });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
    await seedStudents(a.organizationId, STUDENTS, 'alpha');
    await seedStudents(b.organizationId, 5, 'beta');
    // One address Mailchimp refuses (the fake rejects an address without a dot in its domain).
    await sql(
      `insert into student (id, organization_id, first_name, last_name, email, created_at)
       values (?, ?, 'Rae', 'Refused', 'rae@localhost', now())`,
      [REFUSED_ID, a.organizationId],
    );
  }, 120000);
  afterAll(async () => {
    await t?.close();
    await mc?.close();
    await kl?.close();
  });

  describe('Mailchimp', () => {
    let listId: string;

    it('connects: the OAuth metadata names the account and its API host, and the panel lists the lists', async () => {
      const token = await mc.grant();
      const account = await t.created.app.get(MailchimpDriver).identify(token);
      expect(account).toEqual({
        accountName: 'Fake Mailchimp Studio',
        metadata: { api_endpoint: mc.url, dc: 'us1' },
      });
      await inContext(() =>
        t.created.app.get(SyncConnectionsService).store({ organizationId: a.organizationId }, 'mailchimp', {
          accountName: account.accountName,
          accessToken: token,
          refreshToken: null,
          scopes: [],
          expiresAt: null,
          metadata: account.metadata,
        }),
      );
      const res = await get('mailchimp').expect(200);
      expect(res.body.provider).toMatchObject({
        name: 'mailchimp',
        connected: true,
        account_name: 'Fake Mailchimp Studio',
      });
      expect(res.body.lists).toEqual([...mc.state.lists.values()].map((l) => ({ id: l.id, name: l.name })));
      listId = res.body.lists[1].id;
    });

    it('turning on sync_all_customers puts every student on the list once, in batches of at most 500', async () => {
      await put({ provider_name: 'mailchimp', list_id: listId, sync_all_customers: true }).expect(200);
      const list = mc.state.lists.get(listId)!;
      await eventually(() => list.members.size === STUDENTS);
      await eventually(async () =>
        (await mappings(a.organizationId, 'mailchimp')).every(
          (m) => m.stage !== 'queued' && m.stage !== 'syncing',
          ),
      );
      const created = mc.state.createdByEmail(listId);
      expect(created.size).toBe(STUDENTS);
      expect([...created.values()].every((n) => n === 1)).toBe(true);
      const batches = mc.server.requests.filter(
        (r) => r.method === 'POST' && r.path === `/3.0/lists/${listId}`,
      );
      expect(batches.map((r) => (r.body as { members: unknown[] }).members.length)).toEqual([500, 500, 204]);
      // Each student's mapping holds the subscriber hash and is synced; the refused one is failed
      // with Mailchimp's reason.
      const all = await mappings(a.organizationId, 'mailchimp');
      const refused = all.filter((m) => m.local_id === REFUSED_ID);
      expect(refused).toEqual([
        {
          local_id: REFUSED_ID,
          remote_id: null,
          stage: 'failed',
          last_error: 'Mailchimp: rae@localhost looks fake or invalid',
        },
      ]);
      const rows = all.filter((m) => m.local_id !== REFUSED_ID);
      expect(rows.every((m) => m.stage === 'synced' || m.local_id === REFUSED_ID)).toBe(true);
      expect(rows).toHaveLength(STUDENTS);
      const emails = new Map(
        (
          await sql<{ id: string; email: string }>(
            'select id, email from student where organization_id = ?',
            [a.organizationId],
          )
        ).map((s) => [s.id, s.email]),
      );
      expect(rows.every((m) => m.remote_id === md5(emails.get(m.local_id)!))).toBe(true);
      // Another org's students stay off the list.
      expect([...list.members.values()].some((m) => m.email_address.startsWith('beta.'))).toBe(false);
    }, 60000);

    it('a new student arrives on the list', async () => {
      await t.http
        .post('/api/admin/student')
        .set('token', a.token)
        .send({ first_name: 'Nia', last_name: 'New', email: 'nia.new@example.test' })
        .expect(201);
      const list = mc.state.lists.get(listId)!;
      await eventually(() => list.members.has(md5('nia.new@example.test')));
      expect(list.members.get(md5('nia.new@example.test'))!.merge_fields).toMatchObject({
        FNAME: 'Nia',
        LNAME: 'New',
      });
    });

    it('a new enrollment puts its student on the list', async () => {
      const [student] = await sql<{ id: string }>(
        `insert into student (id, organization_id, first_name, last_name, email, created_at)
         values (gen_random_uuid(), ?, 'Eli', 'Enrolled', 'eli.enrolled@example.test', now()) returning id`,
        [a.organizationId],
      );
      // Enrolled through the API: the seat's enrollment.created reaches the mailing-list listener through the outbox.
      const course = await schedulableCourse(t, a.token);
      const eventId = await scheduleSession(t, a.token, course);
      await t.http.post(`/api/admin/orders/enroll/${student.id}`).set('token', a.token).send({ event_id: eventId }).expect(201);
      await eventually(() => mc.state.lists.get(listId)!.members.has(md5('eli.enrolled@example.test')));
    });

    it('running the same jobs twice makes no duplicate', async () => {
      const [first] = await sql<{ id: string }>(
        'select id from student where organization_id = ? order by id limit 1',
        [a.organizationId],
      );
      const before = mc.state.lists.get(listId)!.members.size;
      const job = {
        organizationId: a.organizationId,
        provider: 'mailchimp' as const,
        localType: 'student' as const,
        localId: first.id,
      };
      const batch = t.created.app.get(MailchimpStudentsBatchHandler);
      const one = t.created.app.get(MailchimpStudentUpsertHandler);
      const mapping = { id: 'x', remoteId: null, attempts: 1 };
      // Handlers run in the job's MikroORM context (SyncJobsService.run makes it); here, the test's.
      const r1 = await inContext(() => batch.handle({ ...job, action: 'students.batch' }, mapping));
      const r2 = await inContext(() => batch.handle({ ...job, action: 'students.batch' }, mapping));
      await inContext(() => one.handle({ ...job, action: 'student.upsert' }, mapping));
      await inContext(() => one.handle({ ...job, action: 'student.upsert' }, mapping));
      expect(r1).toEqual(r2);
      // And through the queue, again.
      await t.created.app.get(SyncJobsService).enqueue({ ...job, action: 'student.upsert' });
      await eventually(async () =>
        (await mappings(a.organizationId, 'mailchimp')).every(
          (m) => m.stage === 'synced' || m.local_id === REFUSED_ID,
          ),
      );
      await eventually(async () =>
        (await mappings(a.organizationId, 'mailchimp')).every(
          (m) => m.stage !== 'queued' && m.stage !== 'syncing',
          ),
      );
      expect(mc.state.lists.get(listId)!.members.size).toBe(before);
      expect([...mc.state.createdByEmail(listId).values()].every((n) => n === 1)).toBe(true);
    }, 60000);

    it('a backfill page whose own (cursor) student Mailchimp refuses marks that student failed with the reason, without retrying the page', async () => {
      const pageCalls = () =>
        mc.server.requests.filter(
          (r) =>
            r.method === 'POST' &&
            r.path === `/3.0/lists/${listId}` &&
            JSON.stringify(r.body).includes('rae@localhost'),
        ).length;
      const before = pageCalls();
      // REFUSED_ID is last in id order: a page from it holds only that student
      await t.created.app.get(SyncJobsService).enqueue({
        organizationId: a.organizationId,
        provider: 'mailchimp',
        action: 'students.batch',
        localType: 'student',
        localId: REFUSED_ID,
      });
      await eventually(async () =>
        (await mappings(a.organizationId, 'mailchimp')).every((m) => m.stage !== 'queued' && m.stage !== 'syncing'),
      );
      await t.idle(); // nothing more is going to happen now: no job due or running
      expect((await mappings(a.organizationId, 'mailchimp')).filter((m) => m.local_id === REFUSED_ID)).toEqual([
        {
          local_id: REFUSED_ID,
          remote_id: null,
          stage: 'failed',
          last_error: 'Mailchimp: rae@localhost looks fake or invalid',
        },
      ]);
      expect(pageCalls() - before).toBe(1);
    });

    it('clients for two accounts at once never mix tokens (the SDK is used per instance, not its global client)', async () => {
      const other = await startFakeMailchimp({ lists: ['Other account list'] });
      try {
        const mine = { accessToken: await mc.grant(), metadata: { api_endpoint: mc.url } };
        const theirs = { accessToken: await other.grant(), metadata: { api_endpoint: other.url } };
        // Each token is live only at its own fake: a mixed-up call would answer 401.
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => new MailchimpClient(i % 2 ? theirs : mine).lists()),
        );
        answers.forEach((lists, i) =>
          expect(lists.map((l) => l.name)).toEqual(
            i % 2 ? ['Other account list'] : ['Studio newsletter', 'Workshop alumni'],
          ),
        );
      } finally {
        await other.close();
      }
    });

    it('a 429 is surfaced as ProviderRateLimitedError with the Retry-After', async () => {
      const [first] = await sql<{ id: string }>(
        'select id from student where organization_id = ? order by id limit 1',
        [a.organizationId],
      );
      mc.state.rateLimit.next(1, 7);
      const error = await inContext(() =>
        t.created.app
          .get(MailchimpStudentUpsertHandler)
          .handle(
            {
              organizationId: a.organizationId,
              provider: 'mailchimp',
              action: 'student.upsert',
              localType: 'student',
              localId: first.id,
            },
            { id: 'x', remoteId: null, attempts: 1 },
          ),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRateLimitedError);
      expect(error).toMatchObject({ provider: 'mailchimp', retryAfterMs: 7000 });
    });
  });

  describe('Klaviyo', () => {
    let listId: string;

    it('connects: the account names the organization, and the panel lists the lists', async () => {
      const token = await kl.grant();
      const account = await t.created.app.get(KlaviyoDriver).identify(token);
      expect(account.accountName).toBe('Fake Klaviyo Studio');
      await inContext(() =>
        t.created.app.get(SyncConnectionsService).store({ organizationId: a.organizationId }, 'klaviyo', {
          accountName: account.accountName,
          accessToken: token,
          refreshToken: null,
          scopes: ['accounts:read', 'lists:read', 'lists:write', 'profiles:read', 'profiles:write'],
          expiresAt: new Date(Date.now() + 3600_000),
          metadata: account.metadata,
        }),
      );
      const res = await get('klaviyo').expect(200);
      expect(res.body.provider).toMatchObject({
        name: 'klaviyo',
        connected: true,
        account_name: 'Fake Klaviyo Studio',
      });
      expect(res.body.lists).toEqual([...kl.state.lists.values()].map((l) => ({ id: l.id, name: l.name })));
      listId = res.body.lists[0].id;
    });

    it('turning on sync_all_customers imports every student once, a bulk import job per page', async () => {
      const total = await studentCount(a.organizationId);
      const importable = total - 1; // rae@localhost is refused
      await put({ provider_name: 'klaviyo', list_id: listId, sync_all_customers: true }).expect(200);
      await eventually(() => kl.state.listEmails(listId).length === importable);
      await eventually(async () =>
        (await mappings(a.organizationId, 'klaviyo')).every(
          (m) => m.stage !== 'queued' && m.stage !== 'syncing',
          ),
      );
      const created = kl.state.createdByEmail();
      expect(created.size).toBe(importable);
      expect([...created.values()].every((n) => n === 1)).toBe(true);
      expect(kl.state.importJobs.size).toBe(Math.ceil(total / 500));
      const all = await mappings(a.organizationId, 'klaviyo');
      expect(all).toHaveLength(total);
      const rows = all.filter((m) => m.local_id !== REFUSED_ID);
      expect(
        rows.every((m) => m.stage === 'synced' && m.remote_id !== null && kl.state.profiles.has(m.remote_id)),
      ).toBe(true);
      expect(all.find((m) => m.local_id === REFUSED_ID)).toMatchObject({ stage: 'failed', remote_id: null });
    }, 60000);

    it('a new student arrives, once, and rerunning its job duplicates nothing', async () => {
      const res = await t.http
        .post('/api/admin/student')
        .set('token', a.token)
        .send({ first_name: 'Kai', last_name: 'Later', email: 'kai.later@example.test' })
        .expect(201);
      await eventually(() => kl.state.listEmails(listId).includes('kai.later@example.test'));
      const kai = [...kl.state.profiles.values()].find((p) => p.email === 'kai.later@example.test');
      expect(kai).toMatchObject({ first_name: 'Kai', last_name: 'Later' });
      const handler = t.created.app.get(KlaviyoStudentUpsertHandler);
      const job = {
        organizationId: a.organizationId,
        provider: 'klaviyo' as const,
        action: 'student.upsert',
        localType: 'student' as const,
        localId: res.body.student_id as string,
      };
      const r1 = await inContext(() => handler.handle(job, { id: 'x', remoteId: null, attempts: 1 }));
      const r2 = await inContext(() => handler.handle(job, { id: 'x', remoteId: null, attempts: 2 }));
      expect(r1).toEqual(r2);
      const [first] = await sql<{ id: string }>(
        'select id from student where organization_id = ? order by id limit 1',
        [a.organizationId],
      );
      await inContext(() =>
        t.created.app
          .get(KlaviyoStudentsBatchHandler)
          .handle(
            { ...job, action: 'students.batch', localId: first.id },
            { id: 'x', remoteId: null, attempts: 1 },
          ),
      );
      expect(kl.state.createdByEmail().get('kai.later@example.test')).toBe(1);
      expect([...kl.state.createdByEmail().values()].every((n) => n === 1)).toBe(true);
    }, 60000);

    it('a 429 is surfaced as ProviderRateLimitedError with the Retry-After', async () => {
      const [first] = await sql<{ id: string }>(
        'select id from student where organization_id = ? order by id limit 1',
        [a.organizationId],
      );
      // Nothing of the earlier tests still running (a job of theirs would take the 429 meant for this call).
      await t.idle();
      kl.state.rateLimit.next(1, 3);
      const error = await inContext(() =>
        t.created.app
          .get(KlaviyoStudentUpsertHandler)
          .handle(
            {
              organizationId: a.organizationId,
              provider: 'klaviyo',
              action: 'student.upsert',
              localType: 'student',
              localId: first.id,
            },
            { id: 'x', remoteId: null, attempts: 1 },
          ),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRateLimitedError);
      expect(error).toMatchObject({ provider: 'klaviyo', retryAfterMs: 3000 });
    });

    it('a refused token (401) says to connect again', async () => {
      const [first] = await sql<{ id: string }>(
        'select id from student where organization_id = ? order by id limit 1',
        [a.organizationId],
      );
      kl.oauth.expireAll();
      const error = await inContext(() =>
        t.created.app
          .get(KlaviyoStudentUpsertHandler)
          .handle(
            {
              organizationId: a.organizationId,
              provider: 'klaviyo',
              action: 'student.upsert',
              localType: 'student',
              localId: first.id,
            },
            { id: 'x', remoteId: null, attempts: 1 },
          ),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderReconnectError);
      expect((error as Error).message).toBe(
        'klaviyo refused the stored token: disconnect and connect klaviyo again',
      );
      // The panel still answers, with the connection and no lists.
      const res = await get('klaviyo').expect(200);
      expect(res.body).toMatchObject({ provider: { connected: true }, lists: [] });
    });
  });

  describe('tenancy', () => {
    it.each(['mailchimp', 'klaviyo'])(
      "another organization sees neither %s's connection, list nor mappings",
      async (provider) => {
        const res = await get(provider, b.token).expect(200);
        expect(res.body).toEqual({
          provider: {
            name: provider,
            connected: false,
            account_name: null,
            connected_at: null,
            oauth_configured: true,
            env_vars: [`${provider.toUpperCase()}_CLIENT_ID`, `${provider.toUpperCase()}_CLIENT_SECRET`],
            last_synced_at: null,
            failures: [],
            failures_total: 0,
            config_schema: { list_id: null, sync_all_customers: false },
          },
          lists: [],
        });
        expect(await mappings(b.organizationId, provider)).toEqual([]);
      },
    );

    it("another organization's new student goes to no list", async () => {
      await t.http
        .post('/api/admin/student')
        .set('token', b.token)
        .send({ first_name: 'Bo', last_name: 'Beta', email: 'bo.beta@example.test' })
        .expect(201);
      await t.idle(); // nothing more is going to happen now: no job due or running
      expect([...mc.state.effects, ...kl.state.effects].some((e) => e.email.startsWith('b'))).toBe(false);
    });
  });
});
