import { Injectable } from '@nestjs/common';
import { SYNC_MESSAGES as M } from '@studio/contracts';
import { EntityManager } from '@mikro-orm/postgresql';
import { EventsService, SessionSyncView } from '../../../scheduling/events.service';
import { SyncJobData, SyncJobHandler, SyncJobMapping, SyncJobResult } from '../../jobs/sync-job.types';
import { SyncConnectionsService } from '../../sync-connections.service';
import { SyncSettingsService } from '../../sync-settings.service';
import { ProviderRejectedError } from '../sync-driver';
import { EventbriteClient, EventbriteEventInput, EventbriteTicketInput } from './eventbrite.client';
import { EventbriteDriver } from './eventbrite.driver';

/** The studio's prices are US dollars (integer cents); Eventbrite is told so on each event. */
export const EVENTBRITE_CURRENCY = 'USD';

/** The ticket class every synced session sells: one seat at the session's price. */
export const EVENTBRITE_TICKET_NAME = 'Seat';

/** The connected client and the chosen organization, or a rejection that no retry can fix. */
async function connected(
  connections: SyncConnectionsService,
  settings: SyncSettingsService,
  driver: EventbriteDriver,
  organizationId: string,
): Promise<{ client: EventbriteClient; organization: string }> {
  const auth = await connections.auth({ organizationId }, 'eventbrite');
  const { organization_id } = await settings.config({ organizationId }, 'eventbrite');
  if (!organization_id) throw new ProviderRejectedError('eventbrite', 409, M.organizationRequired);
  return { client: driver.client(auth.accessToken), organization: organization_id };
}

const eventInput = (s: SessionSyncView): EventbriteEventInput => ({
  name: s.name,
  timezone: s.timezone,
  startsAt: s.startsAt,
  endsAt: s.endsAt,
  currency: EVENTBRITE_CURRENCY,
  capacity: s.capacity,
});

const ticketInput = (s: SessionSyncView): EventbriteTicketInput => ({
  name: EVENTBRITE_TICKET_NAME,
  capacity: s.capacity,
  priceCents: s.priceCents,
  currency: EVENTBRITE_CURRENCY,
});

/**
 * `event.upsert`: a session becomes an Eventbrite event with one ticket class (price, capacity),
 * created once and updated after. The event's id is kept on the mapping the moment Eventbrite
 * answers, before the ticket class, so a retry after a crash updates instead of creating again.
 */
@Injectable()
export class EventbriteEventUpsertHandler implements SyncJobHandler {
  readonly provider = 'eventbrite' as const;
  readonly action = 'event.upsert';

  constructor(
    private readonly em: EntityManager,
    private readonly events: EventsService,
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly driver: EventbriteDriver,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    const session = await this.events.syncView(job.organizationId, job.localId);
    const { client, organization } = await connected(this.connections, this.settings, this.driver, job.organizationId);
    if (!session || session.status !== 'active') {
      if (mapping.remoteId) await client.cancelEvent(mapping.remoteId);
      return { stage: 'cancelled' };
    }
    let remoteId = mapping.remoteId;
    if (remoteId) {
      await client.updateEvent(remoteId, eventInput(session));
    } else {
      const created = await client.createEvent(organization, eventInput(session));
      remoteId = String(created.id);
      await this.em
        .getConnection()
        .execute(`update sync_mapping set remote_id = ?, updated_at = now() where id = ?`, [remoteId, mapping.id]);
    }
    const [ticket] = await client.ticketClasses(remoteId);
    if (ticket) await client.updateTicketClass(remoteId, String(ticket.id), ticketInput(session));
    else await client.createTicketClass(remoteId, ticketInput(session));
    return { remoteId };
  }
}

/** `event.cancel`: the session was removed; its Eventbrite event is cancelled (ticket sales stop). */
@Injectable()
export class EventbriteEventCancelHandler implements SyncJobHandler {
  readonly provider = 'eventbrite' as const;
  readonly action = 'event.cancel';

  constructor(
    private readonly connections: SyncConnectionsService,
    private readonly settings: SyncSettingsService,
    private readonly driver: EventbriteDriver,
  ) {}

  handle(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    return this.run(job, mapping); // in the job's context (SyncJobsService.run)
  }

  private async run(job: SyncJobData, mapping: SyncJobMapping): Promise<SyncJobResult> {
    if (!mapping.remoteId) return { stage: 'cancelled' };
    const { client } = await connected(this.connections, this.settings, this.driver, job.organizationId);
    await client.cancelEvent(mapping.remoteId);
    return { stage: 'cancelled' };
  }
}
