import { Expose, Transform, Type } from 'class-transformer';

/*
 * Eventbrite API v3 resources (https://www.eventbrite.com/platform/api), one class each. Field
 * names and date strings are mapped here only: the jobs read camelCase properties and Dates.
 */

/** `{ text, html }`, as Eventbrite writes an event's name and description. */
export class EventbriteMultipartText {
  text!: string | null;
  html!: string | null;
}

/** `{ timezone, utc, local }`: utc is `2026-12-01T18:00:00Z`, local the wall clock in the zone. */
export class EventbriteDateTime {
  timezone!: string;
  @Type(() => Date)
  utc!: Date;
  local!: string;
}

export class EventbritePagination {
  @Expose({ name: 'object_count' }) objectCount!: number;
  @Expose({ name: 'page_number' }) pageNumber!: number;
  @Expose({ name: 'page_count' }) pageCount!: number;
  continuation?: string;
  @Expose({ name: 'has_more_items' }) hasMoreItems!: boolean;
}

export class EventbriteEmail {
  email!: string;
  primary!: boolean;
}

export class EventbriteUser {
  id!: string;
  name!: string | null;
  @Expose({ name: 'first_name' }) firstName!: string | null;
  @Expose({ name: 'last_name' }) lastName!: string | null;
  @Type(() => EventbriteEmail)
  emails: EventbriteEmail[] = [];
}

export class EventbriteOrganization {
  id!: string;
  name!: string;
}

export class EventbriteOrganizationList {
  @Type(() => EventbriteOrganization)
  organizations: EventbriteOrganization[] = [];
  @Type(() => EventbritePagination)
  pagination!: EventbritePagination;
}

export type EventbriteEventStatus = 'draft' | 'live' | 'started' | 'ended' | 'completed' | 'canceled';

export class EventbriteEvent {
  id!: string;
  @Type(() => EventbriteMultipartText)
  name!: EventbriteMultipartText;
  @Type(() => EventbriteDateTime)
  start!: EventbriteDateTime;
  @Type(() => EventbriteDateTime)
  end!: EventbriteDateTime;
  status!: EventbriteEventStatus;
  capacity!: number | null;
  currency!: string | null;
  url!: string | null;
  @Expose({ name: 'organization_id' }) organizationId!: string | null;
  @Type(() => Date)
  created!: Date;
  @Type(() => Date)
  changed!: Date;
}

export class EventbriteEventList {
  @Type(() => EventbriteEvent)
  events: EventbriteEvent[] = [];
  @Type(() => EventbritePagination)
  pagination!: EventbritePagination;
}

/** Money as Eventbrite writes it: `value` in minor units, `major_value` as a string, the currency. */
export class EventbriteCost {
  currency!: string;
  /** Minor units (cents). */
  value!: number;
  display!: string;
  @Expose({ name: 'major_value' }) majorValue!: string;
}

export class EventbriteTicketClass {
  id!: string;
  name!: string;
  @Expose({ name: 'event_id' }) eventId!: string;
  @Expose({ name: 'quantity_total' }) quantityTotal!: number;
  @Expose({ name: 'quantity_sold' }) quantitySold!: number;
  free!: boolean;
  @Type(() => EventbriteCost)
  cost!: EventbriteCost | null;
}

export class EventbriteTicketClassList {
  @Expose({ name: 'ticket_classes' })
  @Type(() => EventbriteTicketClass)
  ticketClasses: EventbriteTicketClass[] = [];
}

export class EventbriteAttendeeProfile {
  @Expose({ name: 'first_name' }) firstName!: string | null;
  @Expose({ name: 'last_name' }) lastName!: string | null;
  email!: string | null;
}

export class EventbriteAttendee {
  id!: string;
  @Expose({ name: 'event_id' }) eventId!: string;
  @Expose({ name: 'order_id' }) orderId!: string;
  @Expose({ name: 'ticket_class_id' }) ticketClassId!: string;
  @Type(() => EventbriteAttendeeProfile)
  profile!: EventbriteAttendeeProfile;
  status!: string;
  cancelled!: boolean;
  refunded!: boolean;
  /** What this attendee's ticket cost (its share of the order's gross). */
  @Type(() => EventbriteOrderCosts)
  costs?: EventbriteOrderCosts | null;
}

export class EventbriteOrderCosts {
  @Type(() => EventbriteCost)
  gross!: EventbriteCost;
}

export class EventbriteOrder {
  id!: string;
  @Expose({ name: 'event_id' }) eventId!: string;
  @Type(() => Date)
  created!: Date;
  @Type(() => Date)
  changed!: Date;
  name!: string | null;
  @Expose({ name: 'first_name' }) firstName!: string | null;
  @Expose({ name: 'last_name' }) lastName!: string | null;
  email!: string;
  /** `placed`, `refunded`, `cancelled`, `deleted`… (EVENTBRITE_RELEASED_STATUSES free the seats). */
  status!: string;
  @Type(() => EventbriteOrderCosts)
  costs!: EventbriteOrderCosts | null;
  /** Present with `?expand=attendees`. */
  @Type(() => EventbriteAttendee)
  @Transform(({ value }) => value ?? [])
  attendees: EventbriteAttendee[] = [];
}

export class EventbriteOrderList {
  @Type(() => EventbriteOrder)
  orders: EventbriteOrder[] = [];
  @Type(() => EventbritePagination)
  pagination!: EventbritePagination;
}

export class EventbriteWebhook {
  id!: string;
  @Expose({ name: 'endpoint_url' }) endpointUrl!: string;
  /** Comma-separated: `order.placed,order.refunded,order.updated`. */
  actions!: string;
  @Expose({ name: 'event_id' }) eventId!: string | null;
}

export class EventbriteWebhookList {
  @Type(() => EventbriteWebhook)
  webhooks: EventbriteWebhook[] = [];
  @Type(() => EventbritePagination)
  pagination!: EventbritePagination;
}

/** What Eventbrite posts to a webhook: the action and the API URL of the changed object. */
export class EventbriteWebhookConfig {
  action!: string;
  @Expose({ name: 'user_id' }) userId?: string;
  @Expose({ name: 'webhook_id' }) webhookId?: string;
  @Expose({ name: 'endpoint_url' }) endpointUrl?: string;
}

export class EventbriteWebhookDelivery {
  @Type(() => EventbriteWebhookConfig)
  config!: EventbriteWebhookConfig;
  @Expose({ name: 'api_url' }) apiUrl!: string;
}
