import { ORDER_ACTIVITY_LABELS, formatCents } from '@studio/contracts';
import { Table, useDateFormat } from '@studio/ui';
import type { OrderDetail } from '../api/orders';

type Activity = OrderDetail['activity'][number];

/** The money audit of the order (issue 9 "Audit"): what happened, how much, why, who and when, oldest first. */
export function OrderHistory({ order }: { order: OrderDetail }) {
  const dates = useDateFormat();
  if (order.activity.length === 0) return null;
  return (
    <Table<Activity>
      style={{ marginTop: 12 }}
      size="small"
      rowKey="activity_id"
      pagination={false}
      dataSource={order.activity}
      title={() => 'History'}
      columns={[
        { key: 'date', title: 'Date', render: (_, a) => dates.dateTime(a.created_at) },
        { key: 'action', title: 'Action', render: (_, a) => ORDER_ACTIVITY_LABELS[a.action] },
        {
          key: 'amount',
          title: 'Amount',
          align: 'right',
          render: (_, a) => (a.amount === null ? '' : formatCents(a.amount)),
        },
        { key: 'detail', title: 'Detail', render: (_, a) => a.detail },
        { key: 'by', title: 'By', render: (_, a) => a.actor ?? 'System' },
      ]}
    />
  );
}
