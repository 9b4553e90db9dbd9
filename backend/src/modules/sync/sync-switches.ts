import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { isSyncProvider, SYNC_MAIN_TOGGLES, SYNC_PROVIDERS, SyncConfigByProvider, SyncProviderName } from '@studio/contracts';
import { Clock } from '../../common/clock';
import { MAILING_LIST_PROVIDERS, MailingListProvider } from './jobs/mailing-list-jobs';
import { SyncConfigEvents } from './sync-config-events';
import { parseSyncConfig } from './sync-settings.service';

/**
 * How long an organization's answer is kept. A change made through this process drops it at once
 * (SyncConfigEvents: a settings save, a connect or a disconnect); a change made through another API
 * process is not announced here (the events are in process), so this bounds how long this process
 * can miss it: a new student, enrollment or session saved within these few seconds may skip (or
 * still enqueue) its sync job. Keep it a few seconds: long enough that a busy organization reads
 * once per window.
 */
export const SYNC_SWITCHES_TTL_MS = 5_000;
/** Entries kept at most (each a few hundred bytes); past it, the expired ones are swept. */
const MAX_ENTRIES = 10_000;

/** One provider for one organization, as the hot paths decide on it. */
export interface ProviderSwitch<P extends SyncProviderName> {
  /** The organization has a connection to the provider. */
  connected: boolean;
  /** The provider's main switch (SYNC_MAIN_TOGGLES) is on in its saved settings, connected or not. */
  on: boolean;
  /** Its saved settings, read through the provider's schema; the defaults when none are saved. */
  config: SyncConfigByProvider[P];
}

/** Every provider of one organization. */
export type SyncSwitchesOf = { [P in SyncProviderName]: ProviderSwitch<P> };

/** The list each mailing-list provider keeps students on, for the providers whose sync is on. */
export type ActiveMailingLists = Partial<Record<MailingListProvider, string>>;

/**
 * The mailing lists a new student or enrollment goes onto: "on" is what the upsert job itself checks
 * (sync_all_customers on and a list picked, see activeListId) plus a connection to the provider.
 */
export function activeMailingLists(switches: SyncSwitchesOf): ActiveMailingLists {
  const lists: ActiveMailingLists = {};
  for (const provider of MAILING_LIST_PROVIDERS) {
    const { connected, config } = switches[provider];
    if (connected && config.sync_all_customers && config.list_id) lists[provider] = config.list_id;
  }
  return lists;
}

/**
 * Which providers each organization is connected to and how their syncs are set, cached: new
 * students, enrollments and session saves are hot paths, and most organizations sync nothing. One
 * query answers every provider. The jobs still read connections and settings fresh when they run;
 * this only decides whether to enqueue them.
 */
@Injectable()
export class SyncSwitches implements OnModuleInit {
  private readonly cache = new Map<string, { switches: SyncSwitchesOf; expiresAt: number }>();
  /** Bumped by every invalidation: a read that started before one does not fill the cache. */
  private generation = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly events: SyncConfigEvents,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.events.on('sync.config.saved', (e) => this.invalidate(e.organizationId));
    this.events.on('sync.connected', (e) => this.invalidate(e.organizationId));
    this.events.on('sync.disconnected', (e) => this.invalidate(e.organizationId));
  }

  /** The organization's switches, from the cache while it is fresh. */
  async of(organizationId: string): Promise<SyncSwitchesOf> {
    const now = this.clock.nowMs();
    const cached = this.cache.get(organizationId);
    if (cached && cached.expiresAt > now) return cached.switches;
    const generation = this.generation;
    const switches = await this.read(organizationId);
    if (generation === this.generation) {
      if (this.cache.size >= MAX_ENTRIES) this.sweep(now);
      this.cache.set(organizationId, { switches, expiresAt: now + SYNC_SWITCHES_TTL_MS });
    }
    return switches;
  }

  /** The organization's active mailing lists (activeMailingLists), from the cached switches. */
  async activeLists(organizationId: string): Promise<ActiveMailingLists> {
    return activeMailingLists(await this.of(organizationId));
  }

  invalidate(organizationId: string): void {
    this.generation += 1;
    this.cache.delete(organizationId);
  }

  /** One query for every provider: its connection (if any) and its saved settings (if any). */
  async read(organizationId: string): Promise<SyncSwitchesOf> {
    const rows = await this.em.getConnection().execute<{ provider: string; connected: boolean; config: unknown }[]>(
      `select coalesce(c.provider, s.provider) as provider, c.provider is not null as connected, s.config
         from (select provider from sync_connection where organization_id = ?) c
         full join (select provider, config from sync_config where organization_id = ?) s on s.provider = c.provider`,
      [organizationId, organizationId],
    );
    const found = new Map(rows.filter((row) => isSyncProvider(row.provider)).map((row) => [row.provider, row]));
    const entry = <P extends SyncProviderName>(provider: P): ProviderSwitch<P> => {
      const row = found.get(provider);
      const stored = row?.config ?? null;
      const config = parseSyncConfig(provider, typeof stored === 'string' ? JSON.parse(stored) : stored);
      const field = SYNC_MAIN_TOGGLES[provider].field as keyof SyncConfigByProvider[P];
      return { connected: Boolean(row?.connected), on: Boolean(config[field]), config };
    };
    return Object.fromEntries(SYNC_PROVIDERS.map((provider) => [provider, entry(provider)])) as SyncSwitchesOf;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(key);
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
  }
}
