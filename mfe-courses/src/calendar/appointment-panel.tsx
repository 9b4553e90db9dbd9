import { formatCents } from '@studio/contracts';
import {
  Button,
  Descriptions,
  Drawer,
  Flex,
  QueryGuard,
  Skeleton,
  useDateFormat,
  useDrawer,
  useQuery,
} from '@studio/ui';
import { appointmentQueries, type AppointmentOut } from '../api/appointments';
import { AppointmentStatusTag, studentName } from '../pages/booking-appointments';

export type PanelDialog =
  { kind: 'move'; appointment: AppointmentOut } | { kind: 'cancel'; appointment: AppointmentOut };

interface AppointmentPanelProps {
  id: string;
  onClose: () => void;
  onMove: (appointment: AppointmentOut) => void;
  onCancel: (appointment: AppointmentOut) => void;
  canMove: boolean;
  canCancel: boolean;
}

/**
 * The calendar's appointment panel (issue 22): when and where, the student, guests, status and the
 * order, with Move (another free time of the course) and Cancel (Remove student's refund flow).
 */
export function AppointmentPanel({
  id,
  onClose,
  onMove,
  onCancel,
  canMove,
  canCancel,
}: AppointmentPanelProps) {
  const dates = useDateFormat();
  const drawer = useDrawer();
  const query = useQuery(appointmentQueries.detail(id));

  return (
    <Drawer open title="Appointment" onClose={onClose} destroyOnHidden>
      <QueryGuard
        query={query}
        title="Could not load the appointment"
        loading={<Skeleton active paragraph={{ rows: 5 }} />}
        keepDataOnError
      >
        {(a) => (
          <Flex vertical gap={16}>
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'course', label: 'Course', children: a.course_name },
                {
                  key: 'time',
                  label: 'Time',
                  children: `${dates.dateTime(a.starts_at, a.time_zone)} – ${dates.time(a.ends_at, a.time_zone)}`,
                },
                {
                  key: 'student',
                  label: 'Student',
                  children: (
                    <Button
                      type="link"
                      style={{ padding: 0, height: 'auto' }}
                      onClick={() => drawer.open('student', { student_id: a.student.id })}
                    >
                      {studentName(a)} ({a.student.email})
                    </Button>
                  ),
                },
                { key: 'guests', label: 'Guests', children: a.guest_count },
                { key: 'status', label: 'Status', children: <AppointmentStatusTag status={a.status} /> },
                { key: 'instructor', label: 'Instructor', children: a.instructor_name },
                {
                  key: 'location',
                  label: 'Location',
                  children: a.meeting_url ? (
                    <a href={a.meeting_url} target="_blank" rel="noreferrer noopener">
                      {a.location_name} (join the meeting)
                    </a>
                  ) : (
                    a.location_name
                  ),
                },
                {
                  key: 'order',
                  label: 'Order',
                  children: a.order ? (
                    <Button
                      type="link"
                      style={{ padding: 0, height: 'auto' }}
                      onClick={() => drawer.open('order', { order_id: a.order!.id })}
                    >
                      #{a.order.order_number} · {a.order.status} · {formatCents(a.order.total)}
                      {a.paid_with ? ` · ${a.paid_with}` : ''}
                    </Button>
                  ) : (
                    'None'
                  ),
                },
              ]}
            />
            {a.status === 'cancelled' ? null : (
              <Flex gap={8}>
                <Button onClick={() => onMove(a)} disabled={!canMove}>
                  Move
                </Button>
                <Button danger onClick={() => onCancel(a)} disabled={!canCancel}>
                  Cancel appointment
                </Button>
              </Flex>
            )}
          </Flex>
        )}
      </QueryGuard>
    </Drawer>
  );
}
