import { ATTENDANCE_LABELS, type Attendance } from '@studio/contracts';
import { Button, Space, Tag, useDateFormat } from '@studio/ui';

/**
 * One booking's attendance in a grid (issue 23), the same for a session's enrollments and an
 * appointment course's bookings: one click checks in, Undo takes it back; after the class one not
 * checked in shows No-show (attendanceOf, answered by the API) and can still be checked in late.
 * The check-in time shows on hover, in the booking's zone.
 */
export function AttendanceCell({
  attendance,
  checkedInAt,
  zone,
  name,
  busy,
  onChange,
}: {
  attendance: Attendance;
  checkedInAt: string | null;
  zone: string;
  /** The student, for the button's accessible name ("Check in Ada Lovelace"). */
  name: string;
  busy: boolean;
  onChange: (checkedIn: boolean) => void;
}) {
  const dates = useDateFormat();
  const checkedIn = attendance === 'checked_in';
  return (
    <Space size={4}>
      {attendance !== 'not_checked_in' && (
        <Tag color={checkedIn ? 'green' : 'red'}>{ATTENDANCE_LABELS[attendance]}</Tag>
      )}
      <Button
        type={checkedIn ? 'link' : 'default'}
        size="small"
        loading={busy}
        aria-label={`${checkedIn ? 'Undo check-in of' : 'Check in'} ${name}`}
        title={checkedIn && checkedInAt ? dates.dateTime(checkedInAt, zone) : undefined}
        onClick={() => onChange(!checkedIn)}
      >
        {checkedIn ? 'Undo' : 'Check in'}
      </Button>
    </Space>
  );
}
