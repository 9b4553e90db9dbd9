import { ProviderHttp } from '../provider-http';
import { ProviderRejectedError } from '../sync-driver';
import {
  EventbriteEvent,
  EventbriteEventList,
  EventbriteOrder,
  EventbriteOrderList,
  EventbriteOrganization,
  EventbriteOrganizationList,
  EventbriteTicketClass,
  EventbriteTicketClassList,
  EventbriteUser,
  EventbriteWebhook,
  EventbriteWebhookList,
} from './eventbrite.resources';

/** What the studio writes to an Eventbrite event (a session of a course). */
export interface EventbriteEventInput {
  name: string;
  /** The session's zone (the location's IANA zone). */
  timezone: string;
  startsAt: Date;
  endsAt: Date;
  currency: string;
  capacity: number;
}

export interface EventbriteTicketInput {
  name: string;
  capacity: number;
  /** Integer cents; 0 is a free ticket. */
  priceCents: number;
  currency: string;
}

/** Eventbrite writes UTC instants without milliseconds (`2026-12-01T18:00:00Z`). */
export const eventbriteUtc = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Cents to Eventbrite's cost string: 4500 cents in USD is `USD,4500`. */
export const eventbriteCost = (cents: number, currency: string) => `${currency.toUpperCase()},${Math.round(cents)}`;

/** Every call the sync makes to Eventbrite API v3, for one organization's token. */
export class EventbriteClient {
  readonly http: ProviderHttp;

  constructor(apiBase: string, accessToken: string) {
    this.http = new ProviderHttp('eventbrite', apiBase, accessToken);
  }

  me(): Promise<EventbriteUser> {
    return this.http.as(EventbriteUser, { path: '/users/me/' });
  }

  /** All the user's organizations (every page). */
  async organizations(): Promise<EventbriteOrganization[]> {
    const all: EventbriteOrganization[] = [];
    let continuation: string | undefined;
    for (let page = 0; page < 50; page++) {
      const list = await this.http.as(EventbriteOrganizationList, {
        path: '/users/me/organizations/',
        query: { continuation },
      });
      all.push(...list.organizations);
      if (!list.pagination?.hasMoreItems || !list.pagination.continuation) break;
      continuation = list.pagination.continuation;
    }
    return all;
  }

  /** One page of an organization's events, newest start first. */
  events(organizationId: string, continuation?: string): Promise<EventbriteEventList> {
    return this.http.as(EventbriteEventList, {
      path: `/organizations/${encodeURIComponent(organizationId)}/events/`,
      query: { continuation, order_by: 'start_desc', page_size: 50 },
    });
  }

  private eventBody(input: EventbriteEventInput) {
    return {
      event: {
        name: { html: escapeHtml(input.name) },
        start: { timezone: input.timezone, utc: eventbriteUtc(input.startsAt) },
        end: { timezone: input.timezone, utc: eventbriteUtc(input.endsAt) },
        currency: input.currency,
        capacity: input.capacity,
      },
    };
  }

  createEvent(organizationId: string, input: EventbriteEventInput): Promise<EventbriteEvent> {
    return this.http.as(EventbriteEvent, {
      method: 'POST',
      path: `/organizations/${encodeURIComponent(organizationId)}/events/`,
      body: this.eventBody(input),
    });
  }

  getEvent(eventId: string): Promise<EventbriteEvent> {
    return this.http.as(EventbriteEvent, { path: `/events/${encodeURIComponent(eventId)}/` });
  }

  updateEvent(eventId: string, input: EventbriteEventInput): Promise<EventbriteEvent> {
    return this.http.as(EventbriteEvent, {
      method: 'POST',
      path: `/events/${encodeURIComponent(eventId)}/`,
      body: this.eventBody(input),
    });
  }

  async cancelEvent(eventId: string): Promise<void> {
    await this.http.call({ method: 'POST', path: `/events/${encodeURIComponent(eventId)}/cancel/` });
  }

