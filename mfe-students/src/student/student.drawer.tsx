import { useCallback, useEffect, useState } from 'react';
import { formatInZone } from '@studio/contracts';
import {
  App,
  Button,
  Collapse,
  Descriptions,
  DrawerShell,
  Dropdown,
  Empty,
  Flex,
  LoadingSkeleton,
  MoreOutlined,
  Result,
  Tag,
  useOrganizationTimezone,
  useSkeletonDelay,
  type DrawerProps,
  type StudentDetail,
} from '@studio/ui';
import { fetchStudent } from './student.api';
import { LoyaltyDialog } from './loyalty-dialog';
import { StudentName } from './student-name';
import { OrderRow, WaiverRow } from './student-rows';
import { formatPoints, STUDENT_MESSAGES } from './student-messages';

export interface StudentDrawerData {
  student_id: string;
}

type Load = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; student: StudentDetail };

/** Student drawer (spec 001 §2): identity, loyalty points, waivers and orders of one student. */
export function StudentDrawer({ data }: DrawerProps<StudentDrawerData>) {
  const { message } = App.useApp();
  const organizationZone = useOrganizationTimezone();
  const waiting = useSkeletonDelay();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [editingPoints, setEditingPoints] = useState(false);

  const reload = useCallback(() => {
    setLoad({ status: 'loading' });
    fetchStudent(data.student_id)
      .then((student) => setLoad({ status: 'ready', student }))
      .catch((error: unknown) => {
        console.error('Could not load the student', error);
        setLoad({ status: 'failed' });
      });
  }, [data.student_id]);

  useEffect(reload, [reload]);

  if (load.status === 'loading' || waiting) return <LoadingSkeleton />;
  if (load.status === 'failed') {
    return (
      <Result
        status="error"
        title="Could not load this student"
        extra={
          <Button type="primary" onClick={reload}>
            Retry
          </Button>
        }
      />
    );
  }

  const { student } = load;
  const timezone = student.Organization?.timezone || organizationZone;
  const points = student.LoyaltyBalance?.[0]?.balance ?? 0;
  const loyaltyActive = student.Organization?.LoyaltyProgram?.[0]?.status === 'active';
  const phone = student.User?.phone;
  const orders = student.new_orders ?? [];
  const waivers = student.Submission ?? [];

  const editPoints = () => {
    if (!loyaltyActive) {
      message.error(STUDENT_MESSAGES.loyaltyInactive);
      return;
    }
    setEditingPoints(true);
  };

  return (
    <DrawerShell
      title={
        <StudentName
          studentId={student.student_id}
          firstName={student.first_name}
          lastName={student.last_name}
          onSaved={(first_name, last_name) =>
            setLoad({ status: 'ready', student: { ...student, first_name, last_name } })
          }
        />
      }
      extra={
        <Flex gap={8} align="center">
          <Tag color={student.user_id ? 'green' : 'default'}>
            {student.user_id ? 'Signed up' : 'Not signed up'}
          </Tag>
          <Dropdown
            trigger={['click']}
            menu={{ items: [{ key: 'points', label: 'Edit points' }], onClick: editPoints }}
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
            children: formatInZone(student.created_at, 'dd MMM, yyyy', timezone),
          },
          { key: 'points', label: 'Loyalty points', children: formatPoints(points) },
        ]}
      />
      <Collapse
        style={{ marginTop: 16 }}
        defaultActiveKey={['orders']}
        items={[
          {
            key: 'waivers',
            label: 'Waivers',
            children: waivers.length ? (
              waivers.map((waiver) => (
                <WaiverRow key={waiver.submission_id} waiver={waiver} timezone={timezone} />
              ))
            ) : (
              <Empty description="No waivers" />
            ),
          },
          {
            key: 'orders',
            label: 'Orders',
            children: orders.length ? (
              orders.map((order) => <OrderRow key={order.order_id} order={order} timezone={timezone} />)
            ) : (
              <Empty description="No orders" />
            ),
          },
        ]}
      />
      {editingPoints ? (
        <LoyaltyDialog
          studentId={student.student_id}
          current={points}
          onClose={() => setEditingPoints(false)}
          onSaved={() => {
            setEditingPoints(false);
            reload();
          }}
        />
      ) : null}
    </DrawerShell>
  );
}
