import type { SyncConfigPayload } from '@studio/contracts';
import { answer, api } from '@studio/ui';

/** PUT /api/admin/sync/providers/config_schema: answers the saved provider. */
export function saveSyncConfig(body: SyncConfigPayload) {
  return answer(api.PUT('/api/admin/sync/providers/config_schema', { body }));
}
