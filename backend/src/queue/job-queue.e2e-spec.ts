import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { BullMqJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobEnvelope, JobQueue } from './job-queue';

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
});
