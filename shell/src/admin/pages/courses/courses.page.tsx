import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatInZone } from '@studio/contracts';
import {
  Button,
  Empty,
  LoadingSkeleton,
  Table,
  Typography,
  useDrawer,
  useOrganizationTimezone,
  type CourseSummary,
} from '@studio/ui';
import { PageFrame } from '../page-frame';
import { fetchCourses } from './catalog.api';
import { coursePrice } from './course-price';
import { ListedBadge } from './listed-badge';

const TYPE_LABELS = { scheduled: 'Scheduled', appointment: 'Appointment' } as const;

/** /admin/courses: the organization's courses, and the New Course drawer. */
export function CoursesPage() {
  const drawer = useDrawer();
  const timezone = useOrganizationTimezone();
  const [courses, setCourses] = useState<CourseSummary[] | null>(null);

  const reload = useCallback(() => {
    void fetchCourses().then(setCourses);
  }, []);
  useEffect(reload, [reload]);

  return (
    <PageFrame
      title="Courses"
      actions={
        <>
          <Button onClick={() => drawer.open('share', { mode: 'course' })}>Share course</Button>
          <Button type="primary" onClick={() => drawer.open('course_builder', { onClose: reload })}>
            New course
          </Button>
        </>
      }
    >
      {courses === null ? (
        <LoadingSkeleton />
      ) : courses.length === 0 ? (
        <Empty description="No courses yet" />
      ) : (
        <Table<CourseSummary>
          rowKey="activity_id"
          dataSource={courses}
          pagination={false}
          columns={[
            {
              key: 'image',
              title: '',
              width: 72,
              render: (_, c) =>
                c.image ? (
                  <img
                    src={c.image}
                    alt=""
                    style={{ width: 56, height: 42, objectFit: 'cover', borderRadius: 4 }}
                  />
                ) : null,
            },
            {
              key: 'name',
              title: 'Name',
              render: (_, c) => <Link to={`/admin/courses/${c.activity_id}`}>{c.name}</Link>,
            },
            { key: 'type', title: 'Type', render: (_, c) => TYPE_LABELS[c.activity_type] },
            { key: 'listed', title: 'Status', render: (_, c) => <ListedBadge listed={c.listed} /> },
            {
              key: 'next',
              title: 'Next session',
              render: (_, c) =>
                c.next_session_at ? (
                  formatInZone(c.next_session_at, 'MMM d, h:mm a', timezone)
                ) : (
                  <Typography.Text type="secondary">None</Typography.Text>
                ),
            },
            { key: 'price', title: 'Price', render: (_, c) => coursePrice(c.price_type, c.unit_price) },
          ]}
        />
      )}
    </PageFrame>
  );
}
