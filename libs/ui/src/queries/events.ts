import type { QueryClient } from '@tanstack/react-query';
import { $api } from '../api/query-client';

/* Scheduled events, their tags and enrollments: query-key factories and invalidation. */
const DETAIL = '/api/admin/events/{event_id}';
const TAGS = '/api/admin/events/tags';
const EVENT_TAGS = '/api/admin/events/{event_id}/tags';
const ENROLLMENTS = '/api/admin/enrollment/event/{event_id}';

export const eventQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { event_id: id } } }),
  availableTags: () => $api.queryOptions('get', TAGS),
  tags: (id: string) => $api.queryOptions('get', EVENT_TAGS, { params: { path: { event_id: id } } }),
};

export const eventKeys = {
  detail: (id: string) => ['get', DETAIL, { params: { path: { event_id: id } } }] as const,
  availableTags: () => ['get', TAGS] as const,
  tags: (id: string) => ['get', EVENT_TAGS, { params: { path: { event_id: id } } }] as const,
  enrollments: (id: string) => ['get', ENROLLMENTS, { params: { path: { event_id: id } } }] as const,
};

/** After an event's price, capacity or enrollments change: the event and its grid read again. */
export function invalidateEvent(client: QueryClient, id: string): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: eventKeys.detail(id) }),
    client.invalidateQueries({ queryKey: eventKeys.enrollments(id) }),
  ]).then(() => undefined);
}

/** After a tag is created, renamed or an event's tags saved. */
export function invalidateTags(client: QueryClient, eventId?: string): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: eventKeys.availableTags() }),
    ...(eventId ? [client.invalidateQueries({ queryKey: eventKeys.tags(eventId) })] : []),
  ]).then(() => undefined);
}
