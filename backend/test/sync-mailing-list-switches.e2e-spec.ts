import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { SYNC_SWITCHES_TTL_MS, SyncSwitches } from '../src/modules/sync/sync-switches';
import { SyncConnectionsService } from '../src/modules/sync/sync-connections.service';
import { SyncSettingsService } from '../src/modules/sync/sync-settings.service';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The mailing-list listener on the hot path (a new student, a new enrollment): which syncs are on
 * is read once per organization and kept a few seconds, dropped at once when this process saves
 * the settings or connects or disconnects a provider. Workers are off: an enqueued upsert stays
 * queued, so its mapping row shows what the listener decided.
 */
describe('mailing-list switches (the new student / enrollment hot path)', () => {
  let t: TestApp;
  let org: { token: string; organizationId: string };

  const em = () => t.created.app.get(EntityManager);
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    em().getConnection().execute<T[]>(query, params);
  const newStudent = async () => {
    const [row] = await sql<{ id: string }>(
      `insert into student (id, organization_id, first_name, last_name, email, created_at)
       values (gen_random_uuid(), ?, 'Hot', 'Path', ?, now()) returning id`,
      [org.organizationId, `hot.${randomBytes(4).toString('hex')}@example.test`],
    );
    return row.id;
  };
  let eventId: string;
  /** Enrolls the student in the session through the API (its enrollment.created reaches the listener through the outbox). */
  const enroll = (studentId: string) =>
    t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', org.token).send({ event_id: eventId }).expect(201);
  /** Students whose Mailchimp upsert was enqueued. */
  const enqueued = async () =>
    (
      await sql<{ local_id: string }>(
        `select local_id from sync_mapping
          where organization_id = ? and provider = 'mailchimp' and action = 'student.upsert'`,
        [org.organizationId],
      )
    ).map((r) => r.local_id);
  const connectMailchimp = () =>
    OrmContext.create(em(), () =>
      t.created.app.get(SyncConnectionsService).store({ organizationId: org.organizationId }, 'mailchimp', {
        accountName: 'Hot Path Studio',
        accessToken: 'token-not-used-here',
        refreshToken: null,
        scopes: [],
        expiresAt: null,
        // Nothing answers here: the panel's list picker fails quietly, as it does when Mailchimp is down.
        metadata: { api_endpoint: 'http://127.0.0.1:9', dc: 'us1' },
      }),
    );

  beforeAll(async () => {
    t = await startTestApp({
      SYNC_TOKEN_KEY: randomBytes(32).toString('base64'),
      QUEUE_MODE: 'in-process',
      RUN_WORKER: 'false',
    });
    const owner = await t.organizationWithUser('owner', 'Hot Path Ceramics');
    org = { token: owner.token, organizationId: owner.organization.id };
    const course = await schedulableCourse(t, org.token, 500);
    eventId = await scheduleSession(t, org.token, course, { capacity: 500 });
  }, 120000);
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('an organization with no mailing-list sync reads its switches once, not on every enrollment and new student', async () => {
    const switches = t.created.app.get(SyncSwitches);
    switches.invalidate(org.organizationId);
    const reads = jest.spyOn(switches, 'read');
    const configReads = jest.spyOn(t.created.app.get(SyncSettingsService), 'config');
    const execute = jest.spyOn(em().getConnection(), 'execute');
    const students = [];
    for (let i = 0; i < 20; i++) students.push(await newStudent());
    for (const id of students) await enroll(id);
    await t.http
      .post('/api/admin/student')
      .set('token', org.token)
      .send({ first_name: 'Ada', last_name: 'Again', email: 'ada.again@example.test' })
      .expect(201);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(configReads).not.toHaveBeenCalled();
    const settingsQueries = execute.mock.calls.filter(([query]) => /\b(sync_config|sync_connection)\b/.test(String(query)));
    expect(settingsQueries).toHaveLength(1);
    expect(await enqueued()).toEqual([]);
  });

  it('turning the sync on is seen by the very next enrollment in this process, and disconnecting by the one after', async () => {
    const switches = t.created.app.get(SyncSwitches);
    expect(await switches.activeLists(org.organizationId)).toEqual({}); // cached: nothing on
    await connectMailchimp();
    await t.http
      .put('/api/admin/sync/providers/config_schema')
      .set('token', org.token)
      .send({ provider_name: 'mailchimp', list_id: 'a1b2c3d4e5', sync_all_customers: true })
      .expect(200);
    const first = await newStudent();
    await enroll(first);
    expect(await enqueued()).toEqual([first]);

    await t.http.delete('/api/admin/sync/providers/mailchimp/connection').set('token', org.token).expect(204);
    const second = await newStudent();
    await enroll(second);
    expect(await enqueued()).toEqual([first]);

    await connectMailchimp();
    const third = await newStudent();
    await enroll(third);
    expect((await enqueued()).sort()).toEqual([first, third].sort());
  });

  it('a change this process was not told of (another API process) is seen once the entry expires', async () => {
    const switches = t.created.app.get(SyncSwitches);
    expect(await switches.activeLists(org.organizationId)).toEqual({ mailchimp: 'a1b2c3d4e5' });
    // Another process turns the sync off: its event never reaches this one.
    await sql(
      `update sync_config set config = config || '{"sync_all_customers": false}'::jsonb
        where organization_id = ? and provider = 'mailchimp'`,
      [org.organizationId],
    );
    const stale = await newStudent();
    await enroll(stale);
    expect(await enqueued()).toContain(stale); // within the TTL: still on here
    t.clock.advance(SYNC_SWITCHES_TTL_MS + 1);
    const fresh = await newStudent();
    await enroll(fresh);
    expect(await enqueued()).not.toContain(fresh);
  });
});
