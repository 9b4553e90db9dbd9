import { TestApp } from '../test-app';
import { courseRefs, validCourse } from './catalog-fixtures';

/** A course with a location in the given zone, ready to schedule, created through the API. */
export async function schedulableCourse(t: TestApp, token: string, capacity = 8, overrides: Record<string, unknown> = {}) {
  const refs = await courseRefs(t, token);
  const course = await t.http
    .post('/api/admin/activities')
    .set('token', token)
    .send({ ...validCourse(refs), capacity: Math.max(2, capacity), ...overrides })
    .expect(201);
  return { ...refs, activity_id: course.body.activity_id as string };
}

let counter = 0;
export async function addStudent(t: TestApp, token: string, overrides: Partial<{ first_name: string; last_name: string; email: string; phone: string }> = {}) {
  counter += 1;
  const res = await t.http
    .post('/api/admin/student')
    .set('token', token)
    .send({ first_name: `Student${counter}`, last_name: `Test${counter}`, email: `student${counter}.${Date.now()}@example.test`, ...overrides })
    .expect(201);
  return res.body.student_id as string;
}

/** A session `daysFromNow` days ahead at 18:00 in the location's zone. */
export async function scheduleSession(
  t: TestApp,
  token: string,
  course: { activity_id: string; location_id: string; instructor_id: string },
  options: { capacity?: number; daysFromNow?: number; price?: number } = {},
) {
  const date = new Date(Date.now() + (options.daysFromNow ?? 7) * 86400000).toISOString().slice(0, 10);
  const res = await t.http
    .post('/api/admin/events')
    .set('token', token)
    .send({
      activity_id: course.activity_id,
      location_id: course.location_id,
      instructor_id: course.instructor_id,
      dates: [{ date, time: '18:00', duration: 120 }],
      ...(options.capacity !== undefined && { capacity: options.capacity }),
      ...(options.price !== undefined && { price: options.price }),
    })
    .expect(201);
  return res.body.event_id as string;
}
