import { useState } from 'react';
import {
  Button,
  Card,
  Flex,
  LoadingSkeleton,
  QueryGuard,
  type CourseDetail as CourseDetailData,
  Result,
  Typography,
  courseQueries,
  isApiError,
  useDrawer,
  useOrganizationTimezone,
  useQuery,
  type CourseSession,
  useParams,
  usePublicHost,
} from '@studio/ui';
import { BookingAppointments } from './booking-appointments';
import { coursePrice } from './course-price';
import { ListedBadge } from './listed-badge';
import { SessionList } from './session-list';

/** /admin/courses/{activity_id}: the course, its sessions and the Share, Edit, Schedule and Preview actions. */
export function CourseDetailPage() {
  const { activityId = '' } = useParams();
  const drawer = useDrawer();
  const storeUrl = usePublicHost();
  const orgZone = useOrganizationTimezone();
  const [includePast, setIncludePast] = useState(false);
  const courseQuery = useQuery(courseQueries.detail(activityId));
  const sessionsQuery = useQuery(courseQueries.sessions(activityId, includePast, true));

  return (
    <QueryGuard query={courseQuery} title="Could not load this course" renderError={notFound}>
      {renderCourse}
    </QueryGuard>
  );

  /** The loaded course: its header, actions and sessions. */
  function renderCourse(course: CourseDetailData) {
    const zone = course.Location?.timezone?.timeZoneId || orgZone;
    // Appointment courses are booked by students at a time they pick: no dated sessions to schedule.
    const appointment = course.activity_type === 'appointment';
    const openSession = (session: CourseSession) =>
      drawer.open('event', {
        eventId: session.event_id,
        event_id: session.event_id,
        activity_id: course.activity_id,
      });

    return (
      <section aria-label={course.name}>
        {/* On a phone the actions wrap under the title instead of squeezing it to one letter a line. */}
        <Flex justify="space-between" align="start" gap={16} wrap style={{ marginBottom: 16 }}>
          <Flex gap={16} align="center" style={{ flex: '1 1 280px', minWidth: 0 }}>
            {course.images[0] ? (
              <img
                src={course.images[0]}
                alt=""
                style={{ width: 96, height: 72, objectFit: 'cover', borderRadius: 6 }}
              />
            ) : null}
            <Flex vertical style={{ minWidth: 0 }}>
              <Flex gap={8} align="center" wrap>
                <Typography.Title
                  level={2}
                  style={{ margin: 0, minWidth: 0, wordBreak: 'normal', overflowWrap: 'break-word' }}
                >
                  {course.name}
                </Typography.Title>
                <ListedBadge listed={course.listed} />
              </Flex>
              <Typography.Text type="secondary">
                {course.activity_type === 'appointment' ? 'Appointment' : 'Scheduled'} ·{' '}
                {coursePrice(course.price_type, course.prices[0]?.unit_price)} · {course.Location.address}
              </Typography.Text>
            </Flex>
          </Flex>
          <Flex gap={8} wrap>
            <Button onClick={() => drawer.open('share', { mode: 'course', activity_id: course.activity_id })}>
              Share
            </Button>
            <Button onClick={() => drawer.open('edit_course', { activity_id: course.activity_id })}>
              Edit
            </Button>
            {appointment ? null : (
              <Button
                type="primary"
                onClick={() => drawer.open('schedule_course', { activity_id: course.activity_id })}
              >
                Schedule
              </Button>
            )}
            {/* The course page in the organization's store (its own site, or PUBLIC_APP_URL/s/{slug}). */}
            <Button href={`${storeUrl}/activity/${course.activity_id}`} target="_blank" rel="noopener">
              Preview
            </Button>
          </Flex>
        </Flex>
        {appointment ? (
          <BookingAppointments course={course} />
        ) : (
          <Card
            title="Sessions"
            extra={
              <Button type="link" onClick={() => setIncludePast((on) => !on)}>
                {includePast ? 'Hide previous' : 'Show previous'}
              </Button>
            }
          >
            <QueryGuard
              query={sessionsQuery}
              title="Could not load the sessions"
              loading={<LoadingSkeleton rows={3} />}
            >
              {({ sessions }) => <SessionList sessions={sessions} fallbackZone={zone} onOpen={openSession} />}
            </QueryGuard>
          </Card>
        )}
      </section>
    );
  }
}

const notFound = (error: unknown) =>
  isApiError(error) && error.status === 404 ? <Result status="404" title="Course not found" /> : undefined;
