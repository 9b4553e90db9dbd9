import { createHash } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { Clock } from '../clock';

/** The first answer of a request, as it is replayed. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** What `begin` found for a key: the request runs now (this caller owns the key), or the first answer, or a refusal. */
export type Begin =
  { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'running' };

export interface IdempotencyOptions {
  /** How long a key and its answer are kept (24 hours); an older one is ignored and swept. */
  ttlMs: number;
  /** A first request still running after this long died with its process: a retry takes its key over. */
  leaseMs: number;
}

export const DEFAULT_IDEMPOTENCY_OPTIONS: IdempotencyOptions = { ttlMs: 24 * 3600_000, leaseMs: 2 * 60_000 };

/** JSON with object keys sorted at every level: the same parameters give the same text, whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash of a request's parameters (path parameters and body). */
export const requestHash = (params: unknown, body: unknown) =>
  createHash('sha256').update(canonical({ params, body })).digest('hex');

/**
 * The store of Idempotency-Key headers (table `idempotency_key`, issue 19), per organization and
 * key, as Stripe's: the first request with a key runs and its answer (2xx or 4xx) is kept with its
 * route and a hash of its parameters; the same key with the same parameters replays that answer,
 * with other parameters (or another route) is refused, and while the first still runs is refused
 * too. A first answer of 5xx is not kept (the retry runs again). Keys are kept 24 hours.
 */
@Injectable()
export class IdempotencyStore {
  private readonly logger = new Logger('Idempotency');
  /** The thresholds; tests set their own. */
  options: IdempotencyOptions = { ...DEFAULT_IDEMPOTENCY_OPTIONS };
  private lastSweep = 0;

  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.options.leaseMs = config.IDEMPOTENCY_LEASE_SECONDS * 1000;
  }

  private connection() {
    return this.em.getConnection();
  }

  /** Claims the key for this request, or answers what to do instead. */
  async begin(organizationId: string, key: string, methodRoute: string, hash: string): Promise<Begin> {
    await this.sweepNow();
    const connection = this.connection();
    const expired = this.clock.inMs(-this.options.ttlMs);
    // An expired key is as good as none: it is dropped, then claimed like a new one.
    await connection.execute(
      `delete from idempotency_key where organization_id = ? and key = ? and created_at < ?`,
      [organizationId, key, expired],
    );
    const claimed = await connection.execute<{ key: string }[]>(
      `insert into idempotency_key (organization_id, key, method_route, request_hash, state, locked_at, created_at)
       values (?, ?, ?, ?, 'running', ?, ?)
       on conflict (organization_id, key) do nothing
       returning key`,
      [organizationId, key, methodRoute, hash, this.clock.now(), this.clock.now()],
    );
    if (claimed.length > 0) return { kind: 'run' };
    const [found] = await connection.execute<
      {
        method_route: string;
        request_hash: string;
        state: string;
        response_status: number | null;
        response_body: unknown;
        locked_at: Date;
      }[]
    >(
      `select method_route, request_hash, state, response_status, response_body, locked_at from idempotency_key where organization_id = ? and key = ?`,
      [organizationId, key],
    );
    // Swept between the two statements: a retry will claim it.
    if (!found) return { kind: 'running' };
    if (found.method_route !== methodRoute || found.request_hash !== hash) return { kind: 'mismatch' };
    if (found.state === 'done')
      return { kind: 'replay', answer: { status: Number(found.response_status), body: found.response_body } };
    // Still running: unless its process died (the lease ran out), then this request takes the key over.
    const leaseEnded = this.clock.inMs(-this.options.leaseMs);
    if (new Date(found.locked_at) >= leaseEnded) return { kind: 'running' };
    const taken = await connection.execute<{ key: string }[]>(
      `update idempotency_key set locked_at = ? where organization_id = ? and key = ? and state = 'running' and locked_at = ? returning key`,
      [this.clock.now(), organizationId, key, found.locked_at],
    );
    if (taken.length === 0) return { kind: 'running' };
    this.logger.warn(`Idempotency-Key ${key}: its first request never answered; this retry runs it again`);
    return { kind: 'run' };
  }

  /** Keeps the answer of the request that claimed the key. */
  async complete(organizationId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.connection().execute(
      `update idempotency_key set state = 'done', response_status = ?, response_body = ? where organization_id = ? and key = ? and state = 'running'`,
      [answer.status, JSON.stringify(answer.body ?? null), organizationId, key],
    );
  }

  /** Forgets the key (its request failed with a 5xx, or did not finish): a retry runs again. */
  async release(organizationId: string, key: string): Promise<void> {
    await this.connection().execute(
      `delete from idempotency_key where organization_id = ? and key = ? and state = 'running'`,
      [organizationId, key],
    );
  }

  /** Deletes expired keys, at most once a minute per process. */
  private async sweepNow(): Promise<void> {
    if (Date.now() - this.lastSweep < 60_000) return;
    this.lastSweep = Date.now();
    await this.sweep();
  }

  /** Deletes expired keys (in batches); answers how many. */
  async sweep(): Promise<number> {
    const expired = this.clock.inMs(-this.options.ttlMs);
    let total = 0;
    for (;;) {
      const deleted = await this.connection().execute<{ key: string }[]>(
        `delete from idempotency_key where ctid in (select ctid from idempotency_key where created_at < ? limit 1000) returning key`,
        [expired],
      );
      total += deleted.length;
      if (deleted.length < 1000) return total;
    }
  }
}
