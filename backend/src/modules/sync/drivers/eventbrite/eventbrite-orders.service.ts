import { CreateRequestContext, EnsureRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { SYNC_MESSAGES as M, SyncSaleConflict } from '@studio/contracts';
import { JOB_QUEUE, JobEnvelope, JobQueue } from '../../../../queue/job-queue';
import { ExternalSalesService } from '../../../orders/external-sales.service';
import { EventsService } from '../../../scheduling/events.service';
import { ProviderRateLimitedError } from '../sync-driver';
import { SyncConnectionsService } from '../../sync-connections.service';
import { SyncSettingsService } from '../../sync-settings.service';
import { EventbriteDriver } from './eventbrite.driver';
import { EventbriteOrder } from './eventbrite.resources';
import { readSaleConflicts } from './eventbrite-conflicts';

/** The queue of orders coming back from Eventbrite (webhook deliveries and the polling cron). */
export const EVENTBRITE_ORDERS_QUEUE = 'sync-eventbrite-orders';
/** How far back each poll reads changed orders: every one is recorded once, so overlap is harmless. */
export const EVENTBRITE_POLL_WINDOW_MS = 7 * 24 * 3600_000;

export type ExternalSaleOutcome = 'recorded' | 'duplicate' | 'conflict' | 'released' | 'ignored';

/**
 * The order statuses that free the seats: refunded or cancelled on Eventbrite (and an order the
 * organizer deleted). A placed order whose attendees are partly refunded gives back theirs (releasePartly).
 */
export const EVENTBRITE_RELEASED_STATUSES: ReadonlySet<string> = new Set(['refunded', 'cancelled', 'canceled', 'deleted']);

/** Why the seats went back, in the order's history. */
const RELEASE_REASON = 'Refunded or cancelled on Eventbrite: seats released';
/** Some attendees of a placed order refunded or cancelled on Eventbrite. */
const PARTLY_RELEASED = (seats: number) => `Partly refunded or cancelled on Eventbrite: ${seats} ${seats === 1 ? 'seat' : 'seats'} released`;
/** A tombstone: the sale was refunded before it was recorded here, so a late import must not enroll it. */
const RELEASED_BEFORE_RECORDED = 'Refunded or cancelled on Eventbrite before it was recorded: not enrolled.';

export type ExternalSaleConflict = SyncSaleConflict;

interface OrderJob {
  organizationId: string;
  orderId?: string;
}

/**
 * Orders placed on Eventbrite, back into the studio: each becomes an enrollment whose order has
 * source `eventbrite` (ExternalSalesService.record, under the session's seat lock). A sale the
 * session has no seats left for is kept in `sync_external_sale` as a conflict for the admin, with
 * the reason; it is never dropped. One row per Eventbrite order id: a repeated delivery, or the poll
 * finding an order the webhook already brought, changes nothing.
 *
 * Why a table of its own and not a failed sync_mapping: a conflicting sale has no local record to
 * map (sync_mapping.local_id is the id of a local row), and the idempotency key is the provider's
 * order id.
 */
@Injectable()
export class EventbriteOrdersService implements OnModuleInit {
  private readonly logger = new Logger('EventbriteOrders');

  constructor(
    private readonly em: EntityManager,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly driver: EventbriteDriver,
    private readonly events: EventsService,
    private readonly sales: ExternalSalesService,
  ) {}

  onModuleInit(): void {
    this.queue.process(EVENTBRITE_ORDERS_QUEUE, (job) => this.run(job as JobEnvelope<OrderJob>));
  }

  /**
   * A webhook's order, enqueued by id (the API only enqueues). One job per organization, order and
   * action while it waits; forgotten once done, so a later change of the same order (its refund) is
   * a new job. The job reads the order as it is then: repeated deliveries change nothing.
   */
  async enqueueOrder(organizationId: string, orderId: string, action = 'order.placed'): Promise<void> {
    await this.queue.add(EVENTBRITE_ORDERS_QUEUE, 'order.import', { organizationId, orderId } satisfies OrderJob, {
      jobId: `${organizationId}.eventbrite.order.${orderId}.${action.replace(/[^a-z_.]/g, '')}`,
      attempts: 6,
      backoffMs: 2000,
      removeOnComplete: true,
    });
  }

  @CreateRequestContext() // the job's entry: its one MikroORM context
  private run(job: JobEnvelope<OrderJob>): Promise<void> {
    return this.runInContext(job);
  }

  private async runInContext(job: JobEnvelope<OrderJob>): Promise<void> {
    try {
      if (job.name === 'order.import' && job.data.orderId) await this.importById(job.data.organizationId, job.data.orderId);
      else if (job.name === 'orders.poll') await this.poll(job.data.organizationId);
    } catch (error) {
      if (error instanceof ProviderRateLimitedError) this.logger.warn(error.message);
      throw error;
    }
  }

  @EnsureRequestContext() // the job's context, or its own when called outside a job
  importById(organizationId: string, orderId: string): Promise<ExternalSaleOutcome> {
    return this.importByIdInContext(organizationId, orderId);
  }

  private async importByIdInContext(organizationId: string, orderId: string): Promise<ExternalSaleOutcome> {
    const auth = await this.connections.authIfConnected({ organizationId }, 'eventbrite');
    if (!auth) return 'ignored';
    const order = await this.driver.client(auth.accessToken).order(orderId);
    return this.importOrder(organizationId, order);
  }

  /** Reads the organization's orders changed in the window (every page) and imports each. */
  @EnsureRequestContext() // the job's context, or its own when called outside a job
  poll(organizationId: string): Promise<Record<ExternalSaleOutcome, number>> {
    return this.pollInContext(organizationId);
  }

  private async pollInContext(organizationId: string): Promise<Record<ExternalSaleOutcome, number>> {
    const counts: Record<ExternalSaleOutcome, number> = { recorded: 0, duplicate: 0, conflict: 0, released: 0, ignored: 0 };
    const auth = await this.connections.authIfConnected({ organizationId }, 'eventbrite');
    const { organization_id } = await this.settings.config({ organizationId }, 'eventbrite');
    if (!auth || !organization_id) return counts;
    const client = this.driver.client(auth.accessToken);
    const since = new Date(Date.now() - EVENTBRITE_POLL_WINDOW_MS);
    let continuation: string | undefined;
    for (let page = 0; page < 100; page++) {
      const list = await client.orders(organization_id, since, continuation);
      for (const order of list.orders) counts[await this.importOrder(organizationId, order)] += 1;
      if (!list.pagination?.hasMoreItems || !list.pagination.continuation) break;
      continuation = list.pagination.continuation;
    }
    return counts;
  }

  /** The local session an Eventbrite event sells: a synced session, or the next session of a linked course. */
  private async sessionOf(organizationId: string, remoteEventId: string): Promise<string | null> {
    const rows = await this.em
      .getConnection()
      .execute<{ local_type: string; local_id: string }[]>(
        `select local_type, local_id from sync_mapping
          where organization_id = ? and provider = 'eventbrite' and remote_id = ? and local_type in ('event', 'activity')
          order by case local_type when 'event' then 0 else 1 end limit 1`,
        [organizationId, remoteEventId],
      );
    const row = rows[0];
    if (!row) return null;
    return row.local_type === 'event' ? row.local_id : this.events.nextSessionOf(organizationId, row.local_id);
  }

  async importOrder(organizationId: string, order: EventbriteOrder): Promise<ExternalSaleOutcome> {
    if (EVENTBRITE_RELEASED_STATUSES.has(order.status)) return this.releaseOrder(organizationId, order);
    if (order.status !== 'placed') return 'ignored';
    const orderId = String(order.id);
    const connection = this.em.getConnection();
    const [known] = await connection.execute<{ id: string; stage: string; seats: number }[]>(
      `select id, stage, seats from sync_external_sale where organization_id = ? and provider = 'eventbrite' and remote_order_id = ?`,
      [organizationId, orderId],
    );
    if (known) {
      const partly = known.stage === 'recorded' ? await this.releasePartly(organizationId, order, known) : null;
      return partly ?? (known.stage === 'conflict' ? 'conflict' : 'duplicate');
    }
    const eventId = await this.sessionOf(organizationId, String(order.eventId));
    if (!eventId) return 'ignored'; // an event this studio does not sync
    const seats = Math.max(1, order.attendees.filter((a) => !a.cancelled && !a.refunded).length);
    const buyer = {
      first_name: order.firstName || order.attendees[0]?.profile?.firstName || 'Eventbrite',
      last_name: order.lastName || order.attendees[0]?.profile?.lastName || 'buyer',
      email: order.email,
    };
    const result = await this.sales.record(
      { organizationId },
      {
        source: 'eventbrite',
        externalId: orderId,
        eventId,
        buyer,
        seats,
        totalCents: Math.max(0, Math.round(order.costs?.gross?.value ?? 0)),
        createdAt: order.created instanceof Date && !isNaN(order.created.getTime()) ? order.created : undefined,
      },
    );
    const conflict =
      result.kind === 'overbooked'
        ? M.overbooked(seats, result.seatsLeft)
        : result.kind === 'gone'
          ? 'Sold on Eventbrite for a session that was removed: not enrolled. Refund it on Eventbrite.'
          : null;
    const inserted = await connection.execute<{ id: string }[]>(
      `insert into sync_external_sale
         (id, organization_id, provider, remote_order_id, event_id, seats, buyer_email, stage, order_id, last_error)
       values (gen_random_uuid(), ?, 'eventbrite', ?, ?, ?, ?, ?, ?, ?)
       on conflict (organization_id, provider, remote_order_id) do nothing returning id`,
      [
        organizationId,
        orderId,
        eventId,
        seats,
        buyer.email.slice(0, 320),
        conflict ? 'conflict' : 'recorded',
        result.kind === 'recorded' || result.kind === 'duplicate' ? result.orderId : null,
        conflict,
      ],
    );
    if (inserted.length === 0 && result.kind === 'recorded') {
      // The refund came in while this sale was being recorded, and left its tombstone: give back
      // the seats just taken.
      const [row] = await connection.execute<{ stage: string; order_id: string | null }[]>(
        `select stage, order_id from sync_external_sale where organization_id = ? and provider = 'eventbrite' and remote_order_id = ?`,
        [organizationId, orderId],
      );
      if (row?.stage === 'resolved' && row.order_id === null) {
        await this.sales.release({ organizationId }, { source: 'eventbrite', externalId: orderId, reason: RELEASE_REASON });
        return 'released';
      }
    }
    if (conflict) this.logger.warn(`Eventbrite order ${orderId}: ${conflict}`);
    return conflict ? 'conflict' : result.kind === 'recorded' ? 'recorded' : 'duplicate';
  }

  /**
   * A placed order some of whose attendees were refunded or cancelled on Eventbrite: the buyer's
   * party shrinks by the seats no longer attending, and the order records what those tickets cost
   * as refunded (status partial_refund), through ExternalSalesService.release under the seat
   * lock. The sale's seat count here is the claim, changed in that same transaction only if it is
   * still what was read: two deliveries of the same change release its seats once. Null when
   * nothing changed (or the order came without its attendees).
   */
  private async releasePartly(
    organizationId: string,
    order: EventbriteOrder,
    known: { id: string; seats: number },
  ): Promise<ExternalSaleOutcome | null> {
    if (!order.attendees.length) return null;
    const attending = order.attendees.filter((a) => !a.cancelled && !a.refunded).length;
    if (attending >= known.seats) return null;
    if (attending === 0) return this.releaseOrder(organizationId, order);
    const refundedCents = order.attendees
      .filter((a) => a.cancelled || a.refunded)
      .reduce((sum, a) => sum + Math.max(0, Math.round(a.costs?.gross?.value ?? 0)), 0);
    const released = known.seats - attending;
    const result = await this.sales.release(
      { organizationId },
      {
        source: 'eventbrite',
        externalId: String(order.id),
        reason: PARTLY_RELEASED(released),
        partial: {
          seats: released,
          refundedCents,
          claim: async (em) =>
            (
              await em.execute<{ id: string }[]>(
                `update sync_external_sale set seats = ?, updated_at = now() where id = ? and seats = ? returning id`,
                [attending, known.id, known.seats],
              )
            ).length > 0,
        },
      },
    );
    if (result.kind === 'released') this.logger.log(`Eventbrite order ${order.id} partly refunded: ${released} seat(s) released (${result.enrollment})`);
    return result.kind === 'released' ? 'released' : 'duplicate';
  }

  /**
   * An order refunded or cancelled on Eventbrite. A recorded sale gives its seats back and its order
   * is marked refunded (ExternalSalesService.release, under the seat lock); a conflict is
   * resolved by itself (no seat was taken); a sale never recorded leaves a tombstone, so an import
   * of its earlier `placed` state (a delivery late or racing) does not enroll it. Idempotent.
   */
  private async releaseOrder(organizationId: string, order: EventbriteOrder): Promise<ExternalSaleOutcome> {
    const orderId = String(order.id);
    const connection = this.em.getConnection();
    const read = async () =>
      (
        await connection.execute<{ id: string; stage: string; order_id: string | null }[]>(
          `select id, stage, order_id from sync_external_sale where organization_id = ? and provider = 'eventbrite' and remote_order_id = ?`,
          [organizationId, orderId],
        )
      )[0];
    let known = await read();
    if (!known) {
      const eventId = await this.sessionOf(organizationId, String(order.eventId));
      if (!eventId) return 'ignored'; // an event this studio does not sync
      const tombstone = await connection.execute<{ id: string }[]>(
        `insert into sync_external_sale
           (id, organization_id, provider, remote_order_id, event_id, seats, buyer_email, stage, order_id, last_error, resolved_at)
         values (gen_random_uuid(), ?, 'eventbrite', ?, ?, ?, ?, 'resolved', null, ?, now())
         on conflict (organization_id, provider, remote_order_id) do nothing returning id`,
        [organizationId, orderId, eventId, Math.max(1, order.attendees.length), (order.email ?? '').slice(0, 320), RELEASED_BEFORE_RECORDED],
      );
      if (tombstone.length) return 'ignored';
      known = await read(); // recorded meanwhile
      if (!known) return 'ignored';
    }
    if (known.stage === 'conflict') {
      const resolved = await connection.execute<{ id: string }[]>(
        `update sync_external_sale set stage = 'resolved', resolved_at = now(), resolved_by = null, updated_at = now()
          where id = ? and stage = 'conflict' returning id`,
        [known.id],
      );
      return resolved.length ? 'released' : 'duplicate';
    }
    if (known.stage !== 'recorded') return 'duplicate';
    const result = await this.sales.release({ organizationId }, { source: 'eventbrite', externalId: orderId, reason: RELEASE_REASON });
    if (result.kind === 'released') this.logger.log(`Eventbrite order ${orderId} refunded or cancelled: seats released (${result.enrollment})`);
    return result.kind === 'released' ? 'released' : 'duplicate';
  }

  /** The sales the admin must resolve, newest first (at most 200). */
  async conflicts(organizationId: string): Promise<ExternalSaleConflict[]> {
    return (await readSaleConflicts(this.em, organizationId, 200)).conflicts;
  }
}