  async ticketClasses(eventId: string): Promise<EventbriteTicketClass[]> {
    const list = await this.http.as(EventbriteTicketClassList, {
      path: `/events/${encodeURIComponent(eventId)}/ticket_classes/`,
    });
    return list.ticketClasses;
  }

  private ticketBody(input: EventbriteTicketInput) {
    return {
      ticket_class: {
        name: input.name,
        quantity_total: input.capacity,
        ...(input.priceCents > 0
          ? { free: false, cost: eventbriteCost(input.priceCents, input.currency) }
          : { free: true }),
      },
    };
  }

  createTicketClass(eventId: string, input: EventbriteTicketInput): Promise<EventbriteTicketClass> {
    return this.http.as(EventbriteTicketClass, {
      method: 'POST',
      path: `/events/${encodeURIComponent(eventId)}/ticket_classes/`,
      body: this.ticketBody(input),
    });
  }

  updateTicketClass(eventId: string, ticketClassId: string, input: EventbriteTicketInput) {
    return this.http.as(EventbriteTicketClass, {
      method: 'POST',
      path: `/events/${encodeURIComponent(eventId)}/ticket_classes/${encodeURIComponent(ticketClassId)}/`,
      body: this.ticketBody(input),
    });
  }

  /** An order with its attendees; `apiUrl` is a webhook's api_url (on the API host only). */
  order(orderIdOrApiUrl: string): Promise<EventbriteOrder> {
    const path = /^https?:\/\//.test(orderIdOrApiUrl)
      ? orderIdOrApiUrl
      : `/orders/${encodeURIComponent(orderIdOrApiUrl)}/`;
    return this.http.as(EventbriteOrder, { path, query: { expand: 'attendees' } });
  }

  /**
   * One page of an organization's orders changed since the instant, with attendees: placed ones and
   * refunded or cancelled ones (`all_not_deleted`; Eventbrite's default lists only attending orders).
   */
  orders(organizationId: string, changedSince: Date | null, continuation?: string): Promise<EventbriteOrderList> {
    return this.http.as(EventbriteOrderList, {
      path: `/organizations/${encodeURIComponent(organizationId)}/orders/`,
      query: {
        expand: 'attendees',
        status: 'all_not_deleted',
        changed_since: changedSince ? eventbriteUtc(changedSince) : undefined,
        continuation,
      },
    });
  }

  /** Registers the studio's webhook on an organization, for EVENTBRITE_WEBHOOK_ACTIONS. */
  createWebhook(organizationId: string, endpointUrl: string): Promise<EventbriteWebhook> {
    return this.http.as(EventbriteWebhook, {
      method: 'POST',
      path: `/organizations/${encodeURIComponent(organizationId)}/webhooks/`,
      body: { endpoint_url: endpointUrl, actions: EVENTBRITE_WEBHOOK_ACTIONS.join(',') },
    });
  }

  /** The organization's webhooks (every page). */
  async webhooks(organizationId: string): Promise<EventbriteWebhook[]> {
    const all: EventbriteWebhook[] = [];
    let continuation: string | undefined;
    for (let page = 0; page < 20; page++) {
      const list = await this.http.as(EventbriteWebhookList, {
        path: `/organizations/${encodeURIComponent(organizationId)}/webhooks/`,
        query: { continuation },
      });
      all.push(...list.webhooks);
      if (!list.pagination?.hasMoreItems || !list.pagination.continuation) break;
      continuation = list.pagination.continuation;
    }
    return all;
  }

  /** Deletes a webhook; one Eventbrite no longer has (404) counts as deleted. */
  async deleteWebhook(webhookId: string): Promise<void> {
    try {
      await this.http.call({ method: 'DELETE', path: `/webhooks/${encodeURIComponent(webhookId)}/` });
    } catch (error) {
      if (error instanceof ProviderRejectedError && error.status === 404) return;
      throw error;
    }
  }
}

/** The order changes the studio's webhook asks Eventbrite for. */
export const EVENTBRITE_WEBHOOK_ACTIONS = ['order.placed', 'order.refunded', 'order.updated'] as const;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
