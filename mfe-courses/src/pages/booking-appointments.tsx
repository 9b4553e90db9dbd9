import { AttendanceCell } from '../attendance/attendance-cell';
import { Suspense, useState } from 'react';
import { CancelBookingDialog } from '../event/cancel-booking-dialog';
import {
  APPOINTMENT_STATUS_LABELS,
  APPOINTMENT_UI_MESSAGES,
  ATTENDANCE_MESSAGES,
  STUDENT_DIALOGS,
  type AppointmentOut,
} from '@studio/contracts';
import {
  App,
  Button,
  Flex,
  LoadingSkeleton,
  QueryGuard,
  Table,
  Tag,
  Typography,
  useDateFormat,
  useDrawer,
  useQuery,
  useQueryClient,
  useRemoteEntry,
  serverMessage,
  type CourseDetail,
  type TableProps,
} from '@studio/ui';
import { appointmentQueries, refreshAppointments, useAppointmentCheckIn } from '../api/appointments';
import { AppointmentBooking } from './appointment-booking';

type Dialog =
  | { kind: 'add' }
  | { kind: 'move'; row: AppointmentOut }
  | { kind: 'remove'; row: AppointmentOut }
  | { kind: 'cancel-booking'; row: AppointmentOut };

export const studentName = (a: Pick<AppointmentOut, 'student'>) =>
  `${a.student.first_name} ${a.student.last_name}`.trim();

/** Held appointments are orange (the time is kept until the hold ends), booked ones green. */
export function AppointmentStatusTag({ status }: { status: string }) {
  return (
    <Tag color={status === 'booked' ? 'green' : status === 'held' ? 'orange' : 'default'}>
      {APPOINTMENT_STATUS_LABELS[status] ?? status}
    </Tag>
  );
}

/**
 * The Booking card of an appointment course (issue 22): its settings, Add student (a student and a
 * free time, then enroll or a payment link) and the upcoming appointments with Check in (issue 23),
 * Move and Remove student. The dialogs are mfe-students' (one owner), loaded through the shell.
 */
