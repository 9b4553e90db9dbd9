import type { ReactNode } from 'react';
import { formatDuration } from '@studio/contracts';
import { Card, Descriptions, Typography, type CourseDetail } from '@studio/ui';

/** A span of minutes as the product writes durations everywhere; a zero buffer or notice reads "None". */
function spanLabel(mins: number): string {
  return mins === 0 ? 'None' : formatDuration(mins);
}

type AppointmentSettings = Pick<
  CourseDetail,
  | 'duration_mins'
  | 'start_time_increments_mins'
  | 'buffer_before_mins'
  | 'buffer_after_mins'
  | 'min_notice_mins'
  | 'booking_window_days'
>;

/**
 * How an appointment course is booked (spec 000 §2, §9): the student picks a time, from the course's
 * scheduling settings. It has no dated sessions; its appointments are listed under the settings.
 */
export function AppointmentBooking({
  course,
  extra,
  children,
}: {
  course: AppointmentSettings;
  /** The card's actions (Add student). */
  extra?: ReactNode;
  /** Under the settings: the course's upcoming appointments. */
  children?: ReactNode;
}) {
  return (
    <Card title="Booking" role="region" aria-label="Booking" extra={extra}>
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
          {
            key: 'window',
            label: 'How far ahead a student may book',
            children: `${course.booking_window_days} ${course.booking_window_days === 1 ? 'day' : 'days'}`,
          },
        ]}
      />
      {children}
    </Card>
  );
}
