import { Logger } from '@nestjs/common';
import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  EnqueueOptions,
  JobEnvelope,
  JobHandler,
  JobPermanentError,
  JobQueue,
  JobRateLimitedError,
  ScheduleOptions,
  WorkerOptions,
} from './job-queue';

/** How many times a job may lose its worker (killed mid-run) before BullMQ fails it for good. */
export const MAX_STALLED_COUNT = 20;

const envelope = (job: Job): JobEnvelope => ({
  id: job.id ?? '',
  name: job.name,
  data: job.data as unknown,
  attemptsMade: job.attemptsMade,
  attempts: job.opts.attempts ?? 1,
});

/** BullMQ adapter: retries with exponential backoff, idempotent job ids, workers only where enabled. */
export class BullMqJobQueue implements JobQueue {
  readonly mode = 'bullmq' as const;
  private readonly logger = new Logger('BullMqJobQueue');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];

  constructor(
    private readonly redisUrl: string,
    private readonly connection: Redis,
    readonly runsWorkers: boolean,
    private readonly prefix = 'studio',
    private readonly lockMs = 30000,
  ) {}

  /** Every queue this process enqueues to or processes (the dashboard lists them). */
  queueNames(): string[] {
    return [...this.queues.keys()].sort();
  }

  /** The BullMQ queue of a name (the dashboard's adapter reads it). */
  bullQueue(name: string): Queue {
    return this.queue(name);
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add<T>(queue: string, name: string, data: T, options: EnqueueOptions = {}): Promise<void> {
    if (options.jobId) {
      // A failed job is kept (for the dashboard) but must not swallow a new enqueue of its id
      // (Retry, or a later change to the record): it is replaced.
      const previous = await this.queue(queue).getJob(options.jobId);
      if (previous && (await previous.isFailed())) await previous.remove().catch(() => undefined);
    }
    await this.queue(queue).add(name, data, {
      jobId: options.jobId,
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
      delay: options.delayMs,
      removeOnComplete: options.removeOnComplete ? true : { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }

  async remove(queue: string, jobId: string): Promise<boolean> {
    const job = await this.queue(queue).getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state !== 'delayed' && state !== 'waiting' && state !== 'prioritized') return false;
    // A worker may take it meanwhile: then it runs (a reminder reads its booking fresh and skips).
    return job.remove().then(
      () => true,
      () => false,
    );
  }

  async upsertScheduler<T>(queue: string, schedulerId: string, name: string, data: T, options: ScheduleOptions): Promise<void> {
    await this.queue(queue).upsertJobScheduler(
      schedulerId,
      { every: options.everyMs },
      {
        name,
        data,
        opts: {
          attempts: options.attempts ?? DEFAULT_ATTEMPTS,
          backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
          removeOnComplete: { age: 24 * 3600, count: 100 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      },
    );
  }

  async removeScheduler(queue: string, schedulerId: string): Promise<boolean> {
    return this.queue(queue).removeJobScheduler(schedulerId);
  }

  async schedulerIds(queue: string): Promise<string[]> {
    const found = await this.queue(queue).getJobSchedulers(0, -1, true);
    return found.map((s) => s.key).sort();
  }

  process(queue: string, handler: JobHandler, options: WorkerOptions = {}): void {
    this.queue(queue); // known to the dashboard even where no worker runs
    if (!this.runsWorkers) return;
    if (options.globalConcurrency) {
      // Kept in Redis by the queue, read by every worker: N processes together stay under it.
      this.queue(queue)
        .setGlobalConcurrency(options.globalConcurrency)
        .catch((error: unknown) => this.logger.warn(`${queue} global concurrency: ${String(error)}`));
    }
    // Workers block on Redis, so each gets its own connection (BullMQ's requirement).
    const worker = new Worker(
      queue,
      async (job) => {
        try {
          await handler(envelope(job));
        } catch (error) {
          if (error instanceof JobRateLimitedError) {
            // Manual rate limit: the whole queue waits (every worker), the job goes back to wait
            // and does not spend an attempt.
            await this.queue(queue).rateLimit(Math.max(1, Math.round(error.delayMs)));
            throw Worker.RateLimitError();
          }
          if (error instanceof JobPermanentError) throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      {
        connection: { url: this.redisUrl, maxRetriesPerRequest: null },
        prefix: this.prefix,
        concurrency: options.concurrency ?? 4,
        // BullMQ honours a manual rateLimit() (a 429's Retry-After) only on a worker with a
        // limiter: queues without their own limit get one too high to ever bind.
        limiter: options.limiter ?? { max: 1_000_000, duration: 1000 },
        lockDuration: this.lockMs,
        stalledInterval: this.lockMs,
        // A job whose worker died mid-run is taken again (at least once; handlers are idempotent).
        // BullMQ's default, 1, failed a mail or a waiver request for good once two workers had died
        // holding it (the crash test lost 8 mails that way); a job that kills every worker stops at 20.
        maxStalledCount: MAX_STALLED_COUNT,
      },
    );
    worker.on('failed', (job, error) => {
      if (!job) return;
      // BullMQ decides: a job moved to failed for good has finishedOn; attempts as it counts them.
      const final = Boolean(job.finishedOn) || job.attemptsMade >= (job.opts.attempts ?? 1);
      this.logger.warn(
        `${queue}/${job.name} ${job.id} failed (attempt ${job.attemptsMade}/${job.opts.attempts ?? 1}${final ? ', final' : ''}): ${error.message}`,
      );
      if (final) void this.finalFailure(options, envelope(job), error);
    });
    // A job whose worker died is put back by the stalled checker; past MAX_STALLED_COUNT BullMQ fails
    // it without running a processor, so no 'failed' event reaches this worker: read its state.
    worker.on('stalled', (jobId) => {
      void (async () => {
        const job = await Job.fromId(this.queue(queue), jobId);
        if (job && (await job.isFailed())) {
          await this.finalFailure(options, envelope(job), new Error(job.failedReason || 'job stalled'));
        }
      })().catch((error: unknown) => this.logger.warn(`stalled ${queue} ${jobId}: ${String(error)}`));
    });
    worker.on('error', (error) => this.logger.warn(`${queue} worker: ${error.message}`));
    this.workers.push(worker);
  }

  private async finalFailure(options: WorkerOptions, job: JobEnvelope, error: Error): Promise<void> {
    try {
      await options.onFinalFailure?.(job, error);
    } catch (hookError) {
      this.logger.error(`final failure hook of ${job.id}: ${String(hookError)}`);
    }
  }

  async busyCount(): Promise<number> {
    let busy = 0;
    for (const queue of this.queues.values()) {
      const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children');
      busy += Object.values(counts).reduce((sum, n) => sum + n, 0);
    }
    return busy;
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
