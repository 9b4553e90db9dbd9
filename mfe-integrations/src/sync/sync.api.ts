import { answer, api } from '@studio/ui';

/** Saving a provider's settings is shared with the shell's Integrations page. */
export { saveSyncConfig } from '@studio/ui';

/** POST /api/admin/sync/mappings/{mapping_id}/retry: queues a failed sync again; answers the provider. */
export function retrySyncMapping(mappingId: string) {
  return answer(
    api.POST('/api/admin/sync/mappings/{mapping_id}/retry', { params: { path: { mapping_id: mappingId } } }),
  );
}

/** POST /api/admin/sync/conflicts/{conflict_id}/resolve: marks an Eventbrite sale conflict resolved; answers Eventbrite. */
export function resolveSyncConflict(conflictId: string) {
  return answer(
    api.POST('/api/admin/sync/conflicts/{conflict_id}/resolve', {
      params: { path: { conflict_id: conflictId } },
    }),
  );
}
