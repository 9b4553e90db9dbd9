import { CreateRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JOB_QUEUE, JobEnvelope, JobQueue } from '../../../queue/job-queue';
import { EventbriteOrdersService } from '../drivers/eventbrite/eventbrite-orders.service';
import { SyncChangeEvents } from '../sync-config-events';

export const EVENTBRITE_POLL_QUEUE = 'sync-eventbrite-poll';
export const EVENTBRITE_POLL_INTERVAL_MS = 5 * 60_000;

/** The id of an organization's poll schedule (one per organization). */
export const eventbritePollScheduler = (organizationId: string) => `${organizationId}.eventbrite.poll`;

/**
 * Polls Eventbrite's orders for each connected organization with an Eventbrite organization chosen
 * and no webhook (no `webhook_id` in its connection metadata): one repeatable schedule per
 * organization (the queue's upsertScheduler: BullMQ's job scheduler on Redis, a timer in-process),
 * every EVENTBRITE_POLL_INTERVAL_MS. Upserting is idempotent, so every API replica may do it.
 *
 * The schedules follow the connections: a config save, a (re)connect, a webhook registered or
 * deleted, or a disconnect calls `refresh`; each start reconciles them all; and a poll that finds its
 * organization no longer polled removes its own schedule.
 */
@Injectable()
export class EventbriteOrdersCron implements OnApplicationBootstrap {
  private readonly logger = new Logger('EventbriteOrdersCron');

  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly orders: EventbriteOrdersService,
    changes: SyncChangeEvents,
  ) {
    // From the outbox, with each change: the schedule follows the settings and the connection.
    changes.on('sync.config.saved', 'sync.eventbrite-polls', async (e) => {
      if (e.provider === 'eventbrite') await this.refresh(e.organizationId);
    });
    // A reconnect keeps the chosen organization: it polls again unless a webhook gets registered.
    changes.on('sync.connected', 'sync.eventbrite-polls', async (e) => {
      if (e.provider === 'eventbrite') await this.refresh(e.organizationId);
    });
    changes.on('sync.disconnected', 'sync.eventbrite-polls', async (e) => {
      if (e.provider === 'eventbrite') await this.unschedule(e.organizationId);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.queue.process(EVENTBRITE_POLL_QUEUE, (job) => this.run(job as JobEnvelope<{ organizationId: string }>));
    try {
      await this.reconcile();
    } catch (error) {
      this.logger.warn(`Could not reconcile the Eventbrite polls: ${(error as Error).message}`);
    }
  }

  async organizationsToPoll(organizationId?: string): Promise<string[]> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<{ organization_id: string }[]>(
        `select c.organization_id from sync_connection c
          join sync_config s on s.organization_id = c.organization_id and s.provider = 'eventbrite'
         where c.provider = 'eventbrite' and coalesce(c.metadata->>'webhook_id', '') = ''
           and coalesce(s.config->>'organization_id', '') <> ''
           ${organizationId ? 'and c.organization_id = ?' : ''}`,
        organizationId ? [organizationId] : [],
      );
    return rows.map((r) => r.organization_id);
  }

  /** One schedule per organization to poll, none for the others. */
  async reconcile(): Promise<void> {
    const wanted = await this.organizationsToPoll();
    for (const organizationId of wanted) await this.schedule(organizationId);
    const keep = new Set(wanted.map(eventbritePollScheduler));
    for (const id of await this.queue.schedulerIds(EVENTBRITE_POLL_QUEUE)) {
      if (!keep.has(id)) await this.queue.removeScheduler(EVENTBRITE_POLL_QUEUE, id);
    }
  }

  /** Schedules the organization's poll when it needs one, removes it otherwise. */
  async refresh(organizationId: string): Promise<void> {
    if ((await this.organizationsToPoll(organizationId)).length) await this.schedule(organizationId);
    else await this.unschedule(organizationId);
  }

  async schedule(organizationId: string): Promise<void> {
    await this.queue.upsertScheduler(
      EVENTBRITE_POLL_QUEUE,
      eventbritePollScheduler(organizationId),
      'orders.poll',
      { organizationId },
      { everyMs: EVENTBRITE_POLL_INTERVAL_MS, attempts: 3, backoffMs: 5000 },
    );
  }

  async unschedule(organizationId: string): Promise<void> {
    await this.queue.removeScheduler(EVENTBRITE_POLL_QUEUE, eventbritePollScheduler(organizationId));
  }

  @CreateRequestContext() // the job's entry: its one MikroORM context
  private run(job: JobEnvelope<{ organizationId: string }>): Promise<void> {
    return this.runInContext(job);
  }

  private async runInContext(job: JobEnvelope<{ organizationId: string }>): Promise<void> {
    const { organizationId } = job.data;
    if (!(await this.organizationsToPoll(organizationId)).length) {
      // Disconnected, no organization chosen, or a webhook now brings the orders.
      await this.unschedule(organizationId);
      return;
    }
    await this.orders.poll(organizationId);
  }
}
