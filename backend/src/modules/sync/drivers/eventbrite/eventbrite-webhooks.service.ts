import { EnsureRequestContext } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../../../config/config.module';
import type { AppConfig } from '../../../../config/config.schema';
import { JOB_QUEUE, JobEnvelope, JobQueue } from '../../../../queue/job-queue';
import { EventbriteOrdersCron } from '../../crons/eventbrite-orders.cron';
import { SyncChangeEvents, SyncConfigEvents } from '../../sync-config-events';
import { SyncConnectionsService } from '../../sync-connections.service';
import { SyncSettingsService } from '../../sync-settings.service';
import { EVENTBRITE_WEBHOOK_ACTIONS } from './eventbrite.client';
import { EventbriteDriver } from './eventbrite.driver';

/** The queue of webhook registrations (one job per organization, reading the state when it runs). */
export const EVENTBRITE_WEBHOOKS_QUEUE = 'sync-eventbrite-webhooks';

/** The connection metadata keys of the registered webhook. */
export const WEBHOOK_ID = 'webhook_id';
export const WEBHOOK_ORGANIZATION = 'webhook_organization_id';
export const WEBHOOK_ENDPOINT = 'webhook_endpoint_url';

/** How long Disconnect waits for Eventbrite to delete the webhook. */
const DISCONNECT_DELETE_TIMEOUT_MS = 5000;

/**
 * The studio's Eventbrite webhook, one per connection: registered on the chosen Eventbrite
 * organization (`POST /organizations/{id}/webhooks/`, actions order.placed, order.refunded,
 * order.updated) at `PUBLIC_APP_URL/api/webhooks/eventbrite` once the server knows its public URL,
 * its id kept in the connection's metadata (the webhook endpoint accepts only a delivery naming a
 * known webhook id). Changing the organization deletes the old one first; Disconnect deletes it
 * (best effort, logged). Without a public URL, or while no webhook is registered, the orders come
 * back through the poll (EventbriteOrdersCron), which is refreshed after every change here.
 *
 * The API only enqueues: a config save or a connect queues `reconcile`, which compares what is
 * wanted with what the metadata says. A create is never repeated: a webhook of the organization
 * already pointing at this endpoint (a create whose answer was lost) is adopted instead.
 */
