import { CreateRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { HttpStatus } from '@nestjs/common';
import { SYNC_JOB_MESSAGES as M, SYNC_PROVIDERS, SyncProviderName } from '@studio/contracts';
import { ApiError, notFound } from '../../../common/api-error';

import {
  JOB_QUEUE,
  JobEnvelope,
  JobPermanentError,
  JobQueue,
  JobRateLimitedError,
} from '../../../queue/job-queue';
import { ProviderRateLimitedError, ProviderRejectedError } from '../drivers/sync-driver';
import { SyncReconnectRequiredError } from '../oauth/sync-oauth.service';
import { ProviderNotConnectedError } from '../sync-connections.service';
import { SYNC_WORKER_OPTIONS } from './sync-rate-limits';
import {
  SYNC_JOB_ATTEMPTS,
  SYNC_JOB_BACKOFF_MS,
  SYNC_JOB_HANDLERS,
  SyncJobData,
  SyncJobHandler,
  syncJobId,
  syncQueueName,
} from './sync-job.types';
import { isUuid } from '../../../common/uuid-param.pipe';

/**
 * The API only enqueues; workers (in this process on `npm start`, or `node dist/worker.js`) run
 * the provider effects. Every job has a mapping row: queued when enqueued, syncing while it runs,
 * synced with the remote id, or failed with the error once the retries are spent.
 */
@Injectable()
export class SyncJobsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('SyncJobs');
  private readonly handlers = new Map<string, SyncJobHandler>();

  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Optional() @Inject(SYNC_JOB_HANDLERS) handlers: SyncJobHandler[] | null,
  ) {
    for (const handler of handlers ?? []) this.handlers.set(`${handler.provider}:${handler.action}`, handler);
  }

  /** Adds a handler after construction (a module's onModuleInit; processing starts at bootstrap). */
  register(handler: SyncJobHandler): void {
    this.handlers.set(`${handler.provider}:${handler.action}`, handler);
  }

  /** After every module's onModuleInit, so handlers registered there are known before a job runs. */
  onApplicationBootstrap(): void {
    for (const provider of SYNC_PROVIDERS) {
      this.queue.process(syncQueueName(provider), (job) => this.run(job as JobEnvelope<SyncJobData>), {
        ...SYNC_WORKER_OPTIONS[provider],
        onFinalFailure: (job, error) => this.markFailed(job as JobEnvelope<SyncJobData>, error),
      });
    }
  }

  /** As enqueue, run no sooner than `delayMs` from now (Zoom's summary after the session). */
  async enqueueLater(data: SyncJobData, delayMs: number): Promise<void> {
    await this.enqueue(data, { delayMs });
  }

  /**
   * Records the mapping as queued and enqueues the job. The mapping's version is bumped unless it
   * is already queued: a waiting job reads the record fresh when it runs, so repeated changes while
   * it waits stay one job (same version, same job id), while a change made when the record is
   * syncing (or synced, or failed) is a new job under a new id. `attempts` is for tests and tools;
   * jobs use SYNC_JOB_ATTEMPTS.
   */
  async enqueue(data: SyncJobData, options: { attempts?: number; delayMs?: number } = {}): Promise<void> {
    const [row] = await this.em.getConnection().execute<{ version: number }[]>(
      `insert into sync_mapping (id, organization_id, provider, local_type, local_id, action, stage, version)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, 'queued', 1)
       on conflict (organization_id, provider, local_type, local_id)
       do update set stage = 'queued', action = excluded.action, updated_at = now(),
         version = case when sync_mapping.stage = 'queued' then sync_mapping.version else sync_mapping.version + 1 end
       returning version`,
      [data.organizationId, data.provider, data.localType, data.localId, data.action],
    );
    const job: SyncJobData = {
      organizationId: data.organizationId,
      provider: data.provider,
      action: data.action,
      localType: data.localType,
      localId: data.localId,
      version: row.version,
    };
    await this.queue.add(syncQueueName(data.provider), data.action, job, {
      jobId: syncJobId(job),
      attempts: options.attempts ?? SYNC_JOB_ATTEMPTS,
      backoffMs: SYNC_JOB_BACKOFF_MS,
      removeOnComplete: true,
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
    });
  }

  /**
   * Retry from the panel: enqueues the failed mapping's last job again, with fresh attempts.
   * Another organization's mapping is 404; a mapping that is not failed is 409.
   */
  async retry(organizationId: string, mappingId: string): Promise<SyncProviderName> {
    if (!isUuid(mappingId)) throw notFound(M.mappingNotFound);
    const [mapping] = await this.em.getConnection().execute<
      { provider: SyncJobData['provider']; local_type: SyncJobData['localType']; local_id: string; action: string | null; stage: string }[]
    >(`select provider, local_type, local_id, action, stage from sync_mapping where id = ? and organization_id = ?`, [
      mappingId,
      organizationId,
    ]);
    if (!mapping) throw notFound(M.mappingNotFound);
    if (mapping.stage !== 'failed' || !mapping.action) throw new ApiError(HttpStatus.CONFLICT, M.mappingNotFailed);
    await this.enqueue({
      organizationId,
      provider: mapping.provider,
      action: mapping.action,
      localType: mapping.local_type,
      localId: mapping.local_id,
    });
    return mapping.provider;
  }

  /**
   * The job's entry: its one MikroORM context is made here (jobs run outside any HTTP request);
   * handlers run inside it and never make their own.
   */
  @CreateRequestContext()
  private async run(job: JobEnvelope<SyncJobData>): Promise<void> {
    const data = job.data;
    const handler = this.handlers.get(`${data.provider}:${data.action}`);
    if (!handler) throw new Error(`No sync handler for ${data.provider} ${data.action}`);
    const connection = this.em.getConnection();
    // A job of an older version was superseded by a newer one (enqueued while this one waited for
    // a retry): that one reads the record fresh, this one does nothing. (A job without a version
    // was enqueued before versions existed: it runs.)
    const [mapping] = await connection.execute<{ id: string; remote_id: string | null; attempts: number; version: number }[]>(
      `update sync_mapping set stage = 'syncing', attempts = attempts + 1, updated_at = now()
       where organization_id = ? and provider = ? and local_type = ? and local_id = ?
         and (?::integer is null or version <= ?::integer)
       returning id, remote_id, attempts, version`,
      [data.organizationId, data.provider, data.localType, data.localId, data.version ?? null, data.version ?? null],
    );
    if (!mapping) return; // superseded, or the record's mapping is gone (organization deleted)
    const version = data.version ?? mapping.version;
    try {
      const result = await handler.handle(data, {
        id: mapping.id,
        remoteId: mapping.remote_id,
        attempts: mapping.attempts,
      });
      // The remote id is kept in any case; the stage only if no newer change was enqueued while
      // this job ran (its job is queued under the next version and will sync it).
      const stage = result?.stage ?? 'synced';
      await connection.execute(
        `update sync_mapping set remote_id = coalesce(?, remote_id), last_synced_at = now(), updated_at = now(),
           stage = case when version = ? then ? else stage end,
           last_error = case when version = ? then ? else last_error end
         where id = ?`,
        [
          result?.remoteId ?? null,
          version,
          stage,
          version,
          stage === 'failed' ? (result?.error ?? `${data.provider} refused this record`).slice(0, 2000) : null,
          mapping.id,
        ],
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ProviderRateLimitedError) {
        // Not an attempt: the queue pauses for Retry-After and the job runs again after it.
        await connection.execute(
          `update sync_mapping set stage = 'queued', attempts = greatest(attempts - 1, 0), last_error = ?,
             updated_at = now() where id = ?`,
          [message.slice(0, 2000), mapping.id],
        );
        throw new JobRateLimitedError(error.retryAfterMs, message);
      }
      // Retries are pending until the queue says otherwise (markFailed, from its own attempt count).
      await connection.execute(
        `update sync_mapping set stage = 'queued', last_error = ?, updated_at = now() where id = ?`,
        [message.slice(0, 2000), mapping.id],
      );
      // Refused for good, not connected (disconnected after the job was queued), or a connection the
      // provider no longer accepts: retrying cannot help.
      if (
        error instanceof ProviderRejectedError ||
        error instanceof ProviderNotConnectedError ||
        error instanceof SyncReconnectRequiredError
      ) {
        throw new JobPermanentError(message);
      }
      throw error;
    }
  }

  /**
   * The queue gave up on the job (attempts spent, a permanent refusal, or stalled too often). A
   * newer version's job is queued when the versions differ: that one decides the stage.
   */
  private async markFailed(job: JobEnvelope<SyncJobData>, error: Error): Promise<void> {
    const data = job.data;
    this.logger.warn(`${data.provider} ${data.action} ${data.localId} failed for good: ${error.message}`);
    await this.em.getConnection().execute(
      `update sync_mapping set stage = 'failed', last_error = ?, updated_at = now()
       where organization_id = ? and provider = ? and local_type = ? and local_id = ?
         and (?::integer is null or version = ?::integer)`,
      [
        error.message.slice(0, 2000),
        data.organizationId,
        data.provider,
        data.localType,
        data.localId,
        data.version ?? null,
        data.version ?? null,
      ],
    );
  }
}
