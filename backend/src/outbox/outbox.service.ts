import { randomUUID } from 'node:crypto';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JOB_QUEUE, JobEnvelope, JobPermanentError, JobQueue } from '../queue/job-queue';

export const OUTBOX_QUEUE = 'outbox';
/** The job of one outbox row: its id only (the row holds the event). */
export interface OutboxJob {
  id: string;
}

/** What every announced event carries: its type, and the organization it happened in (if any). */
export interface OutboxEvent {
  type: string;
  organizationId?: string | null;
}

type Handler = (event: never) => Promise<void> | void;

/** Attempts of one outbox job (exponential from 1 s: about 4 minutes in all) before it is failed for good. */
const ATTEMPTS = 8;
/** A row relayed this long ago and neither done nor failed lost its job (a process or Redis died): relayed again. */
const STALE_MS_BULLMQ = 10 * 60_000;
const STALE_MS_IN_PROCESS = 60_000;
/** How often the relay looks for rows another process wrote, or that a dead one left. */
const POLL_MS = 1_000;
/** Done rows are kept this long for the record, then deleted. */
const KEEP_DONE_MS = 7 * 24 * 3600_000;
/** A row failed for good, as the outbox state lists it. */
type FailedRow = { id: string; type: string; subscriber: string; organization_id: string | null; attempts: number; last_error: string | null; created_at: Date; failed_at: Date };
const BATCH = 200;
/**
 * The rule that orders a subscriber's rows of one key: a row (`m`) goes only once no earlier row of
 * its subscriber and key is still open (neither done nor failed for good).
 */
const FIRST_OF_ITS_KEY = `(m.ordering_key is null or not exists (
  select 1 from outbox_message p
   where p.subscriber = m.subscriber and p.ordering_key = m.ordering_key and p.seq < m.seq
     and p.done_at is null and p.failed_at is null))`;

/**
 * The transactional outbox (issue 19). A module announces what happened with `publish(em, event)`
 * inside the transaction of the change: one row per subscriber of the event's type is written in
 * that transaction, so the announcement commits with the change or not at all. The relay hands
 * committed rows to the `outbox` queue (BullMQ, or the in-process queue), one job per row with the
 * row's id as job id, and the job runs the subscriber's handler in its own MikroORM context and marks
 * the row done. Delivery is at least once: handlers are idempotent by keys of their own.
 *
 * The relay runs in every process that can enqueue (API replicas and workers): rows are claimed with
 * FOR UPDATE SKIP LOCKED, so several relays never hand one row over twice at once, and a job id
 * already queued is not queued again. A process kicks its relay when a transaction that published
 * commits; every process also polls each second (rows of a process that died before its kick).
 *
 * Rows of one subscriber that share an ordering key (an order, an enrollment) are relayed in the
 * order they were written, each once the one before is done or failed for good.
 */
