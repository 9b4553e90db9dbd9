#!/usr/bin/env node
// Sync worker throughput: N sync jobs through our worker process (dist/worker.js's startWorker with
// the reliability test's PUT-by-key handler, test/support/sync-reliability-worker.js) against a
// local fake provider, next to a bare BullMQ Worker doing the same HTTP PUT on the same Redis, in
// the same run, with the same concurrency. Ours also writes the mapping row twice per job
// (syncing, then synced with the remote id) and checks the remote id.
//
// As a module: `run(ctx)` answers rows {figure, value, reference, ratio, target, met}.
// Standalone: `node backend/scripts/bench/sync.mjs` (after `npm run build -w @studio/backend`).
// BENCH_SYNC_JOBS (default 3000), BENCH_PG_URL / TEST_PG_URL, REDIS_URL.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const BACKEND = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKER = join(BACKEND, 'test', 'support', 'sync-reliability-worker.js');

function fake() {
  let first = 0;
  let last = 0;
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      if (!first) first = now;
      last = now;
      count += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: req.url.split('/').pop() }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        reset: () => ((first = 0), (last = 0), (count = 0)),
        span: () => ({ count, ms: last - first }),
        close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))),
      }),
    ),
  );
}

const until = async (check, timeoutMs, what) => {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

export async function run(ctx = {}) {
  const jobs = Number(ctx.syncJobs ?? process.env.BENCH_SYNC_JOBS ?? 3000);
  const { Client } = require('pg');
  const { Queue, Worker } = require('bullmq');
  const { Redis } = require('ioredis');
  const pgRoot = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const suffix = randomBytes(4).toString('hex');
  const dbName = `studio_bench_sync_${suffix}`;
  const dbUrl = new URL(pgRoot);
  dbUrl.pathname = `/${dbName}`;
  const prefix = `bench_sync_${suffix}`;
  const admin = async (sql) => {
    const c = new Client({ connectionString: pgRoot });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database "${dbName}"`);
  const provider = await fake();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  let app;
  let worker;
  let db = null;
  try {
    // The API side, as production enqueues: SyncJobsService.enqueue (mapping row + BullMQ job).
    const { loadConfig } = require(join(BACKEND, 'dist/config/config.schema.js'));
    const { createAppContext } = require(join(BACKEND, 'dist/app.factory.js'));
    const { SyncJobsService } = require(join(BACKEND, 'dist/modules/sync/jobs/sync-jobs.service.js'));
    const env = {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      QUEUE_MODE: 'redis',
      SERVE_WEB: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
    };
    app = await createAppContext(loadConfig({ ...env, RUN_WORKER: 'false' }));
    const organizationId = randomUUID();
    db = new Client({ connectionString: dbUrl.toString() });
    // The database is dropped with (force) at the end: a connection still open then must not crash the run.
    db.on('error', () => undefined);
    await db.connect();
    await db.query(`insert into organization (id, name) values ($1, 'Bench Studio')`, [organizationId]);
    const service = app.context.get(SyncJobsService);
    const keys = Array.from({ length: jobs }, () => randomUUID());
    for (let i = 0; i < keys.length; i += 200) {
      await Promise.all(
        keys.slice(i, i + 200).map((localId) =>
          service.enqueue({ organizationId, provider: 'mailchimp', action: 'reliability.member', localType: 'student', localId }),
        ),
      );
    }
    // Ours: the worker process, timed from the provider's first call to its last.
    worker = spawn(process.execPath, [WORKER], {
      env: { ...process.env, ...env, RELIABILITY_FAKE_URL: provider.url, RELIABILITY_MODE: 'put' },
      stdio: 'ignore',
    });
    await until(async () => {
      const { rows } = await db.query(`select count(*)::int as n from sync_mapping where stage = 'synced'`);
      return rows[0].n === jobs;
    }, 600000, 'our worker to sync every job');
    const ours = provider.span();
    await new Promise((resolve) => {
      worker.once('exit', resolve);
      worker.kill('SIGTERM');
    });
    worker = null;
    await db.end();
    db = null;

    // Bare: a BullMQ Worker with the same concurrency doing the same PUT, same Redis.
    provider.reset();
    const bareName = 'bare-sync';
    const queue = new Queue(bareName, { connection: redis, prefix });
    await queue.addBulk(keys.map((k) => ({ name: 'put', data: { k }, opts: { jobId: k, removeOnComplete: true } })));
    let done = 0;
    const bare = new Worker(
      bareName,
      async (job) => {
        const res = await fetch(`${provider.url}/lists/reliability/members/${job.data.k}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ key: job.data.k }),
        });
        await res.json();
      },
      { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix, concurrency: 4 },
    );
    bare.on('completed', () => (done += 1));
    await until(() => done === jobs, 600000, 'the bare worker');
    const reference = provider.span();
    await bare.close();
    await queue.close();

    const oursRate = (ours.count / ours.ms) * 1000;
    const bareRate = (reference.count / reference.ms) * 1000;
    ctx.note?.(
      `sync: ${jobs} jobs enqueued through SyncJobsService, then run by one \`dist/worker.js\` process (plus the test-only ` +
        `no-op handler of test/support/sync-reliability-worker.js: one PUT to a local fake), timed from the fake's first ` +
        `call to its last; reference: a bare BullMQ Worker (concurrency 4) doing the same PUT on the same Redis, same run.`,
    );
    return [
      {
        figure: `sync jobs/s, ${jobs} jobs (our worker process vs bare BullMQ Worker, concurrency 4, same Redis and fake)`,
        value: `${Math.round(oursRate)} jobs/s`,
        reference: `${Math.round(bareRate)} jobs/s`,
        ratio: Number((oursRate / bareRate).toFixed(2)),
        target: 'ratio ≥ 0.25 (ours writes the mapping twice per job)',
        met: oursRate / bareRate >= 0.25,
      },
    ];
  } finally {
    if (worker) worker.kill('SIGKILL');
    await db?.end().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await provider.close();
    const keys = await redis.keys(`${prefix}:*`);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    await redis.quit();
    await admin(`drop database if exists "${dbName}" with (force)`).catch(() => undefined);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (rows) => {
      console.table(rows);
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