export function BookingAppointments({ course }: { course: CourseDetail }) {
  const dates = useDateFormat();
  const { message } = App.useApp();
  const drawer = useDrawer();
  const queryClient = useQueryClient();
  const appointments = useQuery(appointmentQueries.forCourse(course.activity_id));
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const AddStudent = useRemoteEntry('students', STUDENT_DIALOGS.addStudent);
  const MoveAppointment = useRemoteEntry('students', STUDENT_DIALOGS.moveAppointment);
  const RemoveStudent = useRemoteEntry('students', STUDENT_DIALOGS.removeStudent);
  const zone = course.Location.timezone.timeZoneId;

  const checkIn = useAppointmentCheckIn();
  /** The appointment whose check-in is being changed (its button spins; the others stay usable). */
  const [checking, setChecking] = useState<string | null>(null);
  const setCheckIn = async (a: AppointmentOut, checkedIn: boolean) => {
    setChecking(a.id);
    try {
      await checkIn.mutateAsync({ appointmentId: a.id, checkedIn });
      message.success(checkedIn ? ATTENDANCE_MESSAGES.checkedIn : ATTENDANCE_MESSAGES.checkInUndone);
    } catch (error) {
      message.error(serverMessage(error, ATTENDANCE_MESSAGES.checkInFailed));
    } finally {
      setChecking(null);
    }
  };

  /** After a dialog changed an appointment: it closes and every list of appointments reads again. */
  const changed = () => {
    setDialog(null);
    void refreshAppointments(queryClient);
  };

  const columns: TableProps<AppointmentOut>['columns'] = [
    {
      key: 'time',
      title: 'Time',
      render: (_, a) => dates.dateTime(a.starts_at, a.time_zone),
    },
    {
      key: 'student',
      title: 'Student',
      render: (_, a) => (
        <Button
          type="link"
          style={{ padding: 0 }}
          onClick={() => drawer.open('student', { student_id: a.student.id })}
        >
          {studentName(a)}
        </Button>
      ),
    },
    { key: 'guests', title: 'Guests', dataIndex: 'guest_count' },
    {
      key: 'status',
      title: 'Status',
      render: (_, a) => (
        <Flex vertical gap={2}>
          <span>
            <AppointmentStatusTag status={a.status} />
          </span>
          {a.status === 'held' && a.hold_expires_at ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              until {dates.dateTime(a.hold_expires_at, a.time_zone)}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      key: 'order',
      title: 'Order',
      render: (_, a) =>
        a.order ? (
          <Button
            type="link"
            style={{ padding: 0 }}
            onClick={() => drawer.open('order', { order_id: a.order!.id })}
          >
            #{a.order.order_number}
            {a.paid_with ? ` · ${a.paid_with}` : ''}
          </Button>
        ) : (
          <Typography.Text type="secondary">None</Typography.Text>
        ),
    },
    {
      // As the sessions' grid: one click checks in, Undo takes it back; after the appointment one
      // not checked in shows No-show (attendanceOf, answered by the API). Held ones have nobody yet.
      key: 'attendance',
      title: 'Attendance',
      render: (_, a) =>
        a.status === 'booked' ? (
          <AttendanceCell
            attendance={a.attendance}
            checkedInAt={a.checked_in_at}
            zone={a.time_zone}
            name={studentName(a)}
            busy={checking === a.id}
            onChange={(checkedIn) => void setCheckIn(a, checkedIn)}
          />
        ) : null,
    },
    {
      key: 'actions',
      title: 'Actions',
      render: (_, a) => (
        <Flex gap={4} wrap>
          <Button
            size="small"
            aria-label={`Move ${studentName(a)}`}
            disabled={!MoveAppointment}
            onClick={() => setDialog({ kind: 'move', row: a })}
          >
            Move
          </Button>
          <Button
            size="small"
            aria-label={`Cancel booking of ${studentName(a)}`}
            disabled={a.status === 'cancelled'}
            onClick={() => setDialog({ kind: 'cancel-booking', row: a })}
          >
            Cancel booking
          </Button>
          <Button
            size="small"
            danger
            aria-label={`Remove ${studentName(a)}`}
            disabled={!RemoveStudent}
            onClick={() => setDialog({ kind: 'remove', row: a })}
          >
            Remove student
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <AppointmentBooking
      course={course}
      extra={
        <Button type="primary" disabled={!AddStudent} onClick={() => setDialog({ kind: 'add' })}>
          Add student
        </Button>
      }
    >
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Upcoming appointments
      </Typography.Title>
      <QueryGuard
        query={appointments}
        title={APPOINTMENT_UI_MESSAGES.appointmentsLoadFailed}
        loading={<LoadingSkeleton rows={2} />}
        keepDataOnError
      >
        {({ appointments: rows }) => (
          <Table<AppointmentOut>
            aria-label="Upcoming appointments"
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: true }}
            columns={columns}
            dataSource={rows}
            locale={{ emptyText: 'No upcoming appointments' }}
          />
        )}
      </QueryGuard>
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && AddStudent ? (
          <AddStudent
            data={{
              appointment: {
                activity_id: course.activity_id,
                zone,
                window_days: course.booking_window_days,
              },
              onDone: changed,
            }}
            close={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === 'cancel-booking' ? (
          <CancelBookingDialog
            booking={{ kind: 'appointment', id: dialog.row.id }}
            eventId={null}
            studentName={studentName(dialog.row)}
            onClose={() => setDialog(null)}
            onDone={changed}
          />
        ) : null}
        {dialog?.kind === 'move' && MoveAppointment ? (
          <MoveAppointment
            data={{
              appointment: {
                id: dialog.row.id,
                activity_id: dialog.row.activity_id,
                starts_at: dialog.row.starts_at,
                time_zone: dialog.row.time_zone,
                student_name: studentName(dialog.row),
              },
              onDone: changed,
            }}
            close={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === 'remove' && RemoveStudent ? (
          <RemoveStudent
            data={{
              appointment: { id: dialog.row.id },
              student_name: studentName(dialog.row),
              onDone: changed,
            }}
            close={() => setDialog(null)}
          />
        ) : null}
      </Suspense>
    </AppointmentBooking>
  );
}
