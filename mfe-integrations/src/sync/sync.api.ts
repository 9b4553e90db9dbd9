import type { SyncConfigPayload } from '@studio/contracts';
import { answer, api } from '@studio/ui';

/** PUT /api/admin/sync/providers/config_schema: answers the saved provider. */
export function saveSyncConfig(body: SyncConfigPayload) {
  return answer(api.PUT('/api/admin/sync/providers/config_schema', { body }));
}

/** POST /api/admin/sync/mappings/{mapping_id}/retry: queues a failed sync again; answers the provider. */
export function retrySyncMapping(mappingId: string) {
  return answer(api.POST('/api/admin/sync/mappings/{mapping_id}/retry', { params: { path: { mapping_id: mappingId } } }));
}

/** POST /api/admin/sync/conflicts/{conflict_id}/resolve: marks an Eventbrite sale conflict resolved; answers Eventbrite. */
export function resolveSyncConflict(conflictId: string) {
  return answer(
    api.POST('/api/admin/sync/conflicts/{conflict_id}/resolve', { params: { path: { conflict_id: conflictId } } }),
  );
}
