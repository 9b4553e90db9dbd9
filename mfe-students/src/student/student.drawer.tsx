import { SPEC_DATE_PATTERNS, formatCents, formatInSpecPattern } from '@studio/contracts';
import {
  App,
  Avatar,
  Dropdown,
  MoreOutlined,
  Collapse,
  Descriptions,
  Button,
  DrawerShell,
  Empty,
  Flex,
  QueryGuard,
  Tag,
  Typography,
  useDrawer,
  useDateFormat,
  useOrganizationTimezone,
  useQuery,
  useSkeletonDelay,
  type DrawerProps,
  type StudentDetail,
} from '@studio/ui';
import { studentQueries } from '../api/students';
import { StudentName } from './student-name';
import { StudentWaivers } from './student-waivers';
import { StudentSessions } from './student-sessions';
import { StudentReminders } from './student-reminders';
import { StudentWallet } from './student-wallet';
import { LoyaltyDialog, LoyaltyPoints, currentPoints, loyaltyActive } from './loyalty-points';
import { LOYALTY_BALANCE_MESSAGES } from '@studio/contracts';
import { useState } from 'react';

export interface StudentDrawerData {
  student_id: string;
}

/**
 * Student drawer (spec 001 §2): what GET /api/admin/student/{id} answers (name, sign-up state,
 * email, phone, first seen, loyalty points, waivers closed by default, the sessions with their
 * attendance (issue 23), the newest orders).
 */
export function StudentDrawer({ data }: DrawerProps<StudentDrawerData>) {
  const timezone = useOrganizationTimezone();
  const waiting = useSkeletonDelay();
  const drawer = useDrawer();
  const { message } = App.useApp();
  const [editingPoints, setEditingPoints] = useState(false);
  const query = useQuery(studentQueries.detail(data.student_id));

  return (
    <QueryGuard query={query} title="Could not load this student" pending={waiting}>
      {renderStudent}
    </QueryGuard>
  );

  function renderStudent(student: NonNullable<typeof query.data>) {
    const { phone } = student;

    return (
      <DrawerShell
        title={
          <StudentName
            studentId={student.student_id}
            firstName={student.first_name}
            lastName={student.last_name}
          />
        }
        extra={
          <Flex gap={8} align="center">
            <Tag color={student.user_id ? 'green' : 'default'}>
              {student.user_id ? 'Signed up' : 'Not signed up'}
            </Tag>
            <Dropdown
              trigger={['click']}
              menu={{
                items: [{ key: 'points', label: 'Edit points' }],
                onClick: () => {
                  if (loyaltyActive(student)) setEditingPoints(true);
                  else message.error(LOYALTY_BALANCE_MESSAGES.notActive);
                },
              }}
            >
              <Button type="text" aria-label="Student actions" icon={<MoreOutlined />} />
            </Dropdown>
          </Flex>
        }
      >
        <Descriptions
          column={1}
          size="small"
          items={[
            { key: 'email', label: 'Email', children: student.email },
            ...(phone ? [{ key: 'phone', label: 'Phone', children: phone }] : []),
            {
              key: 'first-seen',
              label: 'First seen',
              children: formatInSpecPattern(student.created_at, SPEC_DATE_PATTERNS.firstSeen, timezone),
            },
            {
              key: 'points',
              label: 'Loyalty points',
              children: <LoyaltyPoints student={student} timezone={timezone} />,
            },
          ]}
        />
        <Collapse
          style={{ marginTop: 16 }}
          defaultActiveKey={['orders']}
          items={[
            {
              key: 'waivers',
              label: 'Waivers',
              children: <StudentWaivers submissions={student.Submission} timezone={timezone} />,
            },
            {
              key: 'sessions',
              label: 'Sessions',
              children: <StudentSessions sessions={student.sessions} />,
            },
            {
              key: 'wallet',
              label: 'Wallet',
              children: <StudentWallet studentId={student.student_id} />,
            },
            {
              key: 'reminders',
              label: 'Reminders',
              children: <StudentReminders studentId={student.student_id} />,
            },
            {
              key: 'orders',
              label: 'Orders',
              children: (
                <StudentOrderList
                  orders={student.new_orders}
                  timezone={timezone}
                  onOpen={(order_id) => drawer.open('order', { order_id })}
                />
              ),
            },
          ]}
        />
        {editingPoints && (
          <LoyaltyDialog
            studentId={student.student_id}
            initial={currentPoints(student)}
            onClose={() => setEditingPoints(false)}
            onSaved={() => setEditingPoints(false)}
          />
        )}
      </DrawerShell>
    );
  }
}

type StudentOrder = StudentDetail['new_orders'][number];

/** The Orders section: number, date (MMM D, h:mm A in the organization's zone), sub-description, image and total; a row opens the order drawer. */
function StudentOrderList({
  orders,
  timezone,
  onOpen,
}: {
  orders: StudentOrder[];
  timezone: string;
  onOpen: (orderId: string) => void;
}) {
  // The spec's pattern, with the zone named when it differs from the admin's (as every date is).
  const { viewerZones } = useDateFormat();
  if (orders.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No orders" />;
  return (
    <ul aria-label="Orders" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {orders.map((order) => (
        <li key={order.order_id} style={{ borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}>
          <Button
            type="text"
            block
            aria-label={`Order #${order.order_number}`}
            onClick={() => onOpen(order.order_id)}
            style={{ height: 'auto', padding: '8px 4px', textAlign: 'left' }}
          >
            <Flex gap={12} align="center" style={{ width: '100%' }}>
              {order.image ? (
                <Avatar shape="square" size={40} src={order.image} alt="" />
              ) : (
                <Avatar shape="square" size={40} />
              )}
              <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                <strong>#{order.order_number}</strong>
                <span>{formatInSpecPattern(order.created_at, SPEC_DATE_PATTERNS.orderRow, timezone, { viewerZones })}</span>
                <Typography.Text type="secondary" ellipsis>
                  {order.subDescription}
                </Typography.Text>
              </Flex>
              <strong>{formatCents(order.total)}</strong>
            </Flex>
          </Button>
        </li>
      ))}
    </ul>
  );
}
