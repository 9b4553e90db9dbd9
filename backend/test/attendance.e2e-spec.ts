import { ATTENDANCE_MESSAGES } from '@studio/contracts';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/** A CSV line's fields (every field quoted), without the quotes. */
const fields = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replaceAll('""', '"'));

describe('attendance: check-in and undo (issue 23)', () => {
  let t: TestApp;
  let token: string;
  let userId: string;
  let eventId: string;
  const enrollments: Record<string, string> = {};
  const students: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await t.organizationWithUser();
    token = owner.token;
    userId = owner.user.id;
    const course = await schedulableCourse(t, token);
    eventId = await scheduleSession(t, token, course, { capacity: 10 });
    for (const first_name of ['Ana', 'Bruno', 'Carla']) {
      const studentId = await addStudent(t, token, { first_name, last_name: 'Attends', email: `${first_name.toLowerCase()}@attend.test` });
      const res = await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }).expect(201);
      enrollments[first_name] = res.body.enrollment_id;
      students[first_name] = studentId;
    }
  });
  afterAll(() => t.close());

  const list = async (query = '') =>
    (await t.http.get(`/api/admin/enrollment/event/${eventId}${query}`).set('token', token).expect(200)).body.enrollments as {
      enrollment_id: string;
      checked_in_at: string | null;
      attendance: string;
      Student: { first_name: string };
    }[];
  const byName = async () => Object.fromEntries((await list()).map((e) => [e.Student.first_name, e]));
  const setEnd = (endsAt: Date) =>
    t.withEm((em) => em.getConnection().execute(`update event set starts_at = ?, ends_at = ? where id = ?`, [new Date(endsAt.getTime() - 7200_000), endsAt, eventId]));
  const exportAttendance = async () => {
    const res = await t.http.post('/api/admin/export/enrollment').set('token', token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
    const [header, ...lines] = res.text.replace(/^\uFEFF/, '').trim().split('\n').map(fields);
    const column = header.indexOf('Attendance');
    expect(column).toBe(header.length - 1);
    return Object.fromEntries(lines.map((l) => [l[0], l[column]]));
  };

  it('checks a student in, keeps the first time on a second click, and undoes it', async () => {
    const first = await t.http.put(`/api/admin/enrollment/${enrollments.Ana}/check-in`).set('token', token).expect(200);
    expect(first.body).toEqual({ enrollment_id: enrollments.Ana, checked_in_at: expect.any(String), attendance: 'checked_in' });
    const [row] = await t.withEm((em) => em.getConnection().execute<{ checked_in_by: string }[]>(`select checked_in_by from enrollment where id = ?`, [enrollments.Ana]));
    expect(row.checked_in_by).toBe(userId);

    const again = await t.http.put(`/api/admin/enrollment/${enrollments.Ana}/check-in`).set('token', token).expect(200);
    expect(again.body.checked_in_at).toBe(first.body.checked_in_at);

    let rows = await byName();
    expect(rows.Ana).toMatchObject({ checked_in_at: first.body.checked_in_at, attendance: 'checked_in' });
    expect(rows.Bruno).toMatchObject({ checked_in_at: null, attendance: 'not_checked_in' });

    const undone = await t.http.delete(`/api/admin/enrollment/${enrollments.Ana}/check-in`).set('token', token).expect(200);
    expect(undone.body).toEqual({ enrollment_id: enrollments.Ana, checked_in_at: null, attendance: 'not_checked_in' });
    await t.http.delete(`/api/admin/enrollment/${enrollments.Ana}/check-in`).set('token', token).expect(200);
    rows = await byName();
    expect(rows.Ana).toMatchObject({ checked_in_at: null, attendance: 'not_checked_in' });
  });

  it('answers 404 for another organization’s enrollment and leaves it as it was', async () => {
    const other = await t.organizationWithUser();
    await t.http.put(`/api/admin/enrollment/${enrollments.Bruno}/check-in`).set('token', other.token).expect(404);
    await t.http.delete(`/api/admin/enrollment/${enrollments.Bruno}/check-in`).set('token', other.token).expect(404);
    await t.http.put(`/api/admin/enrollment/00000000-0000-4000-8000-000000000000/check-in`).set('token', token).expect(404);
    // A malformed id is no enrollment either (UuidParamPipe).
    await t.http.put(`/api/admin/enrollment/not-a-uuid/check-in`).set('token', token).expect(404);
    expect((await byName()).Bruno.checked_in_at).toBeNull();
  });

  it('refuses a removed enrollment with 409 and the message', async () => {
    const studentId = await addStudent(t, token, { first_name: 'Removed', last_name: 'Attends', email: 'removed@attend.test' });
    const res = await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }).expect(201);
    await t.http.delete(`/api/admin/enrollment/${res.body.enrollment_id}`).set('token', token).expect(204);
    const refused = await t.http.put(`/api/admin/enrollment/${res.body.enrollment_id}/check-in`).set('token', token).expect(409);
    expect(refused.body.message).toBe(ATTENDANCE_MESSAGES.checkInRemoved);
    await t.http.delete(`/api/admin/enrollment/${res.body.enrollment_id}/check-in`).set('token', token).expect(409);
  });

  it('sorts by check-in time', async () => {
    await t.http.put(`/api/admin/enrollment/${enrollments.Carla}/check-in`).set('token', token).expect(200);
    const asc = await list('?sortField=checked_in_at&sortOrder=asc');
    expect(asc[0].Student.first_name).toBe('Carla');
    const desc = await list('?sortField=checked_in_at&sortOrder=desc');
    expect(desc[desc.length - 1].Student.first_name).toBe('Carla');
    await t.http.delete(`/api/admin/enrollment/${enrollments.Carla}/check-in`).set('token', token).expect(200);
  });

  it('is checked in or not before the session ends, Checked in or No-show after, in the list and the export', async () => {
    await t.http.put(`/api/admin/enrollment/${enrollments.Ana}/check-in`).set('token', token).expect(200);
    // Under way: ends in a minute.
    await setEnd(new Date(Date.now() + 60_000));
    let rows = await byName();
    expect([rows.Ana.attendance, rows.Bruno.attendance]).toEqual(['checked_in', 'not_checked_in']);
    expect(await exportAttendance()).toEqual({ Ana: 'Checked in', Bruno: 'Not checked in', Carla: 'Not checked in' });
    expect((await list('?filter[attendance]=not_checked_in')).map((e) => e.Student.first_name).sort()).toEqual(['Bruno', 'Carla']);
    expect(await list('?filter[attendance]=no_show')).toEqual([]);

    // Ended a minute ago.
    await setEnd(new Date(Date.now() - 60_000));
    rows = await byName();
    expect([rows.Ana.attendance, rows.Bruno.attendance, rows.Carla.attendance]).toEqual(['checked_in', 'no_show', 'no_show']);
    expect(await exportAttendance()).toEqual({ Ana: 'Checked in', Bruno: 'No-show', Carla: 'No-show' });
    const filtered = async (attendance: string) => (await list(`?filter[attendance]=${attendance}`)).map((e) => e.Student.first_name).sort();
    expect(await filtered('checked_in')).toEqual(['Ana']);
    expect(await filtered('no_show')).toEqual(['Bruno', 'Carla']);
    expect(await filtered('not_checked_in')).toEqual([]);
    await t.http.get(`/api/admin/enrollment/event/${eventId}?filter[attendance]=late`).set('token', token).expect(400);

    // Checked in late (after the end) by the admin: no longer a no-show.
    const late = await t.http.put(`/api/admin/enrollment/${enrollments.Bruno}/check-in`).set('token', token).expect(200);
    expect(late.body.attendance).toBe('checked_in');
    const undone = await t.http.delete(`/api/admin/enrollment/${enrollments.Bruno}/check-in`).set('token', token).expect(200);
    expect(undone.body.attendance).toBe('no_show');
  });

  it("lists the student's sessions with their attendance in the student detail (the drawer)", async () => {
    const detail = (first: string, as = token) => t.http.get(`/api/admin/student/${students[first]}`).set('token', as);
    // The session ended in the test before: Ana was checked in, Bruno was not.
    const ana = (await detail('Ana').expect(200)).body.sessions;
    expect(ana).toEqual([
      expect.objectContaining({ enrollment_id: enrollments.Ana, event_id: eventId, attendance: 'checked_in', checked_in_at: expect.any(String), timezone: expect.any(String) }),
    ]);
    const bruno = (await detail('Bruno').expect(200)).body.sessions;
    expect(bruno).toEqual([expect.objectContaining({ enrollment_id: enrollments.Bruno, attendance: 'no_show', checked_in_at: null })]);
    // Another organization sees neither the student nor their sessions.
    const other = await t.organizationWithUser();
    await detail('Ana', other.token).expect(404);
  });

  describe('appointments', () => {
    const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
    let courseId: string;
    /** Holds the first free time of the appointment course for a new student; enrolled unless `hold`. */
    const appointment = async (hold = false) => {
      const studentId = await addStudent(t, token);
      const from = new Date();
      const to = new Date(from.getTime() + 20 * 86400_000);
      const slots = await t.http
        .get(`/api/admin/activities/${courseId}/slots?from=${from.toISOString()}&to=${to.toISOString()}`)
        .set('token', token)
        .expect(200);
      const taken = await t.withEm((em) => em.getConnection().execute<{ starts_at: Date }[]>(`select starts_at from appointment where activity_id = ? and status <> 'cancelled'`, [courseId]));
      const free = (slots.body.slots as { starts_at: string }[]).find((s) => !taken.some((a) => new Date(a.starts_at).toISOString() === new Date(s.starts_at).toISOString()))!;
      const held = await t.http.post(`/api/admin/activities/${courseId}/appointments`).set('token', token).send({ student_id: studentId, starts_at: free.starts_at }).expect(201);
      if (!hold) await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ appointment_id: held.body.id }).expect(201);
      return held.body.id as string;
    };
    const read = async (id: string) => (await t.http.get(`/api/admin/appointments/${id}`).set('token', token).expect(200)).body;

    beforeAll(async () => {
      const refs = await courseRefs(t, token);
      await t.http
        .put(`/api/admin/instructor/${refs.instructor_id}/availability`)
        .set('token', token)
        .send({ weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '08:00', end: '20:00' }]])) })
        .expect(200);
      courseId = (
        await t.http
          .post('/api/admin/activities')
          .set('token', token)
          .send({ ...validCourse(refs), name: 'Wheel lesson', activity_type: 'appointment', single_party: true, duration_mins: 60, start_time_increments_mins: 60 })
          .expect(201)
      ).body.activity_id;
    });

    it('checks a booked appointment in, keeps the first time, undoes it; the appointment reads its attendance', async () => {
      const id = await appointment();
      expect(await read(id)).toMatchObject({ status: 'booked', checked_in_at: null, attendance: 'not_checked_in' });
      const first = await t.http.put(`/api/admin/appointments/${id}/check-in`).set('token', token).expect(200);
      expect(first.body).toEqual({ appointment_id: id, checked_in_at: expect.any(String), attendance: 'checked_in' });
      const [row] = await t.withEm((em) => em.getConnection().execute<{ checked_in_by: string }[]>(`select checked_in_by from appointment where id = ?`, [id]));
      expect(row.checked_in_by).toBe(userId);
      const again = await t.http.put(`/api/admin/appointments/${id}/check-in`).set('token', token).expect(200);
      expect(again.body.checked_in_at).toBe(first.body.checked_in_at);
      expect(await read(id)).toMatchObject({ checked_in_at: first.body.checked_in_at, attendance: 'checked_in' });

      const undone = await t.http.delete(`/api/admin/appointments/${id}/check-in`).set('token', token).expect(200);
      expect(undone.body).toEqual({ appointment_id: id, checked_in_at: null, attendance: 'not_checked_in' });
      await t.http.delete(`/api/admin/appointments/${id}/check-in`).set('token', token).expect(200);
      // Ended without a check-in: a no-show.
      await t.withEm((em) => em.getConnection().execute(`update appointment set starts_at = now() - interval '2 hours', ends_at = now() - interval '1 hour',
                                  blocked = tstzrange(now() - interval '2 hours', now() - interval '1 hour') where id = ?`, [id]));
      expect((await read(id)).attendance).toBe('no_show');
    });

    it('refuses a held or cancelled appointment with 409 and the message, another organization\'s with 404', async () => {
      const held = await appointment(true);
      const refused = await t.http.put(`/api/admin/appointments/${held}/check-in`).set('token', token).expect(409);
      expect(refused.body.message).toBe(ATTENDANCE_MESSAGES.appointmentNotBooked);
      const booked = await appointment();
      await t.http.delete(`/api/admin/appointments/${booked}`).set('token', token).expect(204);
      await t.http.put(`/api/admin/appointments/${booked}/check-in`).set('token', token).expect(409);
      expect((await read(booked)).checked_in_at).toBeNull();

      const other = await t.organizationWithUser();
      const mine = await appointment();
      await t.http.put(`/api/admin/appointments/${mine}/check-in`).set('token', other.token).expect(404);
      await t.http.delete(`/api/admin/appointments/${mine}/check-in`).set('token', other.token).expect(404);
      await t.http.put(`/api/admin/appointments/not-a-uuid/check-in`).set('token', token).expect(404);
      expect((await read(mine)).checked_in_at).toBeNull();
    });
  });
});
