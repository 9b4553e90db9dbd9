import { randomInt } from 'node:crypto';
import { FakeHttpServer, FakeRequest, Obj } from './fake-http';
import { mountFakeOAuth } from './fake-oauth';

/*
 * A fake of Eventbrite: OAuth at /oauth/authorize and /oauth/token (client id and secret in the
 * form, tokens that never expire), API v3 under /v3 with Eventbrite's shapes (objects with
 * `pagination`, `{ text, html }` names, `{ timezone, utc, local }` dates, costs in minor units).
 * Tests place orders on it (`placeOrder`), make it answer 429 (`state.rateLimit.next`), and count its effects.
 */

import {
  dateTime,
  FakeEventbrite,
  FakeEventbriteEvent,
  FakeEventbriteOrder,
  FakeEventbriteState,
  FakeEventbriteTicketClass,
  FakeEventbriteWebhook,
  money,
  nextId,
  noMs,
  notFound,
  page,
} from './eventbrite-model';

export * from './eventbrite-model';

export async function startFakeEventbrite(
  options: { clientId?: string; clientSecret?: string; port?: number } = {},
): Promise<FakeEventbrite> {
  const server = new FakeHttpServer('eventbrite');
  const oauth = mountFakeOAuth(server, {
    clientId: options.clientId ?? 'fake-eventbrite-client',
    clientSecret: options.clientSecret ?? 'fake-eventbrite-secret',
    paths: { authorize: '/oauth/authorize', token: '/oauth/token' },
    clientAuth: 'post',
  });
  const state: FakeEventbriteState = {
    user: {
      id: '1000001',
      name: 'Riley Studio',
      first_name: 'Riley',
      last_name: 'Studio',
      emails: [{ email: 'riley@studio.example', primary: true }],
    },
    organizations: [
      { id: '2000001', name: 'Riley Studio Events' },
      { id: '2000002', name: 'Riley Pop-ups' },
    ],
    events: new Map(),
    ticketClasses: new Map(),
    orders: new Map(),
    webhooks: [],
    counts: { eventsCreated: 0, eventsUpdated: 0, eventsCancelled: 0, ticketClassesCreated: 0, webhooksCreated: 0, webhooksDeleted: 0 },
    rateLimit: server.rateLimit,
  };

  // Every API call: a live bearer token, then the rate limit (429 with Retry-After).
  server.guardApi({
    prefix: '/v3/',
    check: (req) => oauth.requireToken(req),
    tooMany: () => ({
      json: { status_code: 429, error: 'HIT_RATE_LIMIT', error_description: 'Rate limit exceeded' },
    }),
  });

  const ownsOrg = (id: string) => state.organizations.some((o) => o.id === id);
  const body = (req: FakeRequest, key: string) => (((req.body ?? {}) as Obj)[key] ?? {}) as Obj;
  const orderView = (o: FakeEventbriteOrder, req: FakeRequest) => {
    const expand = (req.query.get('expand') ?? '').split(',').includes('attendees');
    const { attendees, ...rest } = o;
    return expand ? { ...rest, attendees } : rest;
  };

  const applyEvent = (event: FakeEventbriteEvent, input: Obj) => {
    const name = input.name as { html?: string; text?: string } | undefined;
    if (name) {
      const text = name.text ?? String(name.html ?? '').replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');
      event.name = { text, html: name.html ?? text };
    }
    if (input.start) event.start = dateTime(input.start, event.start);
    if (input.end) event.end = dateTime(input.end, event.end);
    if (input.capacity !== undefined) event.capacity = Number(input.capacity);
    if (input.currency) event.currency = String(input.currency);
    event.changed = noMs(new Date());
  };

  server
    .route('GET', '/v3/users/me', () => ({ json: state.user }))
    .route('GET', '/v3/users/me/organizations', (req) => ({ json: page(state.organizations, req, 'organizations') }))
    .route('GET', '/v3/organizations/:org/events', (req) => {
      if (!ownsOrg(req.params.org)) return notFound('organization');
      const events = [...state.events.values()]
        .filter((e) => e.organization_id === req.params.org)
        .sort((a, b) => (req.query.get('order_by') === 'start_desc' ? b.start.utc.localeCompare(a.start.utc) : a.start.utc.localeCompare(b.start.utc)));
      return { json: page(events, req, 'events') };
    })
    .route('POST', '/v3/organizations/:org/events', (req) => {
      if (!ownsOrg(req.params.org)) return notFound('organization');
      const input = body(req, 'event');
      if (!input.name || !input.start || !input.end || !input.currency) {
        return { status: 400, json: { status_code: 400, error: 'ARGUMENTS_ERROR', error_description: 'name, start, end and currency are required' } };
      }
      const id = nextId();
      const now = noMs(new Date());
      const event: FakeEventbriteEvent = {
        id,
        organization_id: req.params.org,
        name: { text: '', html: '' },
        start: dateTime(input.start),
        end: dateTime(input.end),
        status: 'draft',
        capacity: null,
        currency: 'USD',
        url: `https://www.eventbrite.com/e/${id}`,
        created: now,
        changed: now,
      };
      applyEvent(event, input);
      state.events.set(id, event);
      state.counts.eventsCreated += 1;
      return { json: event };
    })
    .route('GET', '/v3/events/:id', (req) => {
      const event = state.events.get(req.params.id);
      return event ? { json: event } : notFound('event');
    })
    .route('POST', '/v3/events/:id', (req) => {
      const event = state.events.get(req.params.id);
      if (!event) return notFound('event');
      applyEvent(event, body(req, 'event'));
      state.counts.eventsUpdated += 1;
      return { json: event };
    })
    .route('POST', '/v3/events/:id/cancel', (req) => {
      const event = state.events.get(req.params.id);
      if (!event) return notFound('event');
      if (event.status !== 'canceled') state.counts.eventsCancelled += 1;
      event.status = 'canceled';
      return { json: { canceled: true } };
    })
    .route('GET', '/v3/events/:id/ticket_classes', (req) => {
      if (!state.events.has(req.params.id)) return notFound('event');
      const list = [...state.ticketClasses.values()].filter((t) => t.event_id === req.params.id);
      return { json: page(list, req, 'ticket_classes') };
    })
    .route('POST', '/v3/events/:id/ticket_classes', (req) => {
      if (!state.events.has(req.params.id)) return notFound('event');
      const input = body(req, 'ticket_class');
      const ticket: FakeEventbriteTicketClass = {
        id: nextId(),
        event_id: req.params.id,
        name: String(input.name ?? 'General Admission'),
        quantity_total: Number(input.quantity_total ?? 0),
        quantity_sold: 0,
        free: true,
        cost: null,
      };
      applyTicket(ticket, input);
      state.ticketClasses.set(ticket.id, ticket);
      state.counts.ticketClassesCreated += 1;
      return { json: ticket };
    })
    .route('POST', '/v3/events/:id/ticket_classes/:tc', (req) => {
      const ticket = state.ticketClasses.get(req.params.tc);
      if (!ticket || ticket.event_id !== req.params.id) return notFound('ticket class');
      applyTicket(ticket, body(req, 'ticket_class'));
      return { json: ticket };
    })
    .route('GET', '/v3/orders/:id', (req) => {
      const order = state.orders.get(req.params.id);
      return order ? { json: orderView(order, req) } : notFound('order');
    })
    .route('GET', '/v3/organizations/:org/orders', (req) => {
      if (!ownsOrg(req.params.org)) return notFound('organization');
      const since = req.query.get('changed_since');
      // Eventbrite's `status` filter: active (attending, the default), inactive, both, all_not_deleted.
      const status = req.query.get('status') ?? 'active';
      const wanted = (o: FakeEventbriteOrder) =>
        status === 'active' ? o.status === 'placed'
        : status === 'inactive' ? o.status !== 'placed' && o.status !== 'deleted'
        : status === 'all_not_deleted' ? o.status !== 'deleted'
        : true;
      const list = [...state.orders.values()]
        .filter((o) => state.events.get(o.event_id)?.organization_id === req.params.org)
        .filter(wanted)
        .filter((o) => !since || o.changed >= since)
        .sort((a, b) => a.changed.localeCompare(b.changed) || a.id.localeCompare(b.id))
        .map((o) => orderView(o, req));
      return { json: page(list, req, 'orders') };
    })
    // Webhooks: created on an organization with `endpoint_url` and comma-separated `actions`
    // (and an optional `event_id`), listed per organization, deleted by id.
    .route('POST', '/v3/organizations/:org/webhooks', (req) => {
      if (!ownsOrg(req.params.org)) return notFound('organization');
      const input = (req.body ?? {}) as Obj;
      const endpoint = typeof input.endpoint_url === 'string' ? input.endpoint_url : '';
      const actions = typeof input.actions === 'string' ? input.actions : '';
      if (!/^https?:\/\//.test(endpoint) || !actions) {
        return { status: 400, json: { status_code: 400, error: 'ARGUMENTS_ERROR', error_description: 'endpoint_url and actions are required' } };
      }
      const id = nextId();
      const hook: FakeEventbriteWebhook = {
        id,
        resource_uri: `${url}/v3/webhooks/${id}/`,
        endpoint_url: endpoint,
        actions,
        event_id: typeof input.event_id === 'string' ? input.event_id : null,
        user_id: state.user.id,
        created: noMs(new Date()),
        organization_id: req.params.org,
      };
      state.webhooks.push(hook);
      state.counts.webhooksCreated += 1;
      const { organization_id: _org, ...view } = hook;
      return { json: view };
    })
    .route('GET', '/v3/organizations/:org/webhooks', (req) => {
      if (!ownsOrg(req.params.org)) return notFound('organization');
      const list = state.webhooks.filter((w) => w.organization_id === req.params.org).map(({ organization_id: _org, ...view }) => view);
      return { json: page(list, req, 'webhooks') };
    })
    .route('DELETE', '/v3/webhooks/:id', (req) => {
      const index = state.webhooks.findIndex((w) => w.id === req.params.id);
      if (index < 0) return notFound('webhook');
      state.webhooks.splice(index, 1);
      state.counts.webhooksDeleted += 1;
      return { json: {} };
    });

  function applyTicket(ticket: FakeEventbriteTicketClass, input: Obj) {
    if (input.name !== undefined) ticket.name = String(input.name);
    if (input.quantity_total !== undefined) ticket.quantity_total = Number(input.quantity_total);
    if (input.free === true) {
      ticket.free = true;
      ticket.cost = null;
    } else if (typeof input.cost === 'string') {
      const [currency, value] = input.cost.split(',');
      ticket.free = false;
      ticket.cost = money(currency, Number(value));
    }
  }

  const url = await server.listen(options.port);

  return {
    url,
    server,
    oauth,
    state,
    placeOrder(eventId, buyer) {
      const event = state.events.get(eventId);
      if (!event) throw new Error(`No Eventbrite event ${eventId}`);
      const ticket = [...state.ticketClasses.values()].find((t) => t.event_id === eventId);
      const quantity = buyer.quantity ?? 1;
      const id = nextId();
      const now = noMs(new Date());
      const unit = ticket?.cost?.value ?? 0;
      const order: FakeEventbriteOrder = {
        id,
        event_id: eventId,
        created: now,
        changed: now,
        name: `${buyer.first_name} ${buyer.last_name}`,
        first_name: buyer.first_name,
        last_name: buyer.last_name,
        email: buyer.email,
        status: 'placed',
        costs: { gross: money(event.currency, unit * quantity) },
        attendees: Array.from({ length: quantity }, () => ({
          id: nextId(),
          event_id: eventId,
          order_id: id,
          ticket_class_id: ticket?.id ?? null,
          profile: { first_name: buyer.first_name, last_name: buyer.last_name, email: buyer.email },
          status: 'Attending',
          cancelled: false,
          refunded: false,
          costs: { gross: money(event.currency, unit) },
        })),
      };
      if (ticket) ticket.quantity_sold += quantity;
      state.orders.set(id, order);
      return order;
    },
    webhookBody(order, action = 'order.placed') {
      const organization = state.events.get(order.event_id)?.organization_id;
      const hook = state.webhooks.find((w) => w.organization_id === organization);
      return {
        config: {
          action,
          user_id: state.user.id,
          endpoint_url: hook?.endpoint_url ?? 'https://studio.example/api/webhooks/eventbrite',
          webhook_id: hook?.id ?? String(randomInt(1e8, 1e9)),
        },
        api_url: `${url}/v3/orders/${order.id}/`,
      };
    },
    refundOrder(orderId, status = 'refunded') {
      const order = state.orders.get(orderId);
      if (!order) throw new Error(`No Eventbrite order ${orderId}`);
      order.status = status;
      // The poll reads orders changed since an instant: a refund is a change.
      order.changed = noMs(new Date(Math.max(Date.now(), Date.parse(order.changed) + 1000)));
      for (const attendee of order.attendees) {
        if (status === 'refunded') attendee.refunded = true;
        attendee.cancelled = true;
        attendee.status = status === 'refunded' ? 'Refunded' : 'Not Attending';
      }
      const ticket = [...state.ticketClasses.values()].find((t) => t.event_id === order.event_id);
      if (ticket) ticket.quantity_sold = Math.max(0, ticket.quantity_sold - order.attendees.length);
      return order;
    },
    refundAttendees(orderId, count) {
      const order = state.orders.get(orderId);
      if (!order) throw new Error(`No Eventbrite order ${orderId}`);
      // Eventbrite refunds attendees one by one; the order stays placed while some still attend.
      order.changed = noMs(new Date(Math.max(Date.now(), Date.parse(order.changed) + 1000)));
      const attending = order.attendees.filter((a) => !a.cancelled);
      for (const attendee of attending.slice(0, count)) {
        attendee.refunded = true;
        attendee.cancelled = true;
        attendee.status = 'Refunded';
      }
      const ticket = [...state.ticketClasses.values()].find((t) => t.event_id === order.event_id);
      if (ticket) ticket.quantity_sold = Math.max(0, ticket.quantity_sold - Math.min(count, attending.length));
      return order;
    },
    addEvent(organizationId, name, startUtc) {
      const id = nextId();
      const end = noMs(new Date(Date.parse(startUtc) + 2 * 3600_000));
      const event: FakeEventbriteEvent = {
        id,
        organization_id: organizationId,
        name: { text: name, html: name },
        start: dateTime({ timezone: 'America/New_York', utc: startUtc }),
        end: dateTime({ timezone: 'America/New_York', utc: end }),
        status: 'live',
        capacity: 20,
        currency: 'USD',
        url: `https://www.eventbrite.com/e/${id}`,
        created: noMs(new Date()),
        changed: noMs(new Date()),
      };
      state.events.set(id, event);
      return event;
    },
    close: () => server.close(),
  };
}
