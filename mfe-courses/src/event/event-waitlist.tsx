import { WAITLIST_MESSAGES as M, WAITLIST_STATUS_LABELS } from '@studio/contracts';
import {
  App,
  Button,
  DeleteOutlined,
  Empty,
  Flex,
  QueryGuard,
  Table,
  Tag,
  Tooltip,
  useDateFormat,
  useQuery,
  serverMessage,
  type TableProps,
} from '@studio/ui';
import { useWaitlistAction, waitlistQueries, type WaitlistAction, type WaitlistRow } from '../api/waitlist';

export const WAITLIST_TEXTS = {
  loadFailed: 'Could not load the waitlist',
  empty: 'Nobody is on the waitlist',
  failed: 'The waitlist could not be changed. Please try again.',
} as const;

const STATUS_COLORS: Record<WaitlistRow['status'], string> = {
  waiting: 'blue',
  offered: 'gold',
  claimed: 'green',
  expired: 'default',
  removed: 'default',
};

const isActive = (row: WaitlistRow) => row.status === 'waiting' || row.status === 'offered';

/**
 * The session's waitlist in order (issue 23): name, email, party size, joined, status (waiting,
 * offered until …, claimed, expired, removed); the admin removes an entry, moves it up or down among
 * those still waiting, or offers it the seat now (refused by the API while the seats are not free).
 */
export function EventWaitlist({ eventId, timezone }: { eventId: string; timezone: string }) {
  const { message } = App.useApp();
  const dates = useDateFormat();
  const query = useQuery(waitlistQueries.list(eventId));
  const action = useWaitlistAction(eventId);

  const run = async (row: WaitlistRow, what: WaitlistAction, done: string) => {
    try {
      await action.mutateAsync({ entryId: row.entry_id, action: what });
      message.success(done);
    } catch (error) {
      console.error('Changing the waitlist failed', error);
      message.error(serverMessage(error, WAITLIST_TEXTS.failed));
    }
  };

  return (
    <QueryGuard query={query} title={WAITLIST_TEXTS.loadFailed} keepDataOnError>
      {({ entries }) => {
        const line = entries.filter(isActive);
        const columns: TableProps<WaitlistRow>['columns'] = [
          { key: 'place', title: '#', render: (_, row) => (isActive(row) ? line.indexOf(row) + 1 : '') },
          { key: 'name', title: 'Name', dataIndex: 'name' },
          { key: 'email', title: 'Email', dataIndex: 'email' },
          { key: 'party', title: 'Party size', dataIndex: 'party_size' },
          { key: 'joined', title: 'Joined', render: (_, row) => dates.dateTime(row.joined_at, timezone) },
          {
            key: 'status',
            title: 'Status',
            render: (_, row) => (
              <Tag color={STATUS_COLORS[row.status]}>
                {row.status === 'offered' && row.offered_until
                  ? `${WAITLIST_STATUS_LABELS.offered} ${dates.dateTime(row.offered_until, timezone)}`
                  : WAITLIST_STATUS_LABELS[row.status]}
              </Tag>
            ),
          },
          {
            key: 'actions',
            title: '',
            render: (_, row) => {
              if (!isActive(row)) return null;
              const at = line.indexOf(row);
              const busy = action.isPending;
              return (
                <Flex gap={4} wrap>
                  <Button
                    size="small"
                    aria-label={`Move ${row.name} up`}
                    disabled={busy || at === 0}
                    onClick={() => void run(row, { kind: 'move', direction: 'up' }, M.moved)}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    aria-label={`Move ${row.name} down`}
                    disabled={busy || at === line.length - 1}
                    onClick={() => void run(row, { kind: 'move', direction: 'down' }, M.moved)}
                  >
                    ↓
                  </Button>
                  {row.status === 'waiting' ? (
                    <Button
                      size="small"
                      aria-label={`Offer the seat to ${row.name}`}
                      disabled={busy}
                      onClick={() => void run(row, { kind: 'offer' }, M.offered)}
                    >
                      Offer the seat
                    </Button>
                  ) : null}
                  <Tooltip title="Remove from the waitlist">
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Remove ${row.name} from the waitlist`}
                      disabled={busy}
                      onClick={() => void run(row, { kind: 'remove' }, M.removed)}
                    />
                  </Tooltip>
                </Flex>
              );
            },
          },
        ];
        return entries.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={WAITLIST_TEXTS.empty} />
        ) : (
          <Table<WaitlistRow>
            aria-label="Waitlist"
            size="small"
            rowKey="entry_id"
            pagination={false}
            columns={columns}
            dataSource={entries}
            scroll={{ x: true }}
          />
        );
      }}
    </QueryGuard>
  );
}
