import { formatCents, formatInZone } from '@studio/contracts';
import {
  App,
  Button,
  Dropdown,
  Flex,
  MoreOutlined,
  Tag,
  Typography,
  useDrawer,
  type StudentOrderRow,
  type WaiverSubmission,
} from '@studio/ui';
import { sendWaiverReminder } from './student.api';
import { STUDENT_MESSAGES } from './student-messages';

/** Order row: number, date, optional sub-description, image, total; opens the order drawer. */
export function OrderRow({ order, timezone }: { order: StudentOrderRow; timezone: string }) {
  const drawer = useDrawer();
  return (
    <button
      type="button"
      className="student-order-row"
      onClick={() => drawer.open('order', { order_id: order.order_id })}
      style={{ all: 'unset', cursor: 'pointer', display: 'block', width: '100%', padding: '8px 0' }}
    >
      <Flex gap={12} align="center">
        {order.image ? (
          <img
            src={order.image}
            alt=""
            width={40}
            height={40}
            style={{ objectFit: 'cover', borderRadius: 4 }}
          />
        ) : null}
        <Flex vertical style={{ flex: 1 }}>
          <Typography.Text strong>{`Order #${order.order_number}`}</Typography.Text>
          <Typography.Text type="secondary">
            {formatInZone(order.created_at, 'MMM d, h:mm a', timezone)}
          </Typography.Text>
          {order.subDescription ? (
            <Typography.Text type="secondary">{order.subDescription}</Typography.Text>
          ) : null}
        </Flex>
        <Typography.Text>{formatCents(order.total)}</Typography.Text>
      </Flex>
    </button>
  );
}

/** Waiver row: template name, signed or sent date, status badge, and a menu of actions. */
export function WaiverRow({ waiver, timezone }: { waiver: WaiverSubmission; timezone: string }) {
  const { message } = App.useApp();
  const completed = waiver.status === 'completed';
  const url = waiver.submission_url || waiver.sign_url || undefined;
  const date = formatInZone(
    completed && waiver.completed_at ? waiver.completed_at : waiver.created_at,
    'MMM d, yyyy',
    timezone,
  );

  const remind = async () => {
    try {
      await sendWaiverReminder(waiver.submission_id);
      message.success(STUDENT_MESSAGES.reminderSent);
    } catch (error) {
      console.error('Reminder failed', error);
    }
  };

  return (
    <Flex gap={12} align="center" style={{ padding: '8px 0' }}>
      <Flex vertical style={{ flex: 1 }}>
        <a href={url} target="_blank" rel="noreferrer">
          {waiver.DocusealTemplate?.name ?? 'Waiver'}
        </a>
        <Typography.Text type="secondary">
          {completed ? `Signed on ${date}` : `Sent on ${date}`}
        </Typography.Text>
      </Flex>
      <Tag color={completed ? 'green' : 'gold'}>{completed ? 'Completed' : 'Pending'}</Tag>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'remind', label: 'Send reminder' },
            { key: 'view', label: completed ? 'View signed waiver' : 'View submission url' },
          ],
          onClick: ({ key }) => {
            if (key === 'remind') void remind();
            else if (url) window.open(url, '_blank', 'noopener');
          },
        }}
      >
        <Button type="text" aria-label="Waiver actions" icon={<MoreOutlined />} />
      </Dropdown>
    </Flex>
  );
}
