import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { BullMqJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobEnvelope, JobPermanentError, JobQueue, JobRateLimitedError } from './job-queue';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Waits until the predicate holds, or fails after the timeout. */
async function eventually(predicate: () => boolean, timeoutMs = 10000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Factory = () => Promise<{ queue: JobQueue; cleanup: () => Promise<void> }>;

const adapters: [string, Factory][] = [
  [
    'BullMQ on Redis',
    async () => {
      const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
      const prefix = `test_${randomBytes(4).toString('hex')}`;
      const queue = new BullMqJobQueue(REDIS_URL, connection, true, prefix);
      return {
        queue,
        cleanup: async () => {
          await queue.close();
          const keys = await connection.keys(`${prefix}:*`);
          if (keys.length) await connection.del(...keys);
          await connection.quit();
        },
      };
    },
  ],
  [
    'in-process',
    async () => {
      const queue = new InProcessJobQueue(true);
      return { queue, cleanup: () => queue.close() };
    },
  ],
];

describe.each(adapters)('job queue: %s', (_name, factory) => {
  let queue: JobQueue;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ queue, cleanup } = await factory()));
  afterEach(() => cleanup());

  it('runs a job once per job id, however often it is enqueued', async () => {
    const seen: JobEnvelope[] = [];
    queue.process('emails', async (job) => {
      seen.push(job);
    });
    await queue.add('emails', 'welcome', { userId: 'u1' }, { jobId: 'welcome-u1' });
    await queue.add('emails', 'welcome', { userId: 'u1' }, { jobId: 'welcome-u1' });
    await queue.add('emails', 'welcome', { userId: 'u2' }, { jobId: 'welcome-u2' });
    await eventually(() => seen.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.map((j) => j.data).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { userId: 'u1' },
      { userId: 'u2' },
    ]);
  });

  it('removes a delayed job before it runs; a removed id can be queued again; a finished job is not removed', async () => {
    const seen: string[] = [];
    queue.process('reminders', async (job) => {
      seen.push(job.id);
    });
    await queue.add('reminders', 'remind', {}, { jobId: 'r-1', delayMs: 300 });
    await queue.add('reminders', 'remind', {}, { jobId: 'r-2', delayMs: 300 });
    expect(await queue.remove('reminders', 'r-1')).toBe(true);
    expect(await queue.remove('reminders', 'missing')).toBe(false);
    await eventually(() => seen.includes('r-2'));
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual(['r-2']);
    expect(await queue.remove('reminders', 'r-2')).toBe(false);
    await queue.add('reminders', 'remind', {}, { jobId: 'r-1' });
    await eventually(() => seen.includes('r-1'));
  });

  it('retries a failing job with backoff until it succeeds', async () => {
    const attempts: number[] = [];
    queue.process('sync', async (job) => {
      attempts.push(job.attemptsMade);
      if (attempts.length < 3) throw new Error('provider unavailable');
    });
    await queue.add('sync', 'push', { id: 1 }, { jobId: 'push-1', attempts: 5, backoffMs: 10 });
    await eventually(() => attempts.length === 3);
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('pauses the queue on a rate limit without spending an attempt', async () => {
    const runs: { at: number; attemptsMade: number; id: string }[] = [];
    let limited = false;
    queue.process('limited', async (job) => {
      runs.push({ at: Date.now(), attemptsMade: job.attemptsMade, id: job.id });
      if (job.id === 'a' && !limited) {
        limited = true;
        throw new JobRateLimitedError(600);
      }
    });
    await queue.add('limited', 'push', {}, { jobId: 'a', attempts: 1 });
    await eventually(() => limited);
    const limitedAt = Date.now();
    await queue.add('limited', 'push', {}, { jobId: 'b', attempts: 1 });
    await eventually(() => runs.length === 3, 5000);
    // both the retried job and the one enqueued after it waited for the pause; attempts 1 was enough
    for (const run of runs.slice(1)) expect(run.at - limitedAt).toBeGreaterThanOrEqual(450);
    expect(runs.filter((r) => r.id === 'a').map((r) => r.attemptsMade)).toEqual([0, 0]);
  });

  it('keeps under the limiter: at most max starts per duration', async () => {
    const starts: number[] = [];
    queue.process('metered', async () => void starts.push(Date.now()), { limiter: { max: 2, duration: 300 } });
    for (let i = 0; i < 6; i++) await queue.add('metered', 'push', { i }, { jobId: `m${i}` });
    await eventually(() => starts.length === 6, 5000);
    // 6 jobs at 2 per 300 ms take at least two full windows
    expect(starts[5] - starts[0]).toBeGreaterThanOrEqual(550);
  });

  it('runs at most globalConcurrency jobs of a queue at once, however many workers each allow', async () => {
    let running = 0;
    let most = 0;
    let done = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 60));
      running -= 1;
      done += 1;
    };
    // BullMQ: two workers (as two processes would have) of 4 each; in-process: its one worker.
    const other = factory === adapters[0][1] ? await factory() : null;
    try {
      queue.process('capped', work, { concurrency: 4, globalConcurrency: 3 });
      other?.queue.process('capped', work, { concurrency: 4, globalConcurrency: 3 });
      for (let i = 0; i < 12; i++) await queue.add('capped', 'push', { i }, { jobId: `c${i}` });
      await eventually(() => done === 12, 8000);
      expect(most).toBe(3);
    } finally {
      await other?.cleanup();
    }
  });

  it('reports the final failure once: spent attempts, or at once for a permanent error', async () => {
    const finals: { id: string; attemptsMade: number; message: string }[] = [];
    const runs: string[] = [];
    queue.process(
      'failing',
      async (job) => {
        runs.push(job.id);
        if (job.id === 'permanent') throw new JobPermanentError('400 invalid email');
        throw new Error('provider down');
      },
      { onFinalFailure: async (job, error) => void finals.push({ id: job.id, attemptsMade: job.attemptsMade, message: error.message }) },
    );
    await queue.add('failing', 'push', {}, { jobId: 'transient', attempts: 3, backoffMs: 10 });
    await queue.add('failing', 'push', {}, { jobId: 'permanent', attempts: 3, backoffMs: 10 });
    await eventually(() => finals.length === 2, 5000);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs.filter((id) => id === 'transient')).toHaveLength(3);
    expect(runs.filter((id) => id === 'permanent')).toHaveLength(1);
    expect(finals.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'permanent', attemptsMade: 1, message: '400 invalid email' },
      { id: 'transient', attemptsMade: 3, message: 'provider down' },
    ]);
  });

  it('a job that failed for good does not swallow a new enqueue of its id (Retry)', async () => {
    let fail = true;
    const runs: number[] = [];
    const finals: string[] = [];
    queue.process(
      'replaced',
      async (job) => {
        runs.push(job.attemptsMade);
        if (fail) throw new Error('down');
      },
      { onFinalFailure: async (job) => void finals.push(job.id) },
    );
    await queue.add('replaced', 'push', {}, { jobId: 'r1', attempts: 1 });
    await eventually(() => finals.length === 1);
    fail = false;
    await queue.add('replaced', 'push', {}, { jobId: 'r1', attempts: 1 });
    await eventually(() => runs.length === 2);
    expect(runs).toEqual([0, 0]);
  });

  it('runs a schedule now and then every interval, once however often it is upserted, until it is removed', async () => {
    const runs: { at: number; data: unknown; id: string }[] = [];
    queue.process('polls', async (job) => void runs.push({ at: Date.now(), data: job.data, id: job.id }));
    // Two replicas upsert the same schedule at start: one schedule, one job per interval.
    await queue.upsertScheduler('polls', 'org-1.poll', 'orders.poll', { organizationId: 'org-1' }, { everyMs: 400 });
    await queue.upsertScheduler('polls', 'org-1.poll', 'orders.poll', { organizationId: 'org-1' }, { everyMs: 400 });
    await queue.upsertScheduler('polls', 'org-2.poll', 'orders.poll', { organizationId: 'org-2' }, { everyMs: 400 });
    expect(await queue.schedulerIds('polls')).toEqual(['org-1.poll', 'org-2.poll']);
    await eventually(() => runs.filter((r) => (r.data as { organizationId: string }).organizationId === 'org-1').length >= 3, 5000);
    const org1 = runs.filter((r) => (r.data as { organizationId: string }).organizationId === 'org-1');
    // Every interval, not twice per interval (the second upsert added no schedule). The run "now" is
    // followed by the first run on BullMQ's interval grid, which may come sooner than a whole
    // interval (a CI run saw 285 ms); from there on the runs are an interval apart.
    for (let i = 2; i < org1.length; i++) expect(org1[i].at - org1[i - 1].at).toBeGreaterThanOrEqual(300);
    expect(new Set(org1.map((r) => r.id)).size).toBe(org1.length);

    expect(await queue.removeScheduler('polls', 'org-1.poll')).toBe(true);
    expect(await queue.removeScheduler('polls', 'org-1.poll')).toBe(false);
    expect(await queue.schedulerIds('polls')).toEqual(['org-2.poll']);
    await new Promise((r) => setTimeout(r, 150)); // a job produced just before the removal may still run
    const after = runs.filter((r) => (r.data as { organizationId: string }).organizationId === 'org-1').length;
    await new Promise((r) => setTimeout(r, 1000));
    expect(runs.filter((r) => (r.data as { organizationId: string }).organizationId === 'org-1').length).toBe(after);
    // The other schedule kept running.
    expect(runs.filter((r) => (r.data as { organizationId: string }).organizationId === 'org-2').length).toBeGreaterThanOrEqual(4);
    await queue.removeScheduler('polls', 'org-2.poll');
  });

  it('answers the health ping', async () => {
    expect(await queue.ping()).toBe(true);
  });
});

describe('in-process queue without workers', () => {
  it('keeps jobs until a process that runs workers registers their processor', async () => {
    const queue = new InProcessJobQueue(false);
    const seen: unknown[] = [];
    queue.process('emails', async (job) => {
      seen.push(job.data);
    });
    await queue.add('emails', 'welcome', { userId: 'u1' });
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual([]);
    await queue.close();
  });

  it('lists a schedule but produces no job nothing here would run', async () => {
    const queue = new InProcessJobQueue(false);
    await queue.upsertScheduler('polls', 'org-1.poll', 'orders.poll', {}, { everyMs: 20 });
    expect(await queue.schedulerIds('polls')).toEqual(['org-1.poll']);
    await new Promise((r) => setTimeout(r, 100));
    // Nothing piled up: a process with workers registering later would run no backlog of polls.
    expect((queue as unknown as { waiting: unknown[] }).waiting).toHaveLength(0);
    await queue.close();
  });
});
