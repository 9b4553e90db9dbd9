import type { SyncProviderName } from '@studio/contracts';
import { answer, api, syncKeys, useMutation, useQueryClient } from '@studio/ui';

/*
 * The sync settings drawer's changes (spec 001 §7). Each answers the provider as read, which
 * replaces the cached provider (`syncKeys`, shared with the shell's Integrations page) at once.
 */

/** POST /api/admin/sync/mappings/{mapping_id}/retry: queues a failed sync again. */
export function useRetrySyncMapping(provider: SyncProviderName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mappingId: string) =>
      answer(
        api.POST('/api/admin/sync/mappings/{mapping_id}/retry', {
          params: { path: { mapping_id: mappingId } },
        }),
      ),
    onSuccess: (answered) => queryClient.setQueryData(syncKeys.provider(provider), answered),
  });
}

/** POST /api/admin/sync/conflicts/{conflict_id}/resolve: marks an Eventbrite sale conflict resolved. */
export function useResolveSyncConflict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conflictId: string) =>
      answer(
        api.POST('/api/admin/sync/conflicts/{conflict_id}/resolve', {
          params: { path: { conflict_id: conflictId } },
        }),
      ),
    onSuccess: (answered) => queryClient.setQueryData(syncKeys.provider('eventbrite'), answered),
  });
}

/** Disconnect: the API revokes at the provider where it can and forgets the tokens; the provider reads again. */
export function useDisconnectSync(provider: SyncProviderName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { response } = await api.DELETE('/api/admin/sync/providers/{provider}/connection', {
        params: { path: { provider } },
      });
      if (!response.ok) throw new Error(`Disconnect answered ${response.status}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: syncKeys.provider(provider) }),
  });
}
