import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { SyncConfigEvents } from '../sync-config-events';
import { parseSyncConfig } from '../sync-settings.service';
import type { MailingListProvider } from './mailing-list-jobs';

/**
 * How long an organization's answer is kept. A change made through this process drops it at once
 * (SyncConfigEvents: a settings save, a connect or a disconnect); a change made through another API
 * process is not announced here (the events are in process), so this bounds how long this process
 * can miss it: a new student or enrollment within these few seconds may skip (or still enqueue) its
 * upsert. Keep it a few seconds: long enough that a busy organization reads once per window.
 */
export const MAILING_LIST_SWITCHES_TTL_MS = 5_000;
/** Entries kept at most (each a few bytes); past it, the expired ones are swept. */
const MAX_ENTRIES = 10_000;

/** The list each mailing-list provider keeps students on, for the providers whose sync is on. */
export type ActiveMailingLists = Partial<Record<MailingListProvider, string>>;

/**
 * Which mailing-list syncs are on, per organization, cached: a new student or enrollment is the hot
 * path, and most organizations sync nothing. "On" is what the upsert job itself checks
 * (sync_all_customers on and a list picked, see activeListId) plus a connection to the provider.
 * The job still reads the settings fresh when it runs; this only decides whether to enqueue it.
 */
@Injectable()
export class MailingListSwitches implements OnModuleInit {
  private readonly cache = new Map<string, { lists: ActiveMailingLists; expiresAt: number }>();
  /** Bumped by every invalidation: a read that started before one does not fill the cache. */
  private generation = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly events: SyncConfigEvents,
  ) {}

  onModuleInit(): void {
    this.events.on('sync.config.saved', (e) => this.invalidate(e.organizationId));
    this.events.on('sync.connected', (e) => this.invalidate(e.organizationId));
    this.events.on('sync.disconnected', (e) => this.invalidate(e.organizationId));
  }

  /** The organization's active lists, from the cache while it is fresh. */
  async activeLists(organizationId: string): Promise<ActiveMailingLists> {
    const now = Date.now();
    const cached = this.cache.get(organizationId);
    if (cached && cached.expiresAt > now) return cached.lists;
    const generation = this.generation;
    const lists = await this.read(organizationId);
    if (generation === this.generation) {
      if (this.cache.size >= MAX_ENTRIES) this.sweep(now);
      this.cache.set(organizationId, { lists, expiresAt: now + MAILING_LIST_SWITCHES_TTL_MS });
    }
    return lists;
  }

  invalidate(organizationId: string): void {
    this.generation += 1;
    this.cache.delete(organizationId);
  }

  /** One query for both providers: their settings, where the organization is connected to them. */
  async read(organizationId: string): Promise<ActiveMailingLists> {
    const rows = await this.em.getConnection().execute<{ provider: MailingListProvider; config: unknown }[]>(
      `select s.provider, s.config from sync_config s
         join sync_connection c on c.organization_id = s.organization_id and c.provider = s.provider
        where s.organization_id = ? and s.provider in ('mailchimp', 'klaviyo')`,
      [organizationId],
    );
    const lists: ActiveMailingLists = {};
    for (const row of rows) {
      const config = parseSyncConfig(row.provider, typeof row.config === 'string' ? JSON.parse(row.config) : row.config);
      if (config.sync_all_customers && config.list_id) lists[row.provider] = config.list_id;
    }
    return lists;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(key);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
  }
}
