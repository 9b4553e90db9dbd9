import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import {
  Button,
  Card,
  Flex,
  LoadingSkeleton,
  Result,
  Typography,
  useDrawer,
  useOrganizationTimezone,
  type CourseDetail,
  type CourseSession,
} from '@studio/ui';
import { fetchCourse, fetchSessions } from './catalog.api';
import { coursePrice } from './course-price';
import { ListedBadge } from './listed-badge';
import { SessionList } from './session-list';

/** /admin/courses/{activity_id}: the course, its sessions and the Share, Edit, Schedule and Preview actions. */
export function CourseDetailPage() {
  const { activityId = '' } = useParams();
  const drawer = useDrawer();
  const orgZone = useOrganizationTimezone();
  const [course, setCourse] = useState<CourseDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [includePast, setIncludePast] = useState(false);
  const [sessions, setSessions] = useState<CourseSession[] | null>(null);

  const loadCourse = useCallback(() => {
    fetchCourse(activityId)
      .then(setCourse)
      .catch((error: unknown) => {
        console.error('Could not load the course', error);
        setFailed(true);
      });
  }, [activityId]);
  const loadSessions = useCallback(() => {
    void fetchSessions(activityId, includePast).then(setSessions);
  }, [activityId, includePast]);
  const reload = useCallback(() => {
    loadCourse();
    loadSessions();
  }, [loadCourse, loadSessions]);

  useEffect(loadCourse, [loadCourse]);
  useEffect(loadSessions, [loadSessions]);

  if (failed) return <Result status="404" title="Course not found" />;
  if (!course) return <LoadingSkeleton />;

  const zone = course.Location?.timezone?.timeZoneId || orgZone;
  const openSession = (session: CourseSession) =>
    drawer.open('event', {
      eventId: session.event_id,
      event_id: session.event_id,
      activity_id: course.activity_id,
      onClose: reload,
    });

  return (
    <section aria-label={course.name}>
      <Flex justify="space-between" align="start" gap={16} style={{ marginBottom: 16 }}>
        <Flex gap={16} align="center">
          {course.images[0] ? (
            <img
              src={course.images[0]}
              alt=""
              style={{ width: 96, height: 72, objectFit: 'cover', borderRadius: 6 }}
            />
          ) : null}
          <Flex vertical>
            <Flex gap={8} align="center">
              <Typography.Title level={2} style={{ margin: 0 }}>
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
          <Button
            onClick={() => drawer.open('edit_course', { activity_id: course.activity_id, onClose: reload })}
          >
            Edit
          </Button>
          <Button
            type="primary"
            onClick={() =>
              drawer.open('schedule_course', { activity_id: course.activity_id, onClose: reload })
            }
          >
            Schedule
          </Button>
          <Button href={`/activity/${course.activity_id}`} target="_blank" rel="noopener">
            Preview
          </Button>
        </Flex>
      </Flex>
      <Card
        title="Sessions"
        extra={
          <Button type="link" onClick={() => setIncludePast((on) => !on)}>
            {includePast ? 'Hide previous' : 'Show previous'}
          </Button>
        }
      >
        {sessions === null ? (
          <LoadingSkeleton rows={3} />
        ) : (
          <SessionList sessions={sessions} fallbackZone={zone} onOpen={openSession} />
        )}
      </Card>
    </section>
  );
}
