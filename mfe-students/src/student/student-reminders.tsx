import { reminderOffsetLabel } from '@studio/contracts';
import { $api, Empty, Flex, QueryGuard, Tag, Typography, useDateFormat, useQuery } from '@studio/ui';

const OUTCOME: Record<'sent' | 'skipped' | 'failed', { label: string; color: string }> = {
  sent: { label: 'Sent', color: 'green' },
  skipped: { label: 'Skipped', color: 'default' },
  failed: { label: 'Failed', color: 'red' },
};

/**
 * The Reminders section of the student drawer (issue 23): each reminder mail of the student's
 * bookings, newest first, from the reminder log: which class and start, how long before, when it
 * ran, to whom, and the outcome (Sent; Skipped, with why; Failed, with the error). Read when the
 * section is opened.
 */
export function StudentReminders({ studentId }: { studentId: string }) {
  const dates = useDateFormat();
  const query = useQuery(
    $api.queryOptions('get', '/api/admin/student/{student_id}/reminders', { params: { path: { student_id: studentId } } }),
  );
  return (
    <QueryGuard query={query} title="Could not load the reminders">
      {({ reminders }) =>
        reminders.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No reminders sent yet" />
        ) : (
          <ul aria-label="Reminders" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {reminders.map((r) => {
              const zone = r.time_zone ?? undefined;
              const outcome = OUTCOME[r.outcome];
              return (
                <li key={r.id} style={{ borderBottom: '1px solid rgba(5, 5, 5, 0.06)', padding: '8px 4px' }}>
                  <Flex gap={12} align="center" justify="space-between">
                    <Flex vertical style={{ minWidth: 0 }}>
                      <Typography.Text strong ellipsis>
                        {r.course_name ?? (r.booking_kind === 'appointment' ? 'Appointment' : 'Session')},{' '}
                        {dates.dateTime(r.starts_at, zone)}
                      </Typography.Text>
                      <Typography.Text type="secondary">
                        {reminderOffsetLabel(r.offset_mins)} before · {r.to ? `to ${r.to} · ` : ''}
                        {dates.dateTime(r.sent_at, zone)}
                      </Typography.Text>
                      {r.detail ? <Typography.Text type="secondary">{r.detail}</Typography.Text> : null}
                    </Flex>
                    <Tag color={outcome.color}>{outcome.label}</Tag>
                  </Flex>
                </li>
              );
            })}
          </ul>
        )
      }
    </QueryGuard>
  );
}
