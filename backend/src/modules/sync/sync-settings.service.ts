import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  AnySyncConfig,
  isSyncProvider,
  SYNC_CONFIG_DEFAULTS,
  SYNC_CONFIG_SCHEMAS,
  SYNC_MESSAGES as M,
  SyncConfigByProvider,
  SyncConfigPayload,
  SyncProviderName,
  SyncRemoteChoice,
  SYNC_FAILURES_SHOWN,
  SyncFailure,
  SyncLocalType,
  SyncSaleConflict,
} from '@studio/contracts';
import { notFound } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import { SYNC_DRIVERS, SyncDriver } from './drivers/sync-driver';
import { readSaleConflicts } from './drivers/eventbrite/eventbrite-conflicts';
import { SyncConfig } from './entities/sync-config.entity';
import { SyncChangeEvents, SyncConfigEvents } from './sync-config-events';
import { SyncOAuthService } from './oauth/sync-oauth.service';
import { SyncConnectionsService } from './sync-connections.service';
import { failureLabels } from './failure-labels.query';

type OrgContext = Pick<RequestContext, 'organizationId'>;

export interface SyncProviderView {
  provider: {
    name: SyncProviderName;
    connected: boolean;
    account_name: string | null;
    connected_at: string | null;
    oauth_configured: boolean;
    env_vars: string[];
    config_schema: AnySyncConfig;
    /** When a record last synced to this provider; null before the first. */
    last_synced_at: string | null;
    /** The failed records, newest first (at most SYNC_FAILURES_SHOWN), and how many there are. */
    failures: SyncFailure[];
    failures_total: number;
  };
  organizations?: SyncRemoteChoice[];
  lists?: SyncRemoteChoice[];
  /** Eventbrite only: the sales held as conflicts for the admin (newest first, bounded) and their count. */
  conflicts?: SyncSaleConflict[];
  conflicts_total?: number;
}

/** Reads a route's provider name: an unknown one answers 404 with the providers it could be. */
export function requireProvider(name: string): SyncProviderName {
  if (!isSyncProvider(name)) throw notFound(M.unknownProvider);
  return name;
}

/** A stored settings row (its jsonb) read through the provider's schema; the defaults when absent or invalid. */
export function parseSyncConfig<P extends SyncProviderName>(provider: P, stored: unknown): SyncConfigByProvider[P] {
  const parsed = stored == null ? null : SYNC_CONFIG_SCHEMAS[provider].safeParse(stored);
  return (parsed?.success ? parsed.data : SYNC_CONFIG_DEFAULTS[provider]) as SyncConfigByProvider[P];
}

/** A provider's config_schema settings per organization, and the provider as the panels read it. */
@Injectable()
export class SyncSettingsService {
  private readonly logger = new Logger('SyncSettings');

  constructor(
    private readonly em: EntityManager,
    private readonly connections: SyncConnectionsService,
    private readonly events: SyncConfigEvents,
    private readonly changes: SyncChangeEvents,
    @Optional() @Inject(SYNC_DRIVERS) private readonly drivers: SyncDriver[] | null,
    private readonly oauth: SyncOAuthService,
  ) {}

  /** The saved settings, or the provider's defaults; a stored row is re-read through its schema. */
  async config<P extends SyncProviderName>(ctx: OrgContext, provider: P): Promise<SyncConfigByProvider[P]> {
    const row = await this.em.findOne(SyncConfig, { organization: ctx.organizationId, provider });
    return parseSyncConfig(provider, row?.config);
  }

