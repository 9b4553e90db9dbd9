/** A job as a processor sees it. Payloads carry ids only; ids are deterministic to deduplicate. */
export interface JobEnvelope<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** Attempts already spent before this run (a rate-limited run does not spend one). */
  attemptsMade: number;
  /** The attempts the job was enqueued with (BullMQ's `opts.attempts`). */
  attempts: number;
}

export type JobHandler = (job: JobEnvelope) => Promise<void>;

/**
 * Thrown by a handler when its provider answered 429: the adapter pauses the whole queue for
 * `delayMs` (BullMQ's manual rate limit) and puts the job back without spending an attempt.
 */
export class JobRateLimitedError extends Error {
  constructor(
    readonly delayMs: number,
    message = `rate limited for ${delayMs} ms`,
  ) {
    super(message);
    this.name = 'JobRateLimitedError';
  }
}

/** Thrown by a handler when retrying cannot help: the job fails at once (BullMQ's UnrecoverableError). */
export class JobPermanentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobPermanentError';
  }
}

/** Per-queue worker settings: one provider's queue is tuned to that provider's limits. */
export interface WorkerOptions {
  /** Jobs a worker runs at once (default 4). */
  concurrency?: number;
  /**
   * Jobs of the queue running at once across every worker of every process (BullMQ's global
   * concurrency), for a provider that caps simultaneous connections rather than a rate.
   */
  globalConcurrency?: number;
  /** At most `max` jobs started per `duration` ms, across all workers of the queue. */
  limiter?: { max: number; duration: number };
  /**
   * Called once when a job has failed for good: its attempts are spent (as the queue itself
   * counts them), it threw JobPermanentError, or it stalled more often than allowed.
   */
  onFinalFailure?: (job: JobEnvelope, error: Error) => Promise<void>;
}

export interface EnqueueOptions {
  /**
   * Same id, same job: a repeated enqueue is ignored while the first waits, runs or is kept as
   * completed; a job that failed for good is replaced by the new one.
   */
  jobId?: string;
  attempts?: number;
  backoffMs?: number;
  delayMs?: number;
  /**
   * Forget the job as soon as it completes, so the same id can be queued again for a later change
   * (sync jobs). By default completed jobs are kept a day, and their id deduplicates meanwhile.
   */
  removeOnComplete?: boolean;
}

/** A repeatable schedule: one job of the template every `everyMs` (BullMQ's job scheduler with `every`). */
export interface ScheduleOptions {
  everyMs: number;
  /** Attempts and backoff of each job the schedule produces. */
  attempts?: number;
  backoffMs?: number;
}

/** The queue port: BullMQ on Redis in real deployments, in-process when no Redis answers. */
export interface JobQueue {
  readonly mode: 'bullmq' | 'in-process';
  /** Whether this process runs the queues' workers (RUN_WORKER). */
  readonly runsWorkers: boolean;
  add<T>(queue: string, name: string, data: T, options?: EnqueueOptions): Promise<void>;
  /**
   * Creates or updates the queue's schedule `schedulerId`: a job `name` with `data` now, then every
   * `everyMs`. Upserting the same schedule again (every API replica at start) keeps one schedule,
   * and one job per interval, however many processes upsert it.
   */
  upsertScheduler<T>(queue: string, schedulerId: string, name: string, data: T, options: ScheduleOptions): Promise<void>;
  /**
   * Takes a job that has not started (waiting or delayed) off the queue, so it never runs (a
   * cancelled booking's reminder). Answers whether one was removed; a running or finished job stays.
   */
  remove(queue: string, jobId: string): Promise<boolean>;
  /** Stops the schedule (its jobs already running finish); answers whether there was one. */
  removeScheduler(queue: string, schedulerId: string): Promise<boolean>;
  /** The ids of the queue's schedules. */
  schedulerIds(queue: string): Promise<string[]>;
  /** Registers the processor of a queue; runs jobs only in a process that runs workers. */
  process(queue: string, handler: JobHandler, options?: WorkerOptions): void;
  ping(): Promise<boolean>;
  /**
   * Jobs of this process's queues that are due or running now (not the delayed ones): 0 when the
   * queues are idle. Tests wait for 0 (with the outbox drained) before asserting that nothing more
   * happened, instead of sleeping.
   */
  busyCount(): Promise<number>;
  close(): Promise<void>;
}

export const JOB_QUEUE = Symbol('JOB_QUEUE');
export const REDIS_CONNECTION = Symbol('REDIS_CONNECTION');

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;
