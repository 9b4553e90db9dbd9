import { Logger } from '@nestjs/common';
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, EnqueueOptions, JobHandler, JobQueue } from './job-queue';

interface PendingJob {
  queue: string;
  id: string;
  name: string;
  data: unknown;
  attemptsMade: number;
  attempts: number;
  backoffMs: number;
}

/**
 * The one-machine fallback when no Redis answers: same retries and id deduplication as the BullMQ
 * adapter, but jobs live in memory and are lost on restart (the start-up log says so).
 */
export class InProcessJobQueue implements JobQueue {
  readonly mode = 'in-process' as const;
  private readonly logger = new Logger('InProcessJobQueue');
  private readonly handlers = new Map<string, JobHandler>();
  private readonly known = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiting: PendingJob[] = [];
  private sequence = 0;
  private closed = false;

  constructor(private readonly runWorkers: boolean) {}

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
    this.schedule(job, options.delayMs ?? 0);
  }

  process(queue: string, handler: JobHandler): void {
    if (!this.runWorkers) return;
    this.handlers.set(queue, handler);
    for (const job of this.waiting.splice(0).filter((j) => j.queue === queue)) this.schedule(job, 0);
  }

  private schedule(job: PendingJob, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(job);
    }, delayMs);
    this.timers.add(timer);
  }

  private async run(job: PendingJob): Promise<void> {
    const handler = this.handlers.get(job.queue);
    if (!handler) {
      this.waiting.push(job);
      return;
    }
    try {
      await handler({ id: job.id, name: job.name, data: job.data, attemptsMade: job.attemptsMade });
      this.known.delete(`${job.queue}:${job.id}`);
    } catch (error) {
      job.attemptsMade += 1;
      this.logger.warn(`${job.queue}/${job.name} ${job.id} failed (attempt ${job.attemptsMade}): ${String(error)}`);
      if (job.attemptsMade < job.attempts) this.schedule(job, job.backoffMs * 2 ** (job.attemptsMade - 1));
      else this.known.delete(`${job.queue}:${job.id}`);
    }
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
