import { Card, Descriptions, Typography, type CourseDetail } from '@studio/ui';

/** "1 h 30 min", "45 min", "1 hour", "2 days": a span of minutes as the admin reads it. */
export function spanLabel(mins: number): string {
  if (mins === 0) return 'None';
  if (mins % (24 * 60) === 0) {
    const days = mins / (24 * 60);
    return days % 7 === 0
      ? `${days / 7} ${days === 7 ? 'week' : 'weeks'}`
      : `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  if (!h) return `${m} min`;
  if (!m) return `${h} ${h === 1 ? 'hour' : 'hours'}`;
  return `${h} h ${m} min`;
}

type AppointmentSettings = Pick<
  CourseDetail,
  | 'duration_mins'
  | 'start_time_increments_mins'
  | 'buffer_before_mins'
  | 'buffer_after_mins'
  | 'min_notice_mins'
>;

/**
 * How an appointment course is booked (spec 000 §2, §9): the student picks a time, from the course's
 * scheduling settings. It has no dated sessions; booking itself comes with the booking issue.
 */
export function AppointmentBooking({ course }: { course: AppointmentSettings }) {
  return (
    <Card title="Booking" role="region" aria-label="Booking">
      <Typography.Paragraph>
        Students book this course by picking a time that suits them. It has no dated sessions to schedule.
      </Typography.Paragraph>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'duration', label: 'Duration', children: spanLabel(course.duration_mins) },
          {
            key: 'increments',
            label: 'Start times',
            children: `Every ${spanLabel(course.start_time_increments_mins)}`,
          },
          { key: 'before', label: 'Buffer before', children: spanLabel(course.buffer_before_mins) },
          { key: 'after', label: 'Buffer after', children: spanLabel(course.buffer_after_mins) },
          { key: 'notice', label: 'Minimum notice', children: spanLabel(course.min_notice_mins) },
        ]}
      />
    </Card>
  );
}
