import { SYNC_JOB_MESSAGES as J, SYNC_PROVIDER_LABELS, type SyncProviderName } from '@studio/contracts';
import { DrawerSection, Typography, useDateFormat, type SyncProviderAnswer } from '@studio/ui';
import { useRetrySyncMapping } from '../api/sync';
import { SyncRecordList } from './sync-record-list';

type ProviderBody = SyncProviderAnswer;
type Failure = ProviderBody['provider']['failures'][number];

const TYPE_LABELS: Record<Failure['local_type'], string> = {
  activity: 'Course',
  event: 'Session',
  enrollment: 'Enrollment',
  order: 'Order',
  student: 'Student',
  appointment: 'Appointment',
};

/**
 * The provider's last sync and its failed records, each with Retry (issue 11, "the last sync and
 * the failures, with Retry"). Retry answers the provider, which replaces the drawer's data.
 */
export function SyncActivitySection({ provider, data }: { provider: SyncProviderName; data: ProviderBody }) {
  const retryMapping = useRetrySyncMapping(provider);
  const format = useDateFormat();
  const { last_synced_at: lastSyncedAt, failures, failures_total: total } = data.provider;

  return (
    <DrawerSection title="Sync activity">
      <Typography.Paragraph>
        Last sync: {lastSyncedAt ? format.dateTime(lastSyncedAt) : 'not synced yet'}
      </Typography.Paragraph>
      <SyncRecordList<Failure>
        label="Failed syncs"
        empty="No failed syncs"
        records={failures}
        total={total}
        countText={(n) => (n === 1 ? '1 failed sync' : `${n} failed syncs`)}
        describe={(failure) => ({
          what: (
            <>
              {TYPE_LABELS[failure.local_type]} {failure.label ?? failure.local_id.slice(0, 8)}
            </>
          ),
          problem: failure.last_error ?? 'Failed',
          when: (
            <>
              {failure.attempts === 1 ? '1 attempt' : `${failure.attempts} attempts`}, last{' '}
              {format.dateTime(failure.updated_at)}
            </>
          ),
        })}
        action={{
          label: 'Retry',
          name: (failure) => `Retry ${TYPE_LABELS[failure.local_type]} ${failure.label ?? failure.local_id}`,
          run: (failure) => retryMapping.mutateAsync(failure.id),
          done: J.retried,
          failed: J.retryFailed,
          logMessage: `Retrying the ${SYNC_PROVIDER_LABELS[provider]} sync failed`,
        }}
      />
    </DrawerSection>
  );
}
