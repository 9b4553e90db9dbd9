import { FakeHttpServer, FakeRateLimit, FakeRequest, FakeResponse, Obj } from './fake-http';
import { FakeOAuth } from './fake-oauth';

/*
 * The Eventbrite fake's shapes (events, ticket classes, orders, webhooks, its state and handle) and the
 * small helpers that write Eventbrite's formats: ids, `{ timezone, utc, local }` dates, money in minor
 * units, continuation pages, its 404 body. The server itself is eventbrite.ts.
 */

export interface FakeEventbriteEvent {
  id: string;
  organization_id: string;
  name: { text: string; html: string };
  start: { timezone: string; utc: string; local: string };
  end: { timezone: string; utc: string; local: string };
  status: string;
  capacity: number | null;
  currency: string;
  url: string;
  created: string;
  changed: string;
}

export interface FakeEventbriteTicketClass {
  id: string;
  event_id: string;
  name: string;
  quantity_total: number;
  quantity_sold: number;
  free: boolean;
  cost: { currency: string; value: number; major_value: string; display: string } | null;
}

export interface FakeEventbriteOrder {
  id: string;
  event_id: string;
  created: string;
  changed: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  status: string;
  costs: { gross: { currency: string; value: number; major_value: string; display: string } };
  attendees: Obj[];
}

/** A webhook as Eventbrite answers it (`organization_id` is this fake's own bookkeeping). */
export interface FakeEventbriteWebhook {
  id: string;
  resource_uri: string;
  endpoint_url: string;
  actions: string;
  event_id: string | null;
  user_id: string;
  created: string;
  organization_id: string;
}

export interface FakeEventbriteState {
  user: { id: string; name: string; first_name: string; last_name: string; emails: { email: string; primary: boolean }[] };
  organizations: { id: string; name: string }[];
  events: Map<string, FakeEventbriteEvent>;
  ticketClasses: Map<string, FakeEventbriteTicketClass>;
  orders: Map<string, FakeEventbriteOrder>;
  webhooks: FakeEventbriteWebhook[];
  /** Provider effects, to see that nothing is done twice. */
  counts: {
    eventsCreated: number;
    eventsUpdated: number;
    eventsCancelled: number;
    ticketClassesCreated: number;
    webhooksCreated: number;
    webhooksDeleted: number;
  };
  /** Answers 429 to the next API calls (the server's FakeRateLimit). */
  rateLimit: FakeRateLimit;
}

export interface FakeEventbrite {
  url: string;
  server: FakeHttpServer;
  oauth: FakeOAuth;
  state: FakeEventbriteState;
  /** Places an order on an event, as a buyer on eventbrite.com would; answers the order. */
  placeOrder(eventId: string, buyer: { first_name: string; last_name: string; email: string; quantity?: number }): FakeEventbriteOrder;
  /**
   * What Eventbrite would post for the order: from the webhook registered on the event's
   * organization (a made-up webhook id when none is).
   */
  webhookBody(order: FakeEventbriteOrder, action?: string): { config: Obj; api_url: string };
  /** Refunds (or cancels) an order, as the organizer would on eventbrite.com; answers the order. */
  refundOrder(orderId: string, status?: 'refunded' | 'cancelled'): FakeEventbriteOrder;
  /** Refunds `count` attendees of a placed order, which stays placed (a partial refund). */
  refundAttendees(orderId: string, count: number): FakeEventbriteOrder;
  /** Adds an event made on Eventbrite itself (for the Edit Course picker). */
  addEvent(organizationId: string, name: string, startUtc: string): FakeEventbriteEvent;
  close(): Promise<void>;
}

let counter = 100000000;
export const nextId = () => String(++counter);
export const noMs = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function localOf(utc: string, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(utc));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

export const dateTime = (value: unknown, fallback?: FakeEventbriteEvent['start']) => {
  const v = (value ?? {}) as { timezone?: string; utc?: string };
  const timezone = v.timezone ?? fallback?.timezone ?? 'UTC';
  const utc = v.utc ?? fallback?.utc ?? noMs(new Date());
  return { timezone, utc, local: localOf(utc, timezone) };
};

export const money = (currency: string, value: number) => ({
  currency,
  value,
  major_value: (value / 100).toFixed(2),
  display: `${(value / 100).toFixed(2)} ${currency}`,
});

/** Eventbrite pages with a continuation token; this fake's token is the next offset. */
export function page<T>(items: T[], req: FakeRequest, key: string, pageSize = 50) {
  const size = Math.min(Number(req.query.get('page_size') ?? pageSize) || pageSize, 200);
  const offset = Number(req.query.get('continuation') ?? 0) || 0;
  const slice = items.slice(offset, offset + size);
  const more = offset + size < items.length;
  return {
    [key]: slice,
    pagination: {
      object_count: items.length,
      page_number: Math.floor(offset / size) + 1,
      page_size: size,
      page_count: Math.max(1, Math.ceil(items.length / size)),
      has_more_items: more,
      ...(more ? { continuation: String(offset + size) } : {}),
    },
  };
}

export const notFound = (what: string): FakeResponse => ({
  status: 404,
  json: { status_code: 404, error: 'NOT_FOUND', error_description: `The ${what} you requested does not exist.` },
});

