import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { execSync } from 'node:child_process';
import path from 'node:path';
import { SyncJobsService } from '../src/modules/sync/jobs/sync-jobs.service';
import { FakeHttpServer } from '../src/sync-fakes/fake-http';
import { startTestApp, TestApp } from './test-app';

/*
 * The sync workers' reliability (issue 11): 10,000 sync jobs against a fake provider, a worker
 * process killed with SIGKILL in the middle and another started, and the provider's effects
 * counted by idempotency key: exactly 10,000, 0 duplicates. Then the same harness with retries off,
 * and with the remote-id check off and a keyless create, shows lost and duplicate effects: the test
 * can fail. And a worker stopped with SIGTERM finishes its active job before it exits.
 *
 * The worker is `node test/support/sync-reliability-worker.js`: dist/worker.js's startWorker plus
 * a test-only handler (a PUT keyed by the record's id). It runs the compiled backend, so the
 * backend is built (swc, about a second) first.
 */
const WORKER = path.join(__dirname, 'support', 'sync-reliability-worker.js');
const JOBS = Number(process.env.SYNC_RELIABILITY_JOBS ?? 10_000);

/** Deterministic 0..99 per key and salt, to inject the same faults in every run. */
const roll = (key: string, salt: string) => createHash('sha1').update(salt + key).digest()[0] % 100;

interface FakeProvider {
  server: FakeHttpServer;
  /** Creates per key: a member created twice for one key is a duplicate effect. */
  creates: Map<string, number>;
  requests: Map<string, number>;
  delayMs: number;
  /** First request of a key: percent failing before the effect (503), and after it (answer lost). */
  failBefore: number;
  failAfter: number;
}

async function fakeProvider(): Promise<FakeProvider> {
  const fake: FakeProvider = {
    server: new FakeHttpServer('reliability'),
    creates: new Map(),
    requests: new Map(),
    delayMs: 0,
    failBefore: 0,
    failAfter: 0,
  };
  const members = new Map<string, string>();
  const apply = async (key: string, upsert: boolean) => {
    const n = (fake.requests.get(key) ?? 0) + 1;
    fake.requests.set(key, n);
    if (fake.delayMs) await new Promise((r) => setTimeout(r, fake.delayMs));
    const r = roll(key, 'fault');
    if (n === 1 && r < fake.failBefore) return { status: 503, json: { title: 'Service Unavailable' } };
    let id = upsert ? members.get(key) : undefined;
    if (!id) {
      id = randomUUID();
      members.set(key, id);
      fake.creates.set(key, (fake.creates.get(key) ?? 0) + 1);
    }
    if (n === 1 && r >= fake.failBefore && r < fake.failBefore + fake.failAfter) {
      return { status: 503, json: { title: 'answer lost after the effect' } };
    }
    return { json: { id } };
  };
  fake.server.route('PUT', '/lists/reliability/members/:key', (req) => apply(req.params.key, true));
  fake.server.route('POST', '/lists/reliability/members', (req) => apply(String((req.body as { key: string }).key), false));
  await fake.server.listen();
  // the fake keeps every request for tests that read them; 10,000 bodies are not needed here
  (fake.server as unknown as { requests: { push: () => number } }).requests.push = () => 0;
  return fake;
}

