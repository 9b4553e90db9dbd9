import { wallClockToUtc } from '@studio/contracts';
import { Activity } from '../src/modules/catalog/entities/activity.entity';
import { EventDay } from '../src/modules/scheduling/entities/event-day.entity';
import { Event } from '../src/modules/scheduling/entities/event.entity';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { startTestApp, TestApp } from './test-app';

const DAY = 24 * 3600 * 1000;

describe('course sessions list and badges', () => {
  let t: TestApp;
  let token: string;
  let courseId: string;

  /** Scheduling sessions through the API arrives with the scheduling issue; here they are inserted directly. */
  async function addEvent(startsAt: Date, hours: number, capacity = 8) {
    await t.withEm(async (em) => {
      const course = await em.findOneOrFail(Activity, { id: courseId }, { populate: ['location', 'instructor', 'organization'] });
      const endsAt = new Date(startsAt.getTime() + hours * 3600 * 1000);
      const event = em.create(Event, {
        organization: course.organization,
        activity: course,
        name: course.name,
        capacity,
        priceCents: course.priceCents,
        location: course.location,
        instructor: course.instructor,
        startsAt,
        endsAt,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      em.create(EventDay, {
        event,
        position: 0,
        startDate: startsAt.toISOString().slice(0, 10),
        startTime: startsAt.toISOString().slice(11, 16),
        durationMins: hours * 60,
        startsAt,
        endsAt,
      });
      await em.flush();
    });
  }

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.organizationWithUser()).token;
    const refs = await courseRefs(t, token);
    courseId = (await t.http.post('/api/admin/activities').set('token', token).send(validCourse(refs)).expect(201)).body.activity_id;
  });
  afterAll(() => t.close());

  it('shows upcoming sessions, and past ones only when asked, with their badges', async () => {
    await addEvent(new Date(Date.now() - 10 * DAY), 2);
    await addEvent(new Date(Date.now() + 3 * DAY), 3);
    await addEvent(wallClockToUtc('2030-03-10', '09:00', 'America/New_York')!, 2);

    const upcoming = await t.http.get(`/api/admin/activities/${courseId}/sessions?include_past=false&limit=10000`).set('token', token).expect(200);
    expect(upcoming.body.sessions).toHaveLength(2);
    expect(upcoming.body.sessions.map((s: { badge: string }) => s.badge)).toEqual(['Open', 'Open']);
    expect(upcoming.body.sessions[1]).toMatchObject({
      start: '2030-03-10T13:00:00.000Z',
      Location: { timezone: { timeZoneId: 'America/New_York' } },
      capacity: 8,
      enrolled: 0,
      price: 4500,
    });

    const all = await t.http.get(`/api/admin/activities/${courseId}/sessions?include_past=true&limit=10000`).set('token', token).expect(200);
    expect(all.body.sessions).toHaveLength(3);
    expect(all.body.sessions[0].badge).toBe('Finished');

    const limited = await t.http.get(`/api/admin/activities/${courseId}/sessions?include_past=true&limit=1`).set('token', token).expect(200);
    expect(limited.body.sessions).toHaveLength(1);

    const bad = await t.http.get(`/api/admin/activities/${courseId}/sessions?include_past=maybe`).set('token', token);
    expect(bad.status).toBe(400);
  });

  it('a scheduled course is Listed once it has a future session; the edit badge counts any session', async () => {
    const course = await t.http.get(`/api/admin/activities/${courseId}`).set('token', token).expect(200);
    expect(course.body.listed).toBe(true);
    expect(course.body.has_events).toBe(true);
    expect(course.body.Event).toHaveLength(3);
    const list = await t.http.get('/api/admin/activities').set('token', token).expect(200);
    expect(list.body.activities[0]).toMatchObject({ listed: true, session_count: 3 });
    expect(new Date(list.body.activities[0].next_session_at).getTime()).toBeGreaterThan(Date.now());
  });
});
