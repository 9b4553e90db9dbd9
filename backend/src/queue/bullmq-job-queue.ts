import { Logger } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, EnqueueOptions, JobHandler, JobQueue } from './job-queue';

/** BullMQ adapter: retries with exponential backoff, idempotent job ids, workers only where enabled. */
export class BullMqJobQueue implements JobQueue {
  readonly mode = 'bullmq' as const;
  private readonly logger = new Logger('BullMqJobQueue');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];

  constructor(
    private readonly redisUrl: string,
    private readonly connection: Redis,
    private readonly runWorkers: boolean,
    private readonly prefix = 'studio',
  ) {}

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add<T>(queue: string, name: string, data: T, options: EnqueueOptions = {}): Promise<void> {
    await this.queue(queue).add(name, data, {
      jobId: options.jobId,
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
      delay: options.delayMs,
      removeOnComplete: options.removeOnComplete ? true : { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }

  process(queue: string, handler: JobHandler): void {
    if (!this.runWorkers) return;
    // Workers block on Redis, so each gets its own connection (BullMQ's requirement).
    const worker = new Worker(
      queue,
      async (job) => handler({ id: job.id ?? '', name: job.name, data: job.data, attemptsMade: job.attemptsMade }),
      { connection: { url: this.redisUrl, maxRetriesPerRequest: null }, prefix: this.prefix, concurrency: 4 },
    );
    worker.on('failed', (job, error) =>
      this.logger.warn(`${queue}/${job?.name} ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`),
    );
    this.workers.push(worker);
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.connection.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
