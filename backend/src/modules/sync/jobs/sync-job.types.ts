import type { SyncLocalType, SyncProviderName } from '@studio/contracts';

/** What a sync job carries: ids only, never the record (it is read fresh when the job runs). */
export interface SyncJobData {
  organizationId: string;
  provider: SyncProviderName;
  /** What to do, such as `event.upsert`, `event.cancel`, `student.upsert`, `meeting.summary`. */
  action: string;
  localType: SyncLocalType;
  localId: string;
  /**
   * The mapping's version when enqueued (set by SyncJobsService.enqueue, part of the job id): a job
   * whose version is behind the mapping's was superseded by a newer one and does nothing.
   */
  version?: number;
}

/** The mapping as the handler finds it: the remote id once created, so a create is never repeated. */
export interface SyncJobMapping {
  id: string;
  remoteId: string | null;
  attempts: number;
}

export interface SyncJobResult {
  /** The provider's id of the record, kept on the mapping. */
  remoteId?: string | null;
  /**
   * `cancelled` when the remote record was cancelled or removed; `failed` when the provider refused
   * the record itself and retrying cannot help (with `error`, its reason), without failing the job
   * (a batch page whose own record was refused still did the rest of the page); `synced` by default.
   */
  stage?: 'synced' | 'cancelled' | 'failed';
  /** Why the record failed (with stage `failed`). */
  error?: string;
}

/**
 * Does one action against one provider for one record. Registered in the SYNC_JOB_HANDLERS list.
 * It must be idempotent: it can run again after a crash, so it reads the mapping's remote id and
 * updates instead of creating again. A 429 is thrown as ProviderRateLimitedError. It runs inside
 * the job's MikroORM context, made once by SyncJobsService.run: it never makes its own.
 */
export interface SyncJobHandler {
  readonly provider: SyncProviderName;
  readonly action: string;
  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult | void>;
}

/** Nest token of the list of handlers (SyncJobHandler[]). */
export const SYNC_JOB_HANDLERS = Symbol('SYNC_JOB_HANDLERS');

/** One queue per provider, so one provider's rate limit pauses only its own jobs. */
export const syncQueueName = (provider: SyncProviderName) => `sync-${provider}`;

/**
 * Deterministic: changes to the same record are one job while it waits. The mapping's version is
 * part of it, so a change made while the record's job runs is a new job (BullMQ ignores an add
 * whose id is still in the queue, and a running job's id is).
 */
export const syncJobId = (job: SyncJobData) =>
  [job.organizationId, job.provider, job.action, job.localType, job.localId, `v${job.version ?? 0}`].join('.');

export const SYNC_JOB_ATTEMPTS = 6;
export const SYNC_JOB_BACKOFF_MS = 2000;
