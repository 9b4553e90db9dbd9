import {
  SESSION_CANCEL_REFUND_LABELS,
  cancelOutcomeText,
  cancelProgressText,
  formatCents,
} from '@studio/contracts';
import { Alert, Flex, QueryGuard, Spin, Table, Tag, Typography, useQuery } from '@studio/ui';
import { eventQueries, type Cancellation } from '../api/events';

type Student = Cancellation['students'][number];

/**
 * A cancelled session's students (issue 23): the choice and the reason, the progress as the server
 * reports it ("Refunding 2 of 5…", read again each second until every student is processed), then
 * each student as removed with their refund.
 */
export function CancellationSection({ eventId }: { eventId: string }) {
  const query = useQuery(eventQueries.cancellation(eventId));
  return (
    <QueryGuard query={query} title="Failed to load the cancellation" keepDataOnError>
      {(cancellation) => <CancellationView cancellation={cancellation} />}
    </QueryGuard>
  );
}

function CancellationView({ cancellation }: { cancellation: Cancellation }) {
  const finished = cancellation.processed >= cancellation.total;
  const progress = cancelProgressText(cancellation.refund, cancellation.processed, cancellation.total);
  return (
    <Flex vertical gap={12}>
      <Typography.Text>
        {SESSION_CANCEL_REFUND_LABELS[cancellation.refund]}
        {cancellation.reason ? ` · Reason: ${cancellation.reason}` : ''}
      </Typography.Text>
      <Alert
        type={finished ? 'success' : 'info'}
        showIcon
        role="status"
        title={
          <Flex gap={8} align="center">
            {finished ? null : <Spin size="small" />}
            <span>{progress}</span>
            {cancellation.refunded_cents > 0 ? <span>· {formatCents(cancellation.refunded_cents)} refunded</span> : null}
          </Flex>
        }
      />
      {cancellation.total > 0 ? (
        <Table<Student>
          size="small"
          rowKey="enrollment_id"
          pagination={false}
          dataSource={cancellation.students}
          aria-label="Cancelled students"
          columns={[
            {
              title: 'Student',
              key: 'student',
              render: (_, s) => (
                <Flex vertical>
                  <span>{`${s.first_name} ${s.last_name}`.trim()}</span>
                  <Typography.Text type="secondary">{s.email}</Typography.Text>
                </Flex>
              ),
            },
            {
              title: 'Outcome',
              key: 'outcome',
              render: (_, s) => (
                <Flex vertical>
                  <Tag color={s.outcome === 'pending' ? 'blue' : s.outcome === 'refund_failed' ? 'red' : 'default'}>
                    {cancelOutcomeText(s.outcome, s.refund_cents)}
                  </Tag>
                  {s.note ? <Typography.Text type="secondary">{s.note}</Typography.Text> : null}
                </Flex>
              ),
            },
          ]}
        />
      ) : null}
    </Flex>
  );
}
