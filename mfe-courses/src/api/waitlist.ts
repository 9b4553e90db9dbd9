import type { components } from '@studio/contracts';
import { $api, answer, api, useMutation, useQueryClient } from '@studio/ui';
import { refreshEvent } from './events';

/*
 * A session's waitlist (issue 23), as the event drawer reads and changes it: its query key, and the
 * admin's remove, move and "Offer the seat", each answering the waitlist as it is now and refreshing
 * the event (an offer holds seats; a removal may give them to the next party).
 */
const LIST = '/api/admin/events/{event_id}/waitlist';

export type Waitlist = components['schemas']['WaitlistDto_Output'];
export type WaitlistRow = Waitlist['entries'][number];

const byEvent = (event_id: string) => ({ params: { path: { event_id } } });
const byEntry = (entry_id: string) => ({ params: { path: { entry_id } } });

export const waitlistKeys = {
  list: (eventId: string) => ['get', LIST, byEvent(eventId)] as const,
};
export const waitlistQueries = {
  list: (eventId: string) => $api.queryOptions('get', LIST, byEvent(eventId)),
};

export type WaitlistAction =
  { kind: 'remove' } | { kind: 'offer' } | { kind: 'move'; direction: 'up' | 'down' };

export function useWaitlistAction(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entryId, action }: { entryId: string; action: WaitlistAction }): Promise<Waitlist> => {
      if (action.kind === 'remove')
        return answer(api.DELETE('/api/admin/waitlist/{entry_id}', byEntry(entryId)));
      if (action.kind === 'offer')
        return answer(api.POST('/api/admin/waitlist/{entry_id}/offer', byEntry(entryId)));
      return answer(
        api.POST('/api/admin/waitlist/{entry_id}/move', {
          ...byEntry(entryId),
          body: { direction: action.direction },
        }),
      );
    },
    onSuccess: (answered) => {
      queryClient.setQueryData(waitlistQueries.list(eventId).queryKey, answered);
      void refreshEvent(queryClient, eventId);
    },
  });
}
