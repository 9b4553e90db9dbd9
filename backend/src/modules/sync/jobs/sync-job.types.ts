import type { SyncLocalType, SyncProviderName } from '@studio/contracts';

/** What a sync job carries: ids only, never the record (it is read fresh when the job runs). */
export interface SyncJobData {
  organizationId: string;
  provider: SyncProviderName;
  /** What to do, such as `event.upsert`, `event.cancel`, `student.upsert`, `meeting.summary`. */
  action: string;
  localType: SyncLocalType;
  localId: string;
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
  /** `cancelled` when the remote record was cancelled or removed; `synced` by default. */
  stage?: 'synced' | 'cancelled';
}

/**
 * Does one action against one provider for one record. Registered in the SYNC_JOB_HANDLERS list.
 * It must be idempotent: it can run again after a crash, so it reads the mapping's remote id and
 * updates instead of creating again. A 429 is thrown as ProviderRateLimitedError.
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

/** Deterministic: the same change to the same record is one job while it waits. */
export const syncJobId = (job: SyncJobData) =>
  [job.organizationId, job.provider, job.action, job.localType, job.localId].join('.');

export const SYNC_JOB_ATTEMPTS = 6;
export const SYNC_JOB_BACKOFF_MS = 2000;
