import { Card, Empty, Flex, Typography, useDateFormat, type CourseSession } from '@studio/ui';
import { SessionBadge } from './session-badge';

interface SessionListProps {
  sessions: CourseSession[];
  /** The course location's zone, for sessions that do not carry their own. */
  fallbackZone: string;
  onOpen: (session: CourseSession) => void;
}

/** Sessions of a course, each in its location's time zone; a click opens the event drawer. */
export function SessionList({ sessions, fallbackZone, onOpen }: SessionListProps) {
  const dates = useDateFormat();
  if (sessions.length === 0) return <Empty description="No sessions" />;
  return (
    <Flex vertical gap={8} role="list" aria-label="Sessions">
      {sessions.map((session) => {
        const zone = session.Location?.timezone?.timeZoneId || fallbackZone;
        return (
          <Card
            key={session.event_id}
            size="small"
            hoverable
            role="listitem"
            onClick={() => onOpen(session)}
            style={{ cursor: 'pointer' }}
          >
            <Flex justify="space-between" align="center" gap={12}>
              <Flex vertical>
                <Typography.Text strong>{dates.dateTime(session.start, zone)}</Typography.Text>
                <Typography.Text type="secondary">
                  {session.internal_short_description || session.name}
                </Typography.Text>
              </Flex>
              <Flex gap={12} align="center">
                <Typography.Text>
                  {session.enrolled} / {session.capacity}
                </Typography.Text>
                <SessionBadge badge={session.badge} />
              </Flex>
            </Flex>
          </Card>
        );
      })}
    </Flex>
  );
}
