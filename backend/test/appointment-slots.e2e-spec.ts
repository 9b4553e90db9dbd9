import {
  addDaysToDate,
  APPOINTMENT_MESSAGES,
  AVAILABILITY_MESSAGES as A,
  groupSlotsByDate,
  localDateOf,
  MAX_DATE_OVERRIDES,
  MAX_RANGES_PER_DAY,
  SLOTS_MESSAGES as S,
  STORE_MESSAGES,
  wallClockToInstant,
} from '@studio/contracts';
import { AppointmentHolds } from '../src/modules/scheduling/appointment-holds.service';
import { courseRefs, validCourse, validCourseEdit } from './support/catalog-fixtures';
import { addStudent } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

const MIN = 60_000;
const HOUR = 60 * MIN;
const ZONE = 'America/New_York'; // the fixtures' location
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const everyDay = (ranges: { start: string; end: string }[]) => Object.fromEntries(WEEKDAYS.map((d) => [d, ranges]));

/** A local date (in the location's zone) n days after today's. */
const dayAhead = (n: number) => addDaysToDate(localDateOf(new Date(), ZONE), n);
const at = (date: string, time: string) => wallClockToInstant(date, time, ZONE)!.toISOString();
const times = (date: string, list: string[]) => list.map((time) => at(date, time));

/**
 * The slots of appointment courses over the API (issue 22): instructor availability (round trip,
 * every message, tenancy), and the admin's and the store's slots calls following hours, overrides,
 * notice, window, the instructor's appointments of any course with buffers, and their sessions.
 */
