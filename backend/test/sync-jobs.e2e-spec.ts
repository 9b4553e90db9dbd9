import { SYNC_JOB_MESSAGES as J, SYNC_MESSAGES as M } from '@studio/contracts';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { ProviderRateLimitedError, ProviderRejectedError } from '../src/modules/sync/drivers/sync-driver';
import { SyncJobData, SyncJobHandler } from '../src/modules/sync/jobs/sync-job.types';
import { SyncJobsService } from '../src/modules/sync/jobs/sync-jobs.service';
import { SyncReconnectRequiredError } from '../src/modules/sync/oauth/sync-oauth.service';
import { SyncConnectionsService } from '../src/modules/sync/sync-connections.service';
import { startTestApp, TestApp } from './test-app';

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The sync jobs as the panel sees them: a job that keeps failing ends failed with its error on the
 * provider's read (last sync, failures), Retry re-enqueues it (org-scoped, failed only), a
 * provider's permanent refusal fails at once, and a 429 waits without spending an attempt.
 */
describe('sync jobs: failures and Retry (/api/admin/sync)', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };
  /** What the fake provider does next for each local id. */
  const behaviour = new Map<string, 'fail' | 'reject' | 'reconnect' | 'limit-once' | 'needs-auth' | 'ok'>();
  const calls: string[] = [];

  const handler: SyncJobHandler = {
    provider: 'mailchimp',
    action: 'test.upsert',
    async handle(job, mapping) {
      calls.push(job.localId);
      const mode = behaviour.get(job.localId) ?? 'ok';
      if (mode === 'fail') throw new Error('Mailchimp answered 503');
      if (mode === 'reject') throw new ProviderRejectedError('mailchimp', 400, 'Mailchimp refused: invalid email');
      if (mode === 'reconnect') throw new SyncReconnectRequiredError('mailchimp');
      if (mode === 'needs-auth') {
        // As a real handler does, in the job's MikroORM context (made by the job runner, not here):
        // the token of an organization that is not connected.
        await t.created.app.get(SyncConnectionsService).auth({ organizationId: job.organizationId }, 'mailchimp');
      }
      if (mode === 'limit-once') {
        behaviour.set(job.localId, 'ok');
        throw new ProviderRateLimitedError('mailchimp', 300);
      }
      return { remoteId: mapping.remoteId ?? `remote-${job.localId}` };
    },
  };
  /** A record that changes while its job runs: the handler reads it fresh, and can be held mid-run. */
  const records = new Map<string, string>();
  const seen: { localId: string; value: string | undefined }[] = [];
  let hold: Promise<void> | null = null;
  const changing: SyncJobHandler = {
    provider: 'mailchimp',
    action: 'test.changing',
    async handle(job, mapping) {
      const value = records.get(job.localId);
      seen.push({ localId: job.localId, value });
      if (hold) await hold;
      return { remoteId: mapping.remoteId ?? `remote-${job.localId}` };
    },
  };
  const mappingOf = async (localId: string) =>
    (
      await t.created.app
        .get(EntityManager)
        .getConnection()
        .execute<{ stage: string; remote_id: string | null; version: number }[]>(
          'select stage, remote_id, version from sync_mapping where local_id = ?',
          [localId],
        )
    )[0];
  const jobs = () => t.created.app.get(SyncJobsService);
  const enqueue = (localId: string, organizationId = a.organizationId, attempts = 2) =>
    jobs().enqueue(
      { organizationId, provider: 'mailchimp', action: 'test.upsert', localType: 'student', localId } satisfies SyncJobData,
      { attempts },
    );
  const read = (token = a.token) =>
    t.http.get('/api/admin/sync/providers/mailchimp').set('token', token).expect(200).then((r) => r.body.provider);
  const retry = (id: string, token = a.token) => t.http.post(`/api/admin/sync/mappings/${id}/retry`).set('token', token);

  beforeAll(async () => {
    t = await startTestApp({ RUN_WORKER: 'true', QUEUE_MODE: 'redis' });
    jobs().register(handler);
    jobs().register(changing);
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
  }, 120000);
  afterAll(() => t.close());

  it('a job that spends its attempts is listed as failed with its error, and Retry syncs it', async () => {
    const student = randomUUID();
    behaviour.set(student, 'fail');
    await enqueue(student);
    const failed = await eventually(read, (p) => p.failures_total === 1);
    expect(failed.last_synced_at).toBeNull();
    expect(failed.failures).toEqual([
      {
        id: expect.any(String),
        local_type: 'student',
        local_id: student,
        label: null,
        action: 'test.upsert',
        last_error: 'Mailchimp answered 503',
        attempts: 2,
        updated_at: expect.any(String),
      },
    ]);
    expect(calls.filter((c) => c === student)).toHaveLength(2);
    const mappingId = failed.failures[0].id as string;

    // another organization cannot see or retry it
    expect((await read(b.token)).failures).toEqual([]);
    expect((await retry(mappingId, b.token).expect(404)).body.message).toBe(J.mappingNotFound);
    expect((await retry('not-a-uuid').expect(404)).body.message).toBe(J.mappingNotFound);

    behaviour.set(student, 'ok');
    const answered = await retry(mappingId).expect(200);
    expect(answered.body.provider.name).toBe('mailchimp');
    const synced = await eventually(read, (p) => p.failures_total === 0 && p.last_synced_at !== null);
    expect(synced.failures).toEqual([]);
    expect(Date.parse(synced.last_synced_at)).toBeGreaterThan(Date.now() - 60000);

    // a synced record is not retried
    expect((await retry(mappingId).expect(409)).body.message).toBe(J.mappingNotFailed);
  });

  it("a provider's permanent refusal fails at once, without retries", async () => {
    const student = randomUUID();
    behaviour.set(student, 'reject');
    await enqueue(student, a.organizationId, 5);
    const p = await eventually(read, (v) => v.failures.some((f: { local_id: string }) => f.local_id === student));
    expect(p.failures.find((f: { local_id: string }) => f.local_id === student)).toMatchObject({
      last_error: 'Mailchimp refused: invalid email',
      attempts: 1,
    });
    // Nothing more is going to happen now (no job due or running), then: no second call.
    await t.idle();
    expect(calls.filter((c) => c === student)).toHaveLength(1);
  });

  it('a connection the provider no longer accepts fails at once with the message to connect again', async () => {
    const student = randomUUID();
    behaviour.set(student, 'reconnect');
    await enqueue(student, a.organizationId, 5);
    const p = await eventually(read, (v) => v.failures.some((f: { local_id: string }) => f.local_id === student));
    expect(p.failures.find((f: { local_id: string }) => f.local_id === student)).toMatchObject({
      last_error: M.reconnectRequired('mailchimp'),
      attempts: 1,
    });
    // Nothing more is going to happen now (no job due or running), then: no second call.
    await t.idle();
    expect(calls.filter((c) => c === student)).toHaveLength(1);
  });

  it('a job of an organization that is not connected (disconnected after it was queued) fails at once, saying so', async () => {
    const student = randomUUID();
    behaviour.set(student, 'needs-auth');
    await enqueue(student, a.organizationId, 5);
    const p = await eventually(read, (v) => v.failures.some((f: { local_id: string }) => f.local_id === student));
    expect(p.failures.find((f: { local_id: string }) => f.local_id === student)).toMatchObject({
      last_error: M.notConnected('mailchimp'),
      attempts: 1,
    });
    // Nothing more is going to happen now (no job due or running), then: no second call.
    await t.idle();
    expect(calls.filter((c) => c === student)).toHaveLength(1);
  });

  it('a 429 waits for Retry-After and does not spend an attempt', async () => {
    const student = randomUUID();
    behaviour.set(student, 'limit-once');
    const started = Date.now();
    // one attempt only: the rate-limited run must not use it up
    await enqueue(student, a.organizationId, 1);
    await eventually(
      () => Promise.resolve(calls.filter((c) => c === student).length),
      (n) => n === 2,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    const p = await eventually(read, (v) => !v.failures.some((f: { local_id: string }) => f.local_id === student));
    expect(p.last_synced_at).not.toBeNull();
  });

  it('a change made while its job runs is synced by a follow-up job, not lost', async () => {
    const student = randomUUID();
    const data: SyncJobData = { organizationId: a.organizationId, provider: 'mailchimp', action: 'test.changing', localType: 'student', localId: student };
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    records.set(student, 'ada@example.test');
    await jobs().enqueue(data);
    await eventually(() => Promise.resolve(seen.filter((s) => s.localId === student).length), (n) => n === 1);
    // the job has read the record and is calling the provider when the student changes
    records.set(student, 'ada.lovelace@example.test');
    await jobs().enqueue(data);
    hold = null;
    release();
    await eventually(() => mappingOf(student), (m) => m.stage === 'synced');
    // Nothing more is going to happen now (no job due or running), then: no second call.
    await t.idle();
    expect(seen.filter((s) => s.localId === student).map((s) => s.value)).toEqual([
      'ada@example.test',
      'ada.lovelace@example.test',
    ]);
    expect(await mappingOf(student)).toEqual({ stage: 'synced', remote_id: `remote-${student}`, version: 2 });
  });

  it('three changes while its job waits are one job, which reads the last one', async () => {
    const student = randomUUID();
    const data: SyncJobData = { organizationId: a.organizationId, provider: 'mailchimp', action: 'test.changing', localType: 'student', localId: student };
    for (const email of ['bo@example.test', 'bo.1@example.test', 'bo.2@example.test']) {
      records.set(student, email);
      await jobs().enqueue(data, { delayMs: 400 });
    }
    expect((await mappingOf(student)).stage).toBe('queued');
    await eventually(() => mappingOf(student), (m) => m.stage === 'synced');
    // Nothing more is going to happen now (no job due or running), then: no second call.
    await t.idle();
    expect(seen.filter((s) => s.localId === student).map((s) => s.value)).toEqual(['bo.2@example.test']);
    expect((await mappingOf(student)).version).toBe(1);
  });

  it("a failed record is named as the admin knows it (the student's name), and only inside its organization", async () => {
    const created = await t.http
      .post('/api/admin/student')
      .set('token', a.token)
      .send({ first_name: 'Ines', last_name: 'Labelle', email: `ines.${randomUUID().slice(0, 8)}@example.com` })
      .expect(201);
    const studentId = created.body.student_id as string;
    behaviour.set(studentId, 'reject');
    await enqueue(studentId);
    const failed = await eventually(read, (p) => p.failures.some((f: { local_id: string }) => f.local_id === studentId));
    expect(failed.failures.find((f: { local_id: string }) => f.local_id === studentId).label).toBe('Ines Labelle');

    // The same id failing in another organization is not named from this one's student.
    await enqueue(studentId, b.organizationId);
    const other = await eventually(
      () => read(b.token),
      (p) => p.failures.some((f: { local_id: string }) => f.local_id === studentId),
    );
    expect(other.failures.find((f: { local_id: string }) => f.local_id === studentId).label).toBeNull();

    behaviour.set(studentId, 'ok');
  });
});
