import { ATTENDANCE_LABELS } from '@studio/contracts';
import { Empty, Flex, Tag, Typography, useDateFormat, type StudentDetail } from '@studio/ui';

type Session = StudentDetail['sessions'][number];

const ATTENDANCE_COLORS: Record<Session['attendance'], string> = {
  checked_in: 'green',
  not_checked_in: 'default',
  no_show: 'red',
};

/**
 * The Sessions section of the student drawer (issue 23): each session the student is enrolled in,
 * newest first, its start in the session's location's zone, and its attendance (Checked in, or
 * after the session No-show; attendanceOf on the server).
 */
export function StudentSessions({ sessions }: { sessions: Session[] }) {
  const dates = useDateFormat();
  if (sessions.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No sessions" />;
  return (
    <ul aria-label="Sessions" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {sessions.map((s) => (
        <li key={s.enrollment_id} style={{ borderBottom: '1px solid rgba(5, 5, 5, 0.06)', padding: '8px 4px' }}>
          <Flex gap={12} align="center" justify="space-between">
            <Flex vertical style={{ minWidth: 0 }}>
              <Typography.Text strong ellipsis>
                {s.name}
              </Typography.Text>
              <Typography.Text type="secondary">{dates.dateTime(s.starts_at, s.timezone)}</Typography.Text>
            </Flex>
            <Tag color={ATTENDANCE_COLORS[s.attendance]}>{ATTENDANCE_LABELS[s.attendance]}</Tag>
          </Flex>
        </li>
      ))}
    </ul>
  );
}