  /**
   * Merges the payload's fields into the saved settings (fields left out keep their value). One
   * upsert: two first saves at once do not collide, and two saves of different fields both stay
   * (jsonb `||` merges the sent fields into the row as it is then).
   */
  async save(ctx: OrgContext, payload: SyncConfigPayload): Promise<SyncProviderView> {
    const { provider_name: provider, ...fields } = payload;
    const initial = SYNC_CONFIG_SCHEMAS[provider].parse({ ...SYNC_CONFIG_DEFAULTS[provider], ...fields });
    const before = await this.config(ctx, provider);
    const saved = await this.em.transactional(async (em) => {
      const [row] = await em.execute<{ config: unknown }[]>(
        `insert into "sync_config" ("id", "organization_id", "provider", "config", "updated_at")
         values (?, ?, ?, ?::jsonb, now())
         on conflict ("organization_id", "provider")
         do update set "config" = "sync_config"."config" || ?::jsonb, "updated_at" = now()
         returning "config"`,
        [randomUUID(), ctx.organizationId, provider, JSON.stringify(initial), JSON.stringify(fields)],
      );
      const event = {
        type: 'sync.config.saved' as const,
        organizationId: ctx.organizationId,
        provider,
        before,
        after: parseSyncConfig(provider, typeof row.config === 'string' ? JSON.parse(row.config) : row.config),
      };
      // With the save (the outbox): the mailing lists' backfill, the Eventbrite webhook and polls.
      await this.changes.publish(em as EntityManager, event);
      return event;
    });
    // In this process, after the commit: the cached switches are dropped.
    await this.events.emit(saved);
    return this.view(ctx, provider);
  }

  /** The last sync and the failures, from the mappings (one query for the figures, one for the list). */
  private async activity(ctx: OrgContext, provider: SyncProviderName) {
    const connection = this.em.getConnection();
    const [figures] = await connection.execute<{ last_synced_at: Date | null; failures_total: string }[]>(
      `select max(last_synced_at) as last_synced_at, count(*) filter (where stage = 'failed') as failures_total
       from sync_mapping where organization_id = ? and provider = ?`,
      [ctx.organizationId, provider],
    );
    const rows = await connection.execute<
      { id: string; local_type: SyncLocalType; local_id: string; action: string | null; last_error: string | null; attempts: number; updated_at: Date }[]
    >(
      `select id, local_type, local_id, action, last_error, attempts, updated_at from sync_mapping
       where organization_id = ? and provider = ? and stage = 'failed' order by updated_at desc, id limit ?`,
      [ctx.organizationId, provider, SYNC_FAILURES_SHOWN],
    );
    const labels = await failureLabels(this.em, ctx.organizationId, rows);
    return {
      last_synced_at: figures?.last_synced_at ? new Date(figures.last_synced_at).toISOString() : null,
      failures_total: Number(figures?.failures_total ?? 0),
      failures: rows.map(
        (r): SyncFailure => ({
          id: r.id,
          local_type: r.local_type,
          local_id: r.local_id,
          // Null when the record is gone (deleted since it failed): the panel shows its id.
          label: labels.get(`${r.local_type}:${r.local_id}`) ?? null,
          action: r.action,
          last_error: r.last_error,
          attempts: r.attempts,
          updated_at: new Date(r.updated_at).toISOString(),
        }),
      ),
    };
  }

  async view(ctx: OrgContext, provider: SyncProviderName): Promise<SyncProviderView> {
    const [connection, config, activity] = await Promise.all([
      this.connections.find(ctx, provider),
      this.config(ctx, provider),
      this.activity(ctx, provider),
    ]);
    const { configured, envVars } = this.oauth.configured(provider);
    const view: SyncProviderView = {
      provider: {
        name: provider,
        connected: connection !== null,
        account_name: connection?.accountName ?? null,
        connected_at: connection?.connectedAt.toISOString() ?? null,
        oauth_configured: configured,
        env_vars: envVars,
        config_schema: config,
        ...activity,
      },
    };
    if (provider === 'eventbrite') {
      view.organizations = [];
      Object.assign(view, await readSaleConflicts(this.em, ctx.organizationId));
    }
    if (provider === 'mailchimp' || provider === 'klaviyo') view.lists = [];
    // The provider's own choices are read from its API by its driver, once connected.
    const driver = this.drivers?.find((d) => d.provider === provider);
    if (connection && driver) Object.assign(view, await this.pickers(ctx, driver));
    return view;
  }

  /**
   * The provider's lists or organizations. A provider that fails (down, or refusing the token)
   * leaves the choices empty rather than failing the panel, which must still show the connection
   * and offer Disconnect; the failure is logged.
   */
  private async pickers(ctx: OrgContext, driver: SyncDriver) {
    try {
      return await driver.pickers(await this.connections.auth(ctx, driver.provider));
    } catch (error) {
      this.logger.warn(`${driver.provider} choices for ${ctx.organizationId}: ${(error as Error).message}`);
      return {};
    }
  }
}
