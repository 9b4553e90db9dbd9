import { SYNC_CONFLICT_MESSAGES as C } from '@studio/contracts';
import { DrawerSection, useDateFormat, type SyncProviderAnswer } from '@studio/ui';
import { useResolveSyncConflict } from '../api/sync';
import { SyncRecordList } from './sync-record-list';

type Conflict = NonNullable<SyncProviderAnswer['conflicts']>[number];

/**
 * Sales placed on Eventbrite that could not be enrolled (overbooked, or the session was removed),
 * each with its reason and "Mark resolved" once the admin has refunded it or raised the capacity
 * (issue 11: "recorded as a conflict for the admin to resolve"). The answer replaces the drawer's data.
 */
export function SyncConflictsSection({ data }: { data: SyncProviderAnswer }) {
  const resolveConflict = useResolveSyncConflict();
  const format = useDateFormat();
  const conflicts = data.conflicts ?? [];

  return (
    <DrawerSection title="Sale conflicts">
      <SyncRecordList<Conflict>
        label="Sale conflicts"
        empty="No sale conflicts"
        records={conflicts}
        total={data.conflicts_total ?? conflicts.length}
        countText={(n) => (n === 1 ? '1 sale to resolve' : `${n} sales to resolve`)}
        describe={(conflict) => ({
          what: (
            <>
              Eventbrite order {conflict.remote_order_id} · {conflict.buyer_email} ·{' '}
              {conflict.seats === 1 ? '1 seat' : `${conflict.seats} seats`}
            </>
          ),
          problem: conflict.message,
          when: format.dateTime(conflict.created_at),
        })}
        action={{
          label: 'Mark resolved',
          name: (conflict) => `Mark order ${conflict.remote_order_id} resolved`,
          run: (conflict) => resolveConflict.mutateAsync(conflict.id),
          done: C.resolved,
          failed: C.resolveFailed,
          logMessage: 'Resolving the Eventbrite sale conflict failed',
        }}
      />
    </DrawerSection>
  );
}