const effects = (fake: FakeProvider, keys: string[]) => {
  const created = keys.filter((k) => (fake.creates.get(k) ?? 0) > 0).length;
  const duplicates = keys.reduce((sum, k) => sum + Math.max(0, (fake.creates.get(k) ?? 0) - 1), 0);
  return { created, duplicates };
};

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('sync workers: reliability under a killed worker', () => {
  let t: TestApp;
  let organizationId: string;
  let fake: FakeProvider;
  const workers: ChildProcess[] = [];

  const startWorker = (mode: 'put' | 'post') => {
    const child = spawn(process.execPath, [WORKER], {
      env: {
        ...process.env,
        DATABASE_URL: t.config.DATABASE_URL,
        REDIS_URL: t.config.REDIS_URL,
        REDIS_PREFIX: t.config.REDIS_PREFIX,
        QUEUE_MODE: 'redis',
        QUEUE_LOCK_MS: '2000',
        SERVE_WEB: 'false',
        LOG_LEVEL: 'error',
        NODE_ENV: 'test',
        RELIABILITY_FAKE_URL: fake.server.url,
        RELIABILITY_MODE: mode,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (d: Buffer) => process.env.DEBUG_WORKER && process.stderr.write(d));
    workers.push(child);
    return child;
  };
  const exited = (child: ChildProcess) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
      else child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  const stop = async (child: ChildProcess) => {
    child.kill('SIGTERM');
    await exited(child);
  };

  const enqueue = async (keys: string[], attempts?: number) => {
    const jobs = t.created.app.get(SyncJobsService);
    for (let i = 0; i < keys.length; i += 200) {
      await Promise.all(
        keys.slice(i, i + 200).map((localId) =>
          jobs.enqueue(
            { organizationId, provider: 'mailchimp', action: 'reliability.member', localType: 'student', localId },
            { attempts },
          ),
        ),
      );
    }
  };
  /** The stages of one run's mappings (each run has its own organization: a cheap count). */
  const stages = async (_keys: string[]) => {
    const rows = await t.withEm((em) =>
      em.getConnection().execute<{ stage: string; n: string }[]>(
        `select stage, count(*) as n from sync_mapping where organization_id = ? group by stage`,
        [organizationId],
      ),
    );
    return Object.fromEntries(rows.map((r) => [r.stage, Number(r.n)])) as Record<string, number>;
  };

  beforeAll(async () => {
    execSync('npm run build', { cwd: path.join(__dirname, '..'), stdio: 'ignore' });
    t = await startTestApp({ QUEUE_MODE: 'redis', RUN_WORKER: 'false' });
    fake = await fakeProvider();
  }, 120000);
  beforeEach(async () => {
    organizationId = (await t.organizationWithUser('owner', `Reliable Studio ${randomUUID()}`)).organization.id;
  });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await fake?.server.close();
    await t?.close();
  });

  it('10,000 jobs, a worker killed with SIGKILL mid-way and another started: exactly 10,000 effects, 0 duplicates', async () => {
    const keys = Array.from({ length: JOBS }, () => randomUUID());
    // 1% of first calls fail before the effect, 1% after it (the answer is lost): retries must cover both
    fake.failBefore = 1;
    fake.failAfter = 1;
    const started = Date.now();
    await enqueue(keys);
    const enqueuedMs = Date.now() - started;
    // two workers share the queue (any number can run); one is killed, another replaces it
    const first = startWorker('put');
    const other = startWorker('put');
    await until(() => effects(fake, keys).created >= JOBS * 0.3, 240000, 'a third of the effects');
    first.kill('SIGKILL');
    expect(await exited(first)).toEqual({ code: null, signal: 'SIGKILL' });
    const atKill = effects(fake, keys).created;
    expect(atKill).toBeLessThan(JOBS);
    const second = startWorker('put');
    await until(async () => (await stages(keys)).synced === JOBS, 400000, 'every mapping synced');
    const result = effects(fake, keys);
    const repeated = keys.filter((k) => (fake.requests.get(k) ?? 0) > 1).length;
    console.log(
      `reliability: ${JOBS} jobs enqueued in ${enqueuedMs} ms, killed at ${atKill} effects, all synced after ${Date.now() - started} ms; ` +
        `effects ${result.created}, duplicates ${result.duplicates}, keys called more than once ${repeated}`,
    );
    expect(result).toEqual({ created: JOBS, duplicates: 0 });
    expect(repeated).toBeGreaterThan(0); // the faults and the kill did make calls repeat
    // every mapping holds the provider's id of its own record
    const mismatched = await t.withEm((em) =>
      em.getConnection().execute<{ n: string }[]>(
        `select count(*) as n from sync_mapping where organization_id = ? and (remote_id is null or stage <> 'synced')
           and local_id = any(?::uuid[])`,
        [organizationId, `{${keys.join(',')}}`],
      ),
    );
    expect(Number(mismatched[0].n)).toBe(0);
    await Promise.all([stop(second), stop(other)]);
  }, 600000);

  it('with retries off, the same faults lose effects: the test can fail', async () => {
    const keys = Array.from({ length: 1000 }, () => randomUUID());
    fake.failBefore = 3;
    fake.failAfter = 0;
    await enqueue(keys, 1);
    const worker = startWorker('put');
    await until(async () => {
      const s = await stages(keys);
      return (s.synced ?? 0) + (s.failed ?? 0) === keys.length;
    }, 60000, 'every job settled');
    const result = effects(fake, keys);
    expect(result.created).toBeLessThan(keys.length);
    expect((await stages(keys)).failed).toBe(keys.length - result.created);
    await stop(worker);
  }, 120000);

  it('with a keyless create and the remote-id check off, a lost answer duplicates effects: the test can fail', async () => {
    const keys = Array.from({ length: 1000 }, () => randomUUID());
    fake.failBefore = 0;
    fake.failAfter = 3;
    await enqueue(keys);
    const worker = startWorker('post');
    await until(async () => (await stages(keys)).synced === keys.length, 60000, 'every mapping synced');
    const result = effects(fake, keys);
    expect(result.created).toBe(keys.length);
    expect(result.duplicates).toBeGreaterThan(0);
    await stop(worker);
  }, 120000);

  it('on SIGTERM a worker finishes its active job before it exits', async () => {
    const key = randomUUID();
    fake.failBefore = 0;
    fake.failAfter = 0;
    fake.delayMs = 1500;
    const worker = startWorker('put');
    await enqueue([key]);
    await until(() => fake.requests.has(key), 30000, 'the job to start');
    worker.kill('SIGTERM');
    expect(await exited(worker)).toEqual({ code: 0, signal: null });
    expect(await stages([key])).toEqual({ synced: 1 });
    expect(fake.requests.get(key)).toBe(1);
    fake.delayMs = 0;
  }, 60000);
});
