import { CreateRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUE, JobEnvelope, JobQueue } from '../../../queue/job-queue';
import { EventbriteOrdersService } from '../drivers/eventbrite/eventbrite-orders.service';

export const EVENTBRITE_POLL_QUEUE = 'sync-eventbrite-poll';
export const EVENTBRITE_POLL_INTERVAL_MS = 5 * 60_000;

/**
 * Polls Eventbrite's orders for each connected organization without a webhook (no `webhook_id` in
 * its connection metadata). One job per organization and interval slot, with a deterministic id
 * (`<org>.eventbrite.poll.<slot>`): any number of API replicas schedule it, it runs once. Each run
 * schedules the next slot, so the chain survives restarts (the bootstrap re-seeds it).
 *
 * TODO(merge with syncjobs): when the queue port offers BullMQ's repeatable jobs
 * (`upsertJobScheduler(<org>.eventbrite.poll, { every })`), schedule that instead of the chain.
 */
@Injectable()
export class EventbriteOrdersCron implements OnApplicationBootstrap {
  private readonly logger = new Logger('EventbriteOrdersCron');

  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly orders: EventbriteOrdersService,
  ) {}

  private get interval(): number {
    return EVENTBRITE_POLL_INTERVAL_MS;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.queue.process(EVENTBRITE_POLL_QUEUE, (job) => this.run(job as JobEnvelope<{ organizationId: string }>));
    try {
      for (const organizationId of await this.organizationsToPoll()) await this.schedule(organizationId);
    } catch (error) {
      this.logger.warn(`Could not seed the Eventbrite polls: ${(error as Error).message}`);
    }
  }

  async organizationsToPoll(): Promise<string[]> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<{ organization_id: string }[]>(
        `select c.organization_id from sync_connection c
          join sync_config s on s.organization_id = c.organization_id and s.provider = 'eventbrite'
         where c.provider = 'eventbrite' and coalesce(c.metadata->>'webhook_id', '') = ''
           and coalesce(s.config->>'organization_id', '') <> ''`,
      );
    return rows.map((r) => r.organization_id);
  }

  /** Queues the organization's next poll (at the next slot boundary; one job per slot). */
  async schedule(organizationId: string, now = Date.now()): Promise<void> {
    const slot = Math.floor(now / this.interval) + 1;
    await this.queue.add(EVENTBRITE_POLL_QUEUE, 'orders.poll', { organizationId }, {
      jobId: `${organizationId}.eventbrite.poll.${slot}`,
      delayMs: Math.max(0, slot * this.interval - now),
      attempts: 3,
      backoffMs: 5000,
    });
  }

  @CreateRequestContext() // the job's entry: its one MikroORM context
  private run(job: JobEnvelope<{ organizationId: string }>): Promise<void> {
    return this.runInContext(job);
  }

  private async runInContext(job: JobEnvelope<{ organizationId: string }>): Promise<void> {
    const { organizationId } = job.data;
    try {
      await this.orders.poll(organizationId);
    } finally {
      if ((await this.organizationsToPoll()).includes(organizationId)) await this.schedule(organizationId);
    }
  }
}
