import { AsyncResource } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  EnqueueOptions,
  JobHandler,
  JobPermanentError,
  JobQueue,
  JobRateLimitedError,
  ScheduleOptions,
  WorkerOptions,
} from './job-queue';

/** A queue's processor with its options, and when its rate limit lets the next job start. */
interface QueueState {
  handler: JobHandler;
  options: WorkerOptions;
  /** No job of the queue starts before this instant (a 429's Retry-After). */
  pausedUntil: number;
  /** Start instants in the limiter's current window. */
  windowStart: number;
  windowCount: number;
  /** Jobs running now, and the due jobs waiting for one of them to end (concurrency). */
  running: number;
  ready: PendingJob[];
}

/**
 * Jobs of a queue run at once: its concurrency and global concurrency, where it sets them (this
 * process is every worker); a queue that sets neither runs every due job at once, as before.
 */
const concurrencyOf = (options: WorkerOptions) =>
  Math.max(1, Math.min(options.concurrency ?? Infinity, options.globalConcurrency ?? Infinity));

interface PendingJob {
  queue: string;
  id: string;
  name: string;
  data: unknown;
  attemptsMade: number;
  attempts: number;
  backoffMs: number;
}

/** One schedule of upsertScheduler: its settings (to tell a real change) and its interval timer. */
interface Schedule {
  signature: string;
  timer: NodeJS.Timeout | null;
  /** The id of the last job it produced (the next waits until that one has started, as in BullMQ). */
  lastJobKey: string | null;
}

/**
 * The one-machine fallback when no Redis answers: same retries and id deduplication as the BullMQ
 * adapter, but jobs live in memory and are lost on restart (the start-up log says so).
 */
export class InProcessJobQueue implements JobQueue {
  readonly mode = 'in-process' as const;
  private readonly logger = new Logger('InProcessJobQueue');
  private readonly handlers = new Map<string, QueueState>();
  private readonly known = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiting: PendingJob[] = [];
  private readonly schedules = new Map<string, Schedule>();
  /** Jobs picked up by a handler (running, or retried after one), by `queue:id`. */
  private readonly started = new Set<string>();
  /** Jobs queued by id and not started, for remove; a removed one's timer finds it in `removed` and drops it. */
  private readonly pending = new Map<string, PendingJob>();
  private readonly removed = new WeakSet<PendingJob>();
  private sequence = 0;
  private closed = false;
  /** Jobs due now or running (busyCount): counted from their due instant until their attempt ends. */
  private busy = 0;

  /**
   * The async context jobs run in: the one this queue was made in (the application's start), never
   * the enqueuer's. As on BullMQ, a job inherits no request and no transaction: an enqueue from
   * inside a transaction (the outbox relay's) must not hand that transaction, committed by the time
   * the job runs, to the job's queries.
   */
  private readonly root = new AsyncResource('InProcessJobQueue');

  constructor(readonly runsWorkers: boolean) {}

  async add<T>(queue: string, name: string, data: T, options: EnqueueOptions = {}): Promise<void> {
    const id = options.jobId ?? `${++this.sequence}`;
    const key = `${queue}:${id}`;
    if (this.known.has(key)) return;
    this.known.add(key);
    const job: PendingJob = {
      queue,
      id,
      name,
      data,
      attemptsMade: 0,
      attempts: options.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
    };
    if (options.jobId) this.pending.set(key, job);
    this.schedule(job, options.delayMs ?? 0);
  }

  async remove(queue: string, jobId: string): Promise<boolean> {
    const key = `${queue}:${jobId}`;
    const job = this.pending.get(key);
    if (!job) return false;
    this.pending.delete(key);
    this.removed.add(job);
    this.known.delete(key);
    return true;
  }

  /**
   * BullMQ's job scheduler with `every`, on a timer: a job now, then one per interval. The same
   * settings again keep the running schedule (and its rhythm); new settings restart it. Like BullMQ,
   * a schedule produces its next job only once the previous one has started, so a slow or stopped
   * worker does not pile them up. Without workers in this process nothing would ever run them, so
   * nothing is produced (the schedule is still listed).
   */
  async upsertScheduler<T>(queue: string, schedulerId: string, name: string, data: T, options: ScheduleOptions): Promise<void> {
    const key = `${queue}:${schedulerId}`;
    const signature = JSON.stringify([name, data, options.everyMs, options.attempts ?? null, options.backoffMs ?? null]);
    const existing = this.schedules.get(key);
    if (existing?.signature === signature) return;
    if (existing?.timer) clearInterval(existing.timer);
    const schedule: Schedule = { signature, timer: null, lastJobKey: null };
    this.schedules.set(key, schedule);
    if (!this.runsWorkers || this.closed) return;
    const produce = () => {
      if (this.schedules.get(key) !== schedule) return;
      const last = schedule.lastJobKey;
      if (last && this.known.has(last) && !this.started.has(last)) return;
      const jobId = `repeat:${schedulerId}:${Date.now()}`;
      schedule.lastJobKey = `${queue}:${jobId}`;
      void this.add(queue, name, data, { jobId, attempts: options.attempts, backoffMs: options.backoffMs });
    };
    schedule.timer = setInterval(produce, Math.max(1, options.everyMs));
    produce();
  }

