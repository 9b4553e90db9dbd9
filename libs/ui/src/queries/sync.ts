import type { SyncProviderName } from '@studio/contracts';
import { $api } from '../api/query-client';

/* Sync providers (spec 001 §7): read by the Integrations page and each provider's settings drawer. */
const PROVIDER = '/api/admin/sync/providers/{provider}';

export const syncQueries = {
  provider: (provider: SyncProviderName) =>
    $api.queryOptions('get', PROVIDER, { params: { path: { provider } } }),
  /** Edit Course's ticketing picker: the chosen Eventbrite organization's events, newest first (first page). */
  ticketingEvents: () => $api.queryOptions('get', '/api/admin/partners/eventbrite/events', {}),
};
export const syncKeys = {
  provider: (provider: SyncProviderName) => ['get', PROVIDER, { params: { path: { provider } } }] as const,
};