describe('appointment slots', () => {
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let slug: string;
  let other: { token: string; slug: string; instructor: string; course: string };
  /** Instructor 1: 09:00–15:00 every day. */
  let refs1: Awaited<ReturnType<typeof courseRefs>>;
  /** 60 minutes every 30, buffers 15 before and 15 after. */
  let courseA: string;
  /** 30 minutes every 30, no buffers; same instructor. */
  let courseB: string;
  /** A scheduled course of instructor 1. */
  let scheduled: string;

  const createCourse = async (refs: typeof refs1, overrides: Record<string, unknown>, as = token) =>
    (
      await t.http
        .post('/api/admin/activities')
        .set('token', as)
        .send({ ...validCourse(refs), activity_type: 'appointment', single_party: true, ...overrides })
        .expect(201)
    ).body.activity_id as string;

  const putHours = (instructor: string, body: unknown, as = token) =>
    t.http.put(`/api/admin/instructor/${instructor}/availability`).set('token', as).send(body as object);

  const adminSlots = (course: string, from: string, to: string, extra: Record<string, string> = {}, as = token) =>
    t.http.get(`/api/admin/activities/${course}/slots`).set('token', as).query({ from, to, ...extra });

  /** The admin's starts of a course on a local date. */
  const startsOn = async (course: string, date: string) => {
    const res = await adminSlots(course, at(date, '00:00'), at(date, '24:00')).expect(200);
    return (res.body.slots as { starts_at: string }[]).map((s) => s.starts_at);
  };

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await t.organizationWithUser('owner');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    refs1 = await courseRefs(t, token);
    courseA = await createCourse(refs1, { name: 'Wheel lesson', duration_mins: 60, start_time_increments_mins: 30, buffer_before_mins: 15, buffer_after_mins: 15 });
    courseB = await createCourse(refs1, { name: 'Glaze consult', duration_mins: 30, start_time_increments_mins: 30 });
    scheduled = (await t.http.post('/api/admin/activities').set('token', token).send(validCourse(refs1)).expect(201)).body.activity_id;
    await putHours(refs1.instructor_id, { weekly: everyDay([{ start: '09:00', end: '15:00' }]) }).expect(200);

    const second = await t.organizationWithUser('owner');
    const refs = await courseRefs(t, second.token);
    other = {
      token: second.token,
      slug: (await t.http.get('/api/admin/org').set('token', second.token).expect(200)).body.slug,
      instructor: refs.instructor_id,
      course: await createCourse(refs, {}, second.token),
    };
    await putHours(other.instructor, { weekly: everyDay([{ start: '09:00', end: '15:00' }]) }, second.token).expect(200);
  });
  afterAll(() => t?.close());

  it("saves an instructor's hours and answers them as saved; none set is every day closed", async () => {
    const fresh = (await t.http.post('/api/admin/instructor').set('token', token).send({ first_name: 'Noa' }).expect(201)).body.instructor_id;
    const empty = await t.http.get(`/api/admin/instructor/${fresh}/availability`).set('token', token).expect(200);
    expect(empty.body).toEqual({ weekly: everyDay([]), overrides: [] });

    const body = {
      weekly: { mon: [{ start: '13:00', end: '17:00' }, { start: '09:00', end: '12:00' }], sat: [{ start: '10:00', end: '24:00' }] },
      overrides: [
        { date: '2027-01-05', ranges: [] },
        { date: '2027-01-02', ranges: [{ start: '08:00', end: '09:30' }] },
      ],
    };
    const saved = await putHours(fresh, body).expect(200);
    const expected = {
      weekly: { ...everyDay([]), mon: body.weekly.mon, sat: body.weekly.sat },
      overrides: [body.overrides[1], body.overrides[0]],
    };
    expect(saved.body).toEqual(expected);
    expect((await t.http.get(`/api/admin/instructor/${fresh}/availability`).set('token', token).expect(200)).body).toEqual(expected);
  });

  it('refuses bad hours with the messages, keyed by path', async () => {
    const instructor = refs1.instructor_id;
    const cases: [unknown, Record<string, string>][] = [
      [{ weekly: { mon: [{ start: '9:00', end: '12:00' }] } }, { 'weekly.mon.0.start': A.startTime }],
      [{ weekly: { mon: [{ start: '09:00', end: '24:30' }] } }, { 'weekly.mon.0.end': A.endTime }],
      [{ weekly: { mon: [{ start: '12:00', end: '09:00' }] } }, { 'weekly.mon.0.end': A.endAfterStart }],
      [{ weekly: { tue: [{ start: '09:00', end: '12:00' }, { start: '11:00', end: '13:00' }] } }, { 'weekly.tue.1.start': A.overlap }],
      [
        { weekly: { wed: Array.from({ length: MAX_RANGES_PER_DAY + 1 }, (_, i) => ({ start: `${String(i).padStart(2, '0')}:00`, end: `${String(i).padStart(2, '0')}:30` })) } },
        { 'weekly.wed': A.tooManyRanges(MAX_RANGES_PER_DAY) },
      ],
      [{ weekly: { thu: 'all day' } }, { 'weekly.thu': A.ranges }],
      [{ weekly: 'weekdays' }, { weekly: A.weekly }],
      [{ weekly: {}, overrides: [{ date: '2027-02-30', ranges: [] }] }, { 'overrides.0.date': A.date }],
      [{ weekly: {}, overrides: [{ date: '2027-02-01', ranges: [] }, { date: '2027-02-01', ranges: [] }] }, { 'overrides.1.date': A.duplicateDate }],
      [{ weekly: {}, overrides: 'none' }, { overrides: A.overrides }],
      [
        { weekly: {}, overrides: Array.from({ length: MAX_DATE_OVERRIDES + 1 }, (_, i) => ({ date: addDaysToDate('2027-01-01', i), ranges: [] })) },
        { overrides: A.tooManyOverrides(MAX_DATE_OVERRIDES) },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await putHours(instructor, body);
      expect({ body, status: res.status, errors: res.body.errors }).toEqual({ body, status: 400, errors });
    }
    // Nothing of that was saved.
    const kept = await t.http.get(`/api/admin/instructor/${instructor}/availability`).set('token', token).expect(200);
    expect(kept.body.weekly.mon).toEqual([{ start: '09:00', end: '15:00' }]);
  });

  it("keeps each organization's instructors, courses and store apart", async () => {
    await t.http.get(`/api/admin/instructor/${other.instructor}/availability`).set('token', token).expect(404);
    await putHours(other.instructor, { weekly: {} }).expect(404);
    const date = dayAhead(5);
    await adminSlots(other.course, at(date, '00:00'), at(date, '24:00')).expect(404);
    // The other store answers its own course, and never this one's; this store never the other's.
    const query = { from: at(date, '00:00'), to: at(date, '24:00') };
    const own = await t.http.get(`/api/public/${other.slug}/activities/${other.course}/slots`).query(query).expect(200);
    expect(own.body.slots.length).toBe(11);
    expect(own.headers['access-control-allow-origin']).toBe('*');
    const cross = await t.http.get(`/api/public/${other.slug}/activities/${courseA}/slots`).query(query).expect(404);
    expect(cross.body.message).toBe(APPOINTMENT_MESSAGES.courseNotFound);
    await t.http.get(`/api/public/${slug}/activities/${other.course}/slots`).query(query).expect(404);
    const noStore = await t.http.get(`/api/public/no-such-store-${Date.now()}/activities/${courseA}/slots`).query(query).expect(404);
    expect(noStore.body.message).toBe(STORE_MESSAGES.storeNotFound);
  });

  it('offers the weekly hours on the increments, the same in the store, and only for published appointment courses', async () => {
    const date = dayAhead(4);
    const grid = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00'];
    const admin = await adminSlots(courseA, at(date, '00:00'), at(date, '24:00')).expect(200);
    expect(admin.body).toEqual({
      zone: ZONE,
      display_zone: ZONE,
      slots: times(date, grid).map((s) => ({ starts_at: s, ends_at: new Date(Date.parse(s) + HOUR).toISOString() })),
      days: [{ date, slots: times(date, grid) }],
    });
    const store = await t.http.get(`/api/public/${slug}/activities/${courseA}/slots`).query({ from: at(date, '00:00'), to: at(date, '24:00') }).expect(200);
    expect(store.body).toEqual(admin.body);
    expect(await startsOn(courseB, date)).toEqual(times(date, [...grid, '14:30']));

    const notAppointment = await adminSlots(scheduled, at(date, '00:00'), at(date, '24:00')).expect(400);
    expect(notAppointment.body.message).toBe(APPOINTMENT_MESSAGES.notAppointmentCourse);
    // An unlisted course is not in the store (the admin still sees its slots).
    const unlisted = await createCourse(refs1, { name: 'Private kiln lesson' });
    await t.withEm((em) => em.execute(`update activity set status = 'unlisted' where id = ?`, [unlisted]));
    await t.http.get(`/api/public/${slug}/activities/${unlisted}/slots`).query({ from: at(date, '00:00'), to: at(date, '24:00') }).expect(404);
    expect((await startsOn(unlisted, date)).length).toBe(11);
  });

  it('counts days in tz without moving the instants', async () => {
    const date = dayAhead(4);
    const base = await adminSlots(courseB, at(date, '00:00'), at(date, '24:00')).expect(200);
    const tokyo = await adminSlots(courseB, at(date, '00:00'), at(date, '24:00'), { tz: 'Asia/Tokyo' }).expect(200);
    expect(tokyo.body.slots).toEqual(base.body.slots);
    expect(tokyo.body.zone).toBe(ZONE);
    expect(tokyo.body.display_zone).toBe('Asia/Tokyo');
    // 09:00–15:00 in New York straddles midnight in Tokyo: two days there, one here.
    const starts = (base.body.slots as { starts_at: string }[]).map((s) => new Date(s.starts_at));
    const expected = groupSlotsByDate(starts, 'Asia/Tokyo').map((d) => ({ date: d.date, slots: d.slots.map((s) => s.toISOString()) }));
    expect(tokyo.body.days).toEqual(expected);
    expect(tokyo.body.days.length).toBe(2);
    expect(base.body.days.length).toBe(1);
  });

  it('closes a day and opens extra hours by date overrides', async () => {
    const closed = dayAhead(6);
    const extra = dayAhead(7);
    await putHours(refs1.instructor_id, {
      weekly: everyDay([{ start: '09:00', end: '15:00' }]),
      overrides: [
        { date: closed, ranges: [] },
        { date: extra, ranges: [{ start: '16:00', end: '17:00' }] },
      ],
    }).expect(200);
    expect(await startsOn(courseB, closed)).toEqual([]);
    expect(await startsOn(courseB, extra)).toEqual(times(extra, ['16:00', '16:30']));
    expect((await startsOn(courseB, dayAhead(8))).length).toBe(12);
  });

  it("removes a held time with its buffers from every course of the instructor, and a session's time", async () => {
    const date = dayAhead(10);
    const student = await addStudent(t, token);
    const service = t.created.app.get(AppointmentHolds);
    await t.withEm((em) =>
      service.hold({ organizationId }, em, {
        activityId: courseA,
        studentId: student,
        startsAt: new Date(at(date, '11:00')),
        expiresAt: new Date(Date.now() + HOUR),
      }),
    );
    // Blocked 10:45–12:15: A (buffers 15/15) keeps starts whose 60 minutes plus buffers clear it.
    expect(await startsOn(courseA, date)).toEqual(times(date, ['09:00', '09:30', '12:30', '13:00', '13:30', '14:00']));
    // The other course of the instructor loses the same time.
    expect(await startsOn(courseB, date)).toEqual(times(date, ['09:00', '09:30', '10:00', '12:30', '13:00', '13:30', '14:00', '14:30']));

    const sessionDay = dayAhead(11);
    await t.http
      .post('/api/admin/events')
      .set('token', token)
      .send({ activity_id: scheduled, location_id: refs1.location_id, instructor_id: refs1.instructor_id, dates: [{ date: sessionDay, time: '10:00', duration: 60 }] })
      .expect(201);
    expect(await startsOn(courseB, sessionDay)).toEqual(
      times(sessionDay, ['09:00', '09:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00', '14:30']),
    );
    expect((await startsOn(courseA, sessionDay))[0]).toBe(at(sessionDay, '11:30'));
  });

  it('keeps the minimum notice and the booking window; an instructor without hours has no slots', async () => {
    const refs = await courseRefs(t, token);
    await putHours(refs.instructor_id, { weekly: everyDay([{ start: '00:00', end: '24:00' }]) }).expect(200);
    const course = await createCourse(refs, { name: 'Quick trim', duration_mins: 60, start_time_increments_mins: 60, min_notice_mins: 240, booking_window_days: 2 });
    const before = Date.now();
    const res = await adminSlots(course, new Date(before).toISOString(), new Date(before + 6 * 24 * HOUR).toISOString()).expect(200);
    const after = Date.now();
    const starts = (res.body.slots as { starts_at: string }[]).map((s) => Date.parse(s.starts_at));
    // The first start is the first hour at least 4 hours away.
    expect(starts[0]).toBeGreaterThanOrEqual(before + 240 * MIN);
    expect(starts[0]).toBeLessThan(after + 240 * MIN + HOUR);
    // The last is 23:00 of the date two days after today's (the window's last day, whole).
    expect(starts[starts.length - 1]).toBe(Date.parse(at(dayAhead(2), '23:00')));

    const bare = await courseRefs(t, token);
    const none = await createCourse(bare, { name: 'No hours yet' });
    const date = dayAhead(3);
    expect((await adminSlots(none, at(date, '00:00'), at(date, '24:00')).expect(200)).body).toEqual({ zone: ZONE, display_zone: ZONE, slots: [], days: [] });
  });

  it("books a course's own hours over its instructor's; a scheduled course's are ignored", async () => {
    const date = dayAhead(12);
    const own = { weekly: everyDay([{ start: '18:00', end: '20:00' }]), overrides: [] };
    const evening = await createCourse(refs1, { name: 'Evening wheel lesson', duration_mins: 60, start_time_increments_mins: 60, availability: own });
    const detail = await t.http.get(`/api/admin/activities/${evening}`).set('token', token).expect(200);
    expect(detail.body.availability).toEqual(own);
    expect(await startsOn(evening, date)).toEqual(times(date, ['18:00', '19:00']));

    const bad = await t.http
      .post('/api/admin/activities')
      .set('token', token)
      .send({ ...validCourse(refs1), activity_type: 'appointment', single_party: true, availability: { weekly: { mon: [{ start: '18:00', end: '17:00' }] } } })
      .expect(400);
    expect(bad.body.errors).toEqual({ 'availability.weekly.mon.0.end': A.endAfterStart });
    // A scheduled course has no hours of its own: what is sent is neither checked nor kept.
    const plain = await t.http
      .post('/api/admin/activities')
      .set('token', token)
      .send({ ...validCourse(refs1), availability: { weekly: 'evenings' } })
      .expect(201);
    expect((await t.http.get(`/api/admin/activities/${plain.body.activity_id}`).set('token', token).expect(200)).body.availability).toBeNull();

    // Back to the instructor's hours (null), then hours of its own again, by the edit.
    const edit = { ...validCourseEdit(refs1), name: 'Evening wheel lesson' };
    await t.http.put(`/api/admin/activities/${evening}`).set('token', token).send({ ...edit, availability: null }).expect(200);
    expect((await startsOn(evening, date)).length).toBe(6);
    const saved = await t.http
      .put(`/api/admin/activities/${evening}`)
      .set('token', token)
      .send({ ...edit, availability: { weekly: everyDay([{ start: '07:00', end: '08:00' }]) } })
      .expect(200);
    expect(saved.body.availability.weekly.tue).toEqual([{ start: '07:00', end: '08:00' }]);
    expect(await startsOn(evening, date)).toEqual(times(date, ['07:00']));
  });

  it('refuses a malformed range or zone with a clear message', async () => {
    const from = at(dayAhead(3), '00:00');
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ from: 'tomorrow', to: from }, { from: S.from }],
      [{ from, to: '2027-13-01T00:00:00Z' }, { to: S.to }],
      [{ from, to: from.slice(0, 10) }, { to: S.to }],
      [{ to: from }, { from: S.from }],
      [{ from, to: from }, { to: S.order }],
      [{ from, to: new Date(Date.parse(from) + 63 * 24 * HOUR).toISOString() }, { to: S.range }],
      [{ from, to: new Date(Date.parse(from) + HOUR).toISOString(), tz: 'Mars/Olympus' }, { tz: S.tz }],
    ];
    for (const [query, errors] of cases) {
      const admin = await t.http.get(`/api/admin/activities/${courseA}/slots`).set('token', token).query(query);
      expect({ query, status: admin.status, errors: admin.body.errors }).toEqual({ query, status: 400, errors });
    }
    const store = await t.http.get(`/api/public/${slug}/activities/${courseA}/slots`).query({ from, to: 'soon' }).expect(400);
    expect(store.body.errors).toEqual({ to: S.to });
    // 62 days is allowed.
    await adminSlots(courseA, from, new Date(Date.parse(from) + 62 * 24 * HOUR).toISOString()).expect(200);
  });
});