  async removeScheduler(queue: string, schedulerId: string): Promise<boolean> {
    const key = `${queue}:${schedulerId}`;
    const schedule = this.schedules.get(key);
    if (!schedule) return false;
    if (schedule.timer) clearInterval(schedule.timer);
    this.schedules.delete(key);
    return true;
  }

  async schedulerIds(queue: string): Promise<string[]> {
    const prefix = `${queue}:`;
    return [...this.schedules.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)).sort();
  }

  process(queue: string, handler: JobHandler, options: WorkerOptions = {}): void {
    if (!this.runsWorkers) return;
    this.handlers.set(queue, { handler, options, pausedUntil: 0, windowStart: 0, windowCount: 0, running: 0, ready: [] });
    for (const job of this.waiting.splice(0).filter((j) => j.queue === queue)) this.schedule(job, 0);
  }

  private schedule(job: PendingJob, delayMs: number): void {
    if (this.closed) return;
    const timer = this.root.runInAsyncScope(() =>
      setTimeout(() => {
        this.timers.delete(timer);
        // Due: busy until its attempt ends (or it waits again: a limiter, no handler yet, removed).
        this.busy += 1;
        void this.run(job).finally(() => (this.busy -= 1));
      }, delayMs),
    );
    this.timers.add(timer);
  }

  async busyCount(): Promise<number> {
    return this.busy + this.handlersReady();
  }

  /** Due jobs waiting for a free slot of their queue's concurrency. */
  private handlersReady(): number {
    let ready = 0;
    for (const state of this.handlers.values()) ready += state.ready.length;
    return ready;
  }

  /** Same contract as BullMQ's limiter and manual rate limit: a job waits until its queue may start one. */
  private startDelay(state: QueueState): number {
    const now = Date.now();
    if (state.pausedUntil > now) return state.pausedUntil - now;
    const limiter = state.options.limiter;
    if (!limiter) return 0;
    if (now - state.windowStart >= limiter.duration) {
      state.windowStart = now;
      state.windowCount = 0;
    }
    if (state.windowCount >= limiter.max) return state.windowStart + limiter.duration - now;
    state.windowCount += 1;
    return 0;
  }

  private async run(job: PendingJob): Promise<void> {
    if (this.removed.has(job)) return;
    const state = this.handlers.get(job.queue);
    if (!state) {
      this.waiting.push(job);
      return;
    }
    if (state.running >= concurrencyOf(state.options)) {
      state.ready.push(job);
      return;
    }
    const wait = this.startDelay(state);
    if (wait > 0) return this.schedule(job, wait);
    state.running += 1;
    try {
      await this.attempt(state, job);
    } finally {
      state.running -= 1;
      const next = state.ready.shift();
      if (next) this.schedule(next, 0);
    }
  }

  private async attempt(state: QueueState, job: PendingJob): Promise<void> {
    const key = `${job.queue}:${job.id}`;
    this.started.add(key);
    if (this.pending.get(key) === job) this.pending.delete(key);
    try {
      await state.handler({
        id: job.id,
        name: job.name,
        data: job.data,
        attemptsMade: job.attemptsMade,
        attempts: job.attempts,
      });
      this.known.delete(key);
      this.started.delete(key);
    } catch (error) {
      if (error instanceof JobRateLimitedError) {
        // The whole queue waits; the job goes back without spending an attempt.
        state.pausedUntil = Math.max(state.pausedUntil, Date.now() + error.delayMs);
        return this.schedule(job, error.delayMs);
      }
      job.attemptsMade += 1;
      this.logger.warn(`${job.queue}/${job.name} ${job.id} failed (attempt ${job.attemptsMade}): ${String(error)}`);
      if (job.attemptsMade < job.attempts && !(error instanceof JobPermanentError)) {
        this.schedule(job, job.backoffMs * 2 ** (job.attemptsMade - 1));
        return;
      }
      this.known.delete(key);
      this.started.delete(key);
      try {
        await state.options.onFinalFailure?.(
          { id: job.id, name: job.name, data: job.data, attemptsMade: job.attemptsMade, attempts: job.attempts },
          error instanceof Error ? error : new Error(String(error)),
        );
      } catch (hookError) {
        this.logger.error(`final failure hook of ${job.id}: ${String(hookError)}`);
      }
    }
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const schedule of this.schedules.values()) if (schedule.timer) clearInterval(schedule.timer);
    this.schedules.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