@Injectable()
export class EventbriteWebhooksService implements OnModuleInit {
  private readonly logger = new Logger('EventbriteWebhooks');

  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly driver: EventbriteDriver,
    private readonly cron: EventbriteOrdersCron,
    configEvents: SyncConfigEvents,
    changes: SyncChangeEvents,
  ) {
    // From the outbox, with each change: the webhook follows the settings and the connection.
    changes.on('sync.config.saved', 'sync.eventbrite-webhooks', async (e) => {
      if (e.provider === 'eventbrite') await this.enqueue(e.organizationId);
    });
    changes.on('sync.connected', 'sync.eventbrite-webhooks', async (e) => {
      if (e.provider === 'eventbrite') await this.enqueue(e.organizationId);
    });
    configEvents.on('sync.disconnecting', async (e) => {
      if (e.provider === 'eventbrite') await this.deleteOnDisconnect(e.organizationId);
    });
  }

  onModuleInit(): void {
    // One reconcile at a time across every worker: two at once could both create a webhook.
    this.queue.process(
      EVENTBRITE_WEBHOOKS_QUEUE,
      (job) => this.reconcile((job as JobEnvelope<{ organizationId: string }>).data.organizationId),
      { concurrency: 1, globalConcurrency: 1 },
    );
  }

  /** Where Eventbrite posts: null while the server does not know its public URL (PUBLIC_APP_URL). */
  endpointUrl(): string | null {
    const base = this.config.PUBLIC_APP_URL?.replace(/\/+$/, '');
    return base ? `${base}/api/webhooks/eventbrite` : null;
  }

  /**
   * A reconcile reads the state when it runs, so every change gets its own job: one id per change
   * (not per organization), or a save made while the previous job runs would be dropped as a
   * duplicate of it and its organization never registered. Runs are idempotent and one at a time.
   */
  async enqueue(organizationId: string): Promise<void> {
    await this.queue.add(EVENTBRITE_WEBHOOKS_QUEUE, 'webhook.reconcile', { organizationId }, {
      jobId: `${organizationId}.eventbrite.webhook.${randomUUID()}`,
      attempts: 5,
      backoffMs: 2000,
      removeOnComplete: true,
    });
  }

  /** The organizations whose connection registered this webhook id (a delivery names it). */
  async organizationsOfWebhook(webhookId: string): Promise<string[]> {
    const rows = await this.em
      .getConnection()
      .execute<{ organization_id: string }[]>(
        `select organization_id from sync_connection where provider = 'eventbrite' and metadata->>'${WEBHOOK_ID}' = ?`,
        [webhookId],
      );
    return rows.map((r) => r.organization_id);
  }

  /** Brings the connection's webhook in line with the chosen organization and the public URL. */
  @EnsureRequestContext() // the job's entry (its one MikroORM context), or a caller's context
  async reconcile(organizationId: string): Promise<void> {
    const ctx = { organizationId };
    const auth = await this.connections.authIfConnected({ organizationId }, 'eventbrite');
    if (!auth) return this.cron.refresh(organizationId);
    const { organization_id: chosen } = await this.settings.config(ctx, 'eventbrite');
    const endpoint = this.endpointUrl();
    const wanted = chosen && endpoint ? { organization: chosen, endpoint } : null;
    const current = auth.metadata[WEBHOOK_ID]
      ? { id: auth.metadata[WEBHOOK_ID], organization: auth.metadata[WEBHOOK_ORGANIZATION], endpoint: auth.metadata[WEBHOOK_ENDPOINT] }
      : null;
    const client = this.driver.client(auth.accessToken);
    if (current && (current.organization !== wanted?.organization || current.endpoint !== wanted?.endpoint)) {
      await client.deleteWebhook(current.id);
      await this.connections.updateMetadata(ctx, 'eventbrite', { [WEBHOOK_ID]: null, [WEBHOOK_ORGANIZATION]: null, [WEBHOOK_ENDPOINT]: null });
      this.logger.log(`Eventbrite webhook ${current.id} of ${organizationId} deleted (organization ${current.organization})`);
    }
    if (wanted && !(current && current.organization === wanted.organization && current.endpoint === wanted.endpoint)) {
      const adopted = await this.adoptable(client, organizationId, wanted.organization, wanted.endpoint);
      const hook = adopted ?? (await client.createWebhook(wanted.organization, wanted.endpoint));
      await this.connections.updateMetadata(ctx, 'eventbrite', {
        [WEBHOOK_ID]: String(hook.id),
        [WEBHOOK_ORGANIZATION]: wanted.organization,
        [WEBHOOK_ENDPOINT]: wanted.endpoint,
      });
      this.logger.log(`Eventbrite webhook ${hook.id} of ${organizationId} ${adopted ? 'adopted' : 'registered'} on organization ${wanted.organization}`);
    }
    await this.cron.refresh(organizationId);
  }

  /** A webhook of the Eventbrite organization already at this endpoint with every action, held by no other connection. */
  private async adoptable(
    client: ReturnType<EventbriteDriver['client']>,
    organizationId: string,
    eventbriteOrganization: string,
    endpoint: string,
  ) {
    const hooks = await client.webhooks(eventbriteOrganization);
    for (const hook of hooks) {
      const actions = new Set(String(hook.actions ?? '').split(',').map((a) => a.trim()));
      if (hook.endpointUrl !== endpoint || !EVENTBRITE_WEBHOOK_ACTIONS.every((a) => actions.has(a))) continue;
      const holders = await this.organizationsOfWebhook(String(hook.id));
      if (holders.every((o) => o === organizationId)) return hook;
    }
    return null;
  }

  /** Disconnect: deletes the webhook while the token still works; a failure is logged, never thrown. */
  private async deleteOnDisconnect(organizationId: string): Promise<void> {
    try {
      const tokens = await this.connections.tokens({ organizationId }, 'eventbrite');
      const webhookId = tokens?.metadata[WEBHOOK_ID];
      if (!tokens || !webhookId) return;
      await Promise.race([
        this.driver.client(tokens.accessToken).deleteWebhook(webhookId),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), DISCONNECT_DELETE_TIMEOUT_MS).unref()),
      ]);
      this.logger.log(`Eventbrite webhook ${webhookId} of ${organizationId} deleted on disconnect`);
    } catch (error) {
      this.logger.warn(`Eventbrite webhook of ${organizationId} not deleted on disconnect: ${(error as Error).message}`);
    }
  }
}
