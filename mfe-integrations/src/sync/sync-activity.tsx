import { useState } from 'react';
import { SYNC_JOB_MESSAGES as J, SYNC_PROVIDER_LABELS, type SyncProviderName } from '@studio/contracts';
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
import { useRetrySyncMapping } from '../api/sync';

type ProviderBody = SyncProviderAnswer;
type Failure = ProviderBody['provider']['failures'][number];

const TYPE_LABELS: Record<Failure['local_type'], string> = {
  activity: 'Course',
  event: 'Session',
  enrollment: 'Enrollment',
  order: 'Order',
  student: 'Student',
};

/**
 * The provider's last sync and its failed records, each with Retry (issue 11, "the last sync and
 * the failures, with Retry"). Retry answers the provider, which replaces the drawer's data.
 */
export function SyncActivitySection({ provider, data }: { provider: SyncProviderName; data: ProviderBody }) {
  const { message } = App.useApp();
  const retryMapping = useRetrySyncMapping(provider);
  const format = useDateFormat();
  const [retrying, setRetrying] = useState<string | null>(null);
  const { last_synced_at: lastSyncedAt, failures, failures_total: total } = data.provider;

  const retry = async (failure: Failure) => {
    setRetrying(failure.id);
    try {
      await retryMapping.mutateAsync(failure.id);
      message.success(J.retried);
    } catch (error) {
      console.error(`Retrying the ${SYNC_PROVIDER_LABELS[provider]} sync failed`, error);
      message.error(J.retryFailed);
    } finally {
      setRetrying(null);
    }
  };

  return (
    <DrawerSection title="Sync activity">
      <Typography.Paragraph>
        Last sync: {lastSyncedAt ? format.dateTime(lastSyncedAt) : 'not synced yet'}
      </Typography.Paragraph>
      {failures.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No failed syncs" />
      ) : (
        <>
          <Typography.Text strong>
            {total === 1 ? '1 failed sync' : `${total} failed syncs`}
            {total > failures.length ? ` (the ${failures.length} most recent shown)` : ''}
          </Typography.Text>
          <ul aria-label="Failed syncs" style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
            {failures.map((failure) => (
              <li key={failure.id} style={{ padding: '8px 0', borderTop: '1px solid rgba(0,0,0,0.06)' }}>
                <Flex justify="space-between" align="flex-start" gap={8}>
                  <div style={{ minWidth: 0 }}>
                    <Typography.Text>
                      {TYPE_LABELS[failure.local_type]} {failure.label ?? failure.local_id.slice(0, 8)}
                    </Typography.Text>
                    <br />
                    <Typography.Text type="danger">{failure.last_error ?? 'Failed'}</Typography.Text>
                    <br />
                    <Typography.Text type="secondary">
                      {failure.attempts === 1 ? '1 attempt' : `${failure.attempts} attempts`}, last{' '}
                      {format.dateTime(failure.updated_at)}
                    </Typography.Text>
                  </div>
                  <Button
                    size="small"
                    onClick={() => void retry(failure)}
                    loading={retrying === failure.id}
                    aria-label={`Retry ${TYPE_LABELS[failure.local_type]} ${failure.label ?? failure.local_id}`}
                  >
                    Retry
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
