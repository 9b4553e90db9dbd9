import { useState } from 'react';
import { SYNC_CONFLICT_MESSAGES as C } from '@studio/contracts';
import {
  App,
  Button,
  DrawerSection,
  Empty,
  Flex,
  Typography,
  useDateFormat,
  type SyncProviderAnswer,
} from '@studio/ui';
import { useResolveSyncConflict } from '../api/sync';

type Conflict = NonNullable<SyncProviderAnswer['conflicts']>[number];

/**
 * Sales placed on Eventbrite that could not be enrolled (overbooked, or the session was removed),
 * each with its reason and "Mark resolved" once the admin has refunded it or raised the capacity
 * (issue 11: "recorded as a conflict for the admin to resolve"). The answer replaces the drawer's data.
 */
export function SyncConflictsSection({ data }: { data: SyncProviderAnswer }) {
  const { message } = App.useApp();
  const resolveConflict = useResolveSyncConflict();
  const format = useDateFormat();
  const [resolving, setResolving] = useState<string | null>(null);
  const conflicts = data.conflicts ?? [];
  const total = data.conflicts_total ?? conflicts.length;

  const resolve = async (conflict: Conflict) => {
    setResolving(conflict.id);
    try {
      await resolveConflict.mutateAsync(conflict.id);
      message.success(C.resolved);
    } catch (error) {
      console.error('Resolving the Eventbrite sale conflict failed', error);
      message.error(C.resolveFailed);
    } finally {
      setResolving(null);
    }
  };

  return (
    <DrawerSection title="Sale conflicts">
      {conflicts.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No sale conflicts" />
      ) : (
        <>
          <Typography.Text strong>
            {total === 1 ? '1 sale to resolve' : `${total} sales to resolve`}
            {total > conflicts.length ? ` (the ${conflicts.length} most recent shown)` : ''}
          </Typography.Text>
          <ul aria-label="Sale conflicts" style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
            {conflicts.map((conflict) => (
              <li key={conflict.id} style={{ padding: '8px 0', borderTop: '1px solid rgba(0,0,0,0.06)' }}>
                <Flex justify="space-between" align="flex-start" gap={8}>
                  <div style={{ minWidth: 0 }}>
                    <Typography.Text>
                      Eventbrite order {conflict.remote_order_id} · {conflict.buyer_email} ·{' '}
                      {conflict.seats === 1 ? '1 seat' : `${conflict.seats} seats`}
                    </Typography.Text>
                    <br />
                    <Typography.Text type="danger">{conflict.message}</Typography.Text>
                    <br />
                    <Typography.Text type="secondary">{format.dateTime(conflict.created_at)}</Typography.Text>
                  </div>
                  <Button
                    size="small"
                    onClick={() => void resolve(conflict)}
                    loading={resolving === conflict.id}
                    aria-label={`Mark order ${conflict.remote_order_id} resolved`}
                  >
                    Mark resolved
                  </Button>
                </Flex>
              </li>
            ))}
          </ul>
        </>
      )}
    </DrawerSection>
  );
}
