/** A job as a processor sees it. Payloads carry ids only; ids are deterministic to deduplicate. */
export interface JobEnvelope<T = unknown> {
  id: string;
  name: string;
  data: T;
  attemptsMade: number;
}

export type JobHandler = (job: JobEnvelope) => Promise<void>;

export interface EnqueueOptions {
  /** Same id, same job: a repeated enqueue is ignored while the first is known. */
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

/** The queue port: BullMQ on Redis in real deployments, in-process when no Redis answers. */
export interface JobQueue {
  readonly mode: 'bullmq' | 'in-process';
  add<T>(queue: string, name: string, data: T, options?: EnqueueOptions): Promise<void>;
  /** Registers the processor of a queue; runs jobs only in a process that runs workers. */
  process(queue: string, handler: JobHandler): void;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const JOB_QUEUE = Symbol('JOB_QUEUE');
export const REDIS_CONNECTION = Symbol('REDIS_CONNECTION');

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;