@Injectable()
export class OutboxService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  /** Subscriber names by event type, and each subscriber's handlers by type. */
  private readonly byType = new Map<string, string[]>();
  private readonly byName = new Map<string, Map<string, Handler>>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private lastSweep = 0;
  private readonly startedAt = new Date();
  /** When this process last published inside a transaction, and when the last relay pass started. */
  private lastPublishedAt = 0;
  private passStartedAt = 0;
  /** Whether this process published since drain last found nothing open (drain's fast answer). */
  private publishedSinceDrain = true;

  constructor(
    private readonly orm: MikroORM,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  /**
   * Registers a subscriber's handler of one event type. `name` is stable (the rows and jobs carry
   * it): rename it and rows written before the rename fail as "no subscriber". One subscriber may
   * handle several types of a bus (a module's listener of enrollments, say): its rows of one
   * ordering key are then handled in order across those types. Call it at module init.
   */
  subscribe(type: string, name: string, handler: Handler): void {
    const handlers = this.byName.get(name) ?? new Map<string, Handler>();
    if (handlers.has(type)) throw new Error(`Outbox subscriber ${name} handles ${type} twice`);
    handlers.set(type, handler);
    this.byName.set(name, handlers);
    this.byType.set(type, [...(this.byType.get(type) ?? []), name]);
  }

  /** The subscribers' names of a type (tests and the dashboard). */
  subscribersOf(type: string): string[] {
    return [...(this.byType.get(type) ?? [])];
  }

  /**
   * Writes the event's rows in `em`'s transaction (or at once, when `em` has none). `orderingKey`
   * orders the rows of each subscriber that share it. Nothing is written for a type nobody listens to.
   */
  async publish(em: EntityManager, event: OutboxEvent, orderingKey: string | null = null): Promise<void> {
    const subscribers = this.byType.get(event.type) ?? [];
    if (subscribers.length === 0) return;
    const payload = JSON.stringify(event);
    const eventId = randomUUID();
    const values: unknown[] = [];
    for (const name of subscribers) values.push(randomUUID(), eventId, event.organizationId ?? null, event.type, name, orderingKey, payload);
    await em.execute(
      `insert into outbox_message (id, event_id, organization_id, type, subscriber, ordering_key, payload) values ${subscribers.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      values,
    );
    this.publishedSinceDrain = true;
    if (em.isInTransaction()) this.lastPublishedAt = Date.now();
    else this.kick();
  }

  onApplicationBootstrap(): void {
    this.queue.process(OUTBOX_QUEUE, (job) => this.handle(job as JobEnvelope<OutboxJob>), {
      concurrency: 8,
      onFinalFailure: (job, error) => this.failed((job.data as OutboxJob).id, error),
    });
    // Kicked by a commit when something was published since the last pass started (which
    // transaction published is not told apart: a pass that finds nothing costs one query, and passes
    // never overlap). The relay's own commits publish nothing, so they kick nothing.
    this.orm.em.getEventManager().registerSubscriber({
      afterTransactionCommit: () => {
        if (this.lastPublishedAt >= this.passStartedAt) this.kick();
      },
    });
    if (!this.relays()) return;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /**
   * Whether this process relays: with BullMQ any process can enqueue for the workers; the in-process
   * queue runs jobs only where workers run.
   */
  private relays(): boolean {
    return this.queue.mode === 'bullmq' || this.queue.runsWorkers;
  }

  /** Runs a relay pass now (or right after the one running). */
  kick(): void {
    if (this.closed || !this.relays()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.relayAll()
      .catch((error: unknown) => this.logger.warn(`Relay pass failed: ${(error as Error).message}`))
      .finally(() => {
        this.running = null;
        if (this.again && !this.closed) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Relays until no committed row is waiting; now and then, rows whose job was lost go again. */
  async relayAll(): Promise<void> {
    this.passStartedAt = Date.now();
    await this.sweep();
    for (;;) {
      const relayed = await this.relayBatch();
      if (relayed < BATCH) return;
    }
  }

  /** One batch: claims waiting rows (skipping those another relay holds), queues their jobs, marks them relayed. */
  private async relayBatch(): Promise<number> {
    const em = this.orm.em.fork() as EntityManager;
    return em.transactional(async (tx) => {
      const rows = await (tx as EntityManager).execute<{ id: string; subscriber: string }[]>(
        `select m.id, m.subscriber from outbox_message m
          where m.relayed_at is null
            and ${FIRST_OF_ITS_KEY}
          order by m.seq
          limit ${BATCH}
          for update of m skip locked`,
      );
      if (rows.length === 0) return 0;
      for (const row of rows) {
        await this.queue.add<OutboxJob>(OUTBOX_QUEUE, row.subscriber, { id: row.id }, { jobId: `outbox-${row.id}`, attempts: ATTEMPTS, backoffMs: 1000, removeOnComplete: true });
      }
      await (tx as EntityManager).execute(`update outbox_message set relayed_at = now() where id in (${rows.map(() => '?').join(', ')})`, rows.map((r) => r.id));
      return rows.length;
    });
  }

  /**
   * Rows relayed long ago and neither done nor failed go back to waiting (their job was lost: a
   * worker's Redis flushed, or an in-process queue's process died); done rows past their keeping are
   * deleted. With the in-process queue, every row relayed before this process started is such a row.
   */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < 30_000) return;
    this.lastSweep = Date.now();
    const connection = this.orm.em.getConnection();
    const staleBefore =
      this.queue.mode === 'bullmq' ? new Date(Date.now() - STALE_MS_BULLMQ) : new Date(Math.max(this.startedAt.getTime(), Date.now() - STALE_MS_IN_PROCESS));
    const reset = await connection.execute<{ id: string }[]>(
      `update outbox_message set relayed_at = null
        where relayed_at is not null and relayed_at < ? and done_at is null and failed_at is null
        returning id`,
      [staleBefore],
    );
    if (reset.length) this.logger.warn(`${reset.length} outbox rows relayed again: their jobs were lost`);
    await connection.execute(`delete from outbox_message where done_at is not null and done_at < ?`, [new Date(Date.now() - KEEP_DONE_MS)]);
  }

  /** The outbox job: the row's subscriber handles its event, then the row is done. */
  private async handle(job: JobEnvelope<OutboxJob>): Promise<void> {
    const connection = this.orm.em.getConnection();
    const [row] = await connection.execute<{ type: string; subscriber: string; payload: unknown; done_at: Date | null }[]>(
      `select type, subscriber, payload, done_at from outbox_message where id = ?`,
      [job.data.id],
    );
    if (!row || row.done_at) return;
    const handler = this.byName.get(row.subscriber)?.get(row.type);
    if (!handler) throw new JobPermanentError(`No outbox subscriber ${row.subscriber} of ${row.type} in this release`);
    const event = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as never;
    try {
      await RequestContext.create(this.orm.em, async () => {
        await handler(event);
      });
    } catch (error) {
      await connection.execute(`update outbox_message set attempts = attempts + 1, last_error = ? where id = ?`, [
        String((error as Error).message ?? error).slice(0, 2000),
        job.data.id,
      ]);
      throw error;
    }
    await connection.execute(`update outbox_message set attempts = attempts + 1, done_at = now(), last_error = null where id = ?`, [job.data.id]);
    // Rows waiting behind this one (same subscriber and key) may go now.
    this.kick();
  }

  /**
   * The job failed for good. A job whose worker died while running it more often than BullMQ allows
   * ("stalled more than allowable limit") did not fail: its row goes back to waiting and is relayed
   * again. Any other failure (its attempts spent, or JobPermanentError) marks the row failed, with why.
   */
  private async failed(id: string, error: Error): Promise<void> {
    const connection = this.orm.em.getConnection();
    const message = String(error.message).slice(0, 2000);
    if (/stalled/i.test(message)) {
      await connection.execute(`update outbox_message set relayed_at = null, last_error = ? where id = ? and done_at is null`, [message, id]);
      this.logger.warn(`Outbox row ${id}: its job stalled (a worker died), relayed again`);
    } else {
      await connection.execute(`update outbox_message set failed_at = now(), last_error = ? where id = ? and done_at is null`, [message, id]);
      this.logger.error(`Outbox row ${id} failed for good: ${message}`);
    }
    this.kick();
  }

  /** What is waiting, in flight and failed, per subscriber (the queue dashboard's outbox summary). */
  async summary(): Promise<{ subscriber: string; waiting: number; in_flight: number; failed: number; oldest_open_at: string | null }[]> {
    const rows = await this.orm.em.getConnection().execute<
      { subscriber: string; waiting: string; in_flight: string; failed: string; oldest: Date | null }[]
    >(
      `select subscriber,
              count(*) filter (where relayed_at is null and failed_at is null) as waiting,
              count(*) filter (where relayed_at is not null and done_at is null and failed_at is null) as in_flight,
              count(*) filter (where failed_at is not null) as failed,
              min(created_at) filter (where done_at is null and failed_at is null) as oldest
         from outbox_message where done_at is null
        group by subscriber order by subscriber`,
    );
    return rows.map((r: { subscriber: string; waiting: string; in_flight: string; failed: string; oldest: Date | null }) => ({
      subscriber: r.subscriber,
      waiting: Number(r.waiting),
      in_flight: Number(r.in_flight),
      failed: Number(r.failed),
      oldest_open_at: r.oldest ? new Date(r.oldest).toISOString() : null,
    }));
  }

  /** The most recent rows failed for good, newest first. */
  async failedRows(limit: number) {
    const rows = await this.orm.em.getConnection().execute<
      FailedRow[]
    >(
      `select id, type, subscriber, organization_id, attempts, last_error, created_at, failed_at
         from outbox_message where failed_at is not null order by failed_at desc, seq desc limit ?`,
      [limit],
    );
    return rows.map((r: FailedRow) => ({
      ...r,
      attempts: Number(r.attempts),
      created_at: new Date(r.created_at).toISOString(),
      failed_at: new Date(r.failed_at).toISOString(),
    }));
  }

  /** A row failed for good goes back to waiting, its attempts start over; false when no such failed row. */
  async retry(id: string): Promise<boolean> {
    const rows = await this.orm.em
      .getConnection()
      .execute<{ id: string }[]>(`update outbox_message set failed_at = null, relayed_at = null, attempts = 0 where id = ? and failed_at is not null returning id`, [id]);
    if (rows.length === 0) return false;
    this.kick();
    return true;
  }

  /**
   * What was announced of a type, oldest first, once per announcement (not per subscriber), with
   * the fields `match` names equal (tests, and support looking at what happened to an order).
   */
  async announced<E extends OutboxEvent>(type: E['type'], match: Partial<Record<string, string | number | boolean | null>> = {}): Promise<E[]> {
    const fields = Object.entries(match);
    const rows = await this.orm.em.getConnection().execute<{ payload: unknown }[]>(
      `select payload from (
         select distinct on (event_id) event_id, seq, payload from outbox_message
          where type = ?${fields.map(() => ` and payload->>? is not distinct from ?`).join('')}
          order by event_id, seq) announced
        order by seq`,
      [type, ...fields.flatMap(([k, v]) => [k, v === null || v === undefined ? null : String(v)])],
    );
    return rows.map((r: { payload: unknown }) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as E);
  }

  /**
   * Until no row is waiting or in flight: where this process runs the workers, waits for them; where
   * it does not (an API replica, most tests), handles the open rows itself, oldest first, through the
   * same handlers and marks (a worker handling one at the same time is harmless: handlers are
   * idempotent). Rows that fail are left for the queue's retries. Tests call it before they look at
   * an effect; `npm run outbox:drain` could call it in an operator's shell.
   */
  async drain(timeoutMs = 30_000): Promise<void> {
    if (!this.publishedSinceDrain) return;
    const until = Date.now() + timeoutMs;
    const connection = this.orm.em.getConnection();
    const tried = new Set<string>();
    for (;;) {
      this.publishedSinceDrain = false;
      const open = await connection.execute<{ id: string }[]>(
        `select m.id from outbox_message m
          where m.done_at is null and m.failed_at is null
            and ${FIRST_OF_ITS_KEY}
          order by m.seq limit 500`,
      );
      const todo = open.filter((r: { id: string }) => !tried.has(r.id));
      if (open.length === 0) return;
      this.publishedSinceDrain = true;
      if (!this.queue.runsWorkers && todo.length === 0) return;
      if (Date.now() > until) {
        // Name why: the open rows' subscribers and last errors (a handler that keeps failing).
        const why = await connection.execute<{ type: string; subscriber: string; last_error: string | null }[]>(
          `select type, subscriber, last_error from outbox_message where id in (${open.slice(0, 5).map(() => '?').join(', ')})`,
          open.slice(0, 5).map((r: { id: string }) => r.id),
        );
        const reasons = why.map((r: { type: string; subscriber: string; last_error: string | null }) => `${r.type} → ${r.subscriber}: ${r.last_error ?? 'not run yet'}`).join('; ');
        throw new Error(`Outbox not drained: ${open.length} rows open (${reasons})`);
      }
      if (this.queue.runsWorkers) {
        this.kick();
        await new Promise((resolve) => setTimeout(resolve, 25));
        continue;
      }
      for (const row of todo) {
        tried.add(row.id);
        await this.handle({ id: row.id, name: '', data: { id: row.id }, attemptsMade: 0, attempts: 1 }).catch((error: Error) =>
          this.logger.warn(`Outbox row ${row.id} failed while draining: ${error.message}`),
        );
      }
    }
  }
}
