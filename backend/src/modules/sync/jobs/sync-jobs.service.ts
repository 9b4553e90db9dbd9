import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { SYNC_PROVIDERS } from '@studio/contracts';
import { JOB_QUEUE, JobEnvelope, JobQueue } from '../../../queue/job-queue';
import {
  SYNC_JOB_ATTEMPTS,
  SYNC_JOB_BACKOFF_MS,
  SYNC_JOB_HANDLERS,
  SyncJobData,
  SyncJobHandler,
  syncJobId,
  syncQueueName,
} from './sync-job.types';

/**
 * The API only enqueues; workers (in this process on `npm start`, or `node dist/worker.js`) run
 * the provider effects. Every job has a mapping row: queued when enqueued, syncing while it runs,
 * synced with the remote id, or failed with the error once the retries are spent.
 */
@Injectable()
export class SyncJobsService implements OnModuleInit {
  private readonly logger = new Logger('SyncJobs');
  private readonly handlers = new Map<string, SyncJobHandler>();

  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Optional() @Inject(SYNC_JOB_HANDLERS) handlers: SyncJobHandler[] | null,
  ) {
    for (const handler of handlers ?? []) this.handlers.set(`${handler.provider}:${handler.action}`, handler);
  }

  onModuleInit(): void {
    for (const provider of SYNC_PROVIDERS) {
      this.queue.process(syncQueueName(provider), (job) => this.run(job as JobEnvelope<SyncJobData>));
    }
  }

  /** Records the mapping as queued and enqueues the job (one job per record and action while it waits). */
  /** As enqueue, run no sooner than `delayMs` from now (Zoom's summary after the session). */
  async enqueueLater(data: SyncJobData, delayMs: number): Promise<void> {
    await this.enqueue(data, { delayMs });
  }

  async enqueue(data: SyncJobData, options: { delayMs?: number } = {}): Promise<void> {
    await this.em.getConnection().execute(
      `insert into sync_mapping (id, organization_id, provider, local_type, local_id, stage)
       values (gen_random_uuid(), ?, ?, ?, ?, 'queued')
       on conflict (organization_id, provider, local_type, local_id)
       do update set stage = 'queued', updated_at = now()`,
      [data.organizationId, data.provider, data.localType, data.localId],
    );
    await this.queue.add(syncQueueName(data.provider), data.action, data, {
      jobId: syncJobId(data),
      attempts: SYNC_JOB_ATTEMPTS,
      backoffMs: SYNC_JOB_BACKOFF_MS,
      removeOnComplete: true,
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
    });
  }

  private async run(job: JobEnvelope<SyncJobData>): Promise<void> {
    const data = job.data;
    const handler = this.handlers.get(`${data.provider}:${data.action}`);
    if (!handler) throw new Error(`No sync handler for ${data.provider} ${data.action}`);
    const connection = this.em.getConnection();
    const [mapping] = await connection.execute<{ id: string; remote_id: string | null; attempts: number }[]>(
      `update sync_mapping set stage = 'syncing', attempts = attempts + 1, updated_at = now()
       where organization_id = ? and provider = ? and local_type = ? and local_id = ?
       returning id, remote_id, attempts`,
      [data.organizationId, data.provider, data.localType, data.localId],
    );
    if (!mapping) return; // the record's mapping is gone (organization deleted): nothing to do
    try {
      const result = await handler.handle(data, {
        id: mapping.id,
        remoteId: mapping.remote_id,
        attempts: mapping.attempts,
      });
      await connection.execute(
        `update sync_mapping set stage = ?, remote_id = coalesce(?, remote_id), last_error = null,
           last_synced_at = now(), updated_at = now() where id = ?`,
        [result?.stage ?? 'synced', result?.remoteId ?? null, mapping.id],
      );
    } catch (error) {
      const last = job.attemptsMade + 1 >= SYNC_JOB_ATTEMPTS;
      const message = error instanceof Error ? error.message : String(error);
      await connection.execute(
        `update sync_mapping set stage = ?, last_error = ?, updated_at = now() where id = ?`,
        [last ? 'failed' : 'queued', message.slice(0, 2000), mapping.id],
      );
      if (last) this.logger.warn(`${data.provider} ${data.action} ${data.localId} failed for good: ${message}`);
      throw error;
    }
  }
}
