import { COURSE_MESSAGES, SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

describe('scheduling sessions', () => {
  let t: TestApp;
  let a: { token: string; course: Awaited<ReturnType<typeof schedulableCourse>> };
  let b: { token: string; course: Awaited<ReturnType<typeof schedulableCourse>> };

  beforeAll(async () => {
    t = await startTestApp();
    const ownerA = await t.organizationWithUser('owner');
    const ownerB = await t.organizationWithUser('owner');
    a = { token: ownerA.token, course: await schedulableCourse(t, ownerA.token) };
    b = { token: ownerB.token, course: await schedulableCourse(t, ownerB.token) };
  });
  afterAll(() => t.close());

  const payload = () => ({
    activity_id: a.course.activity_id,
    location_id: a.course.location_id,
    instructor_id: a.course.instructor_id,
    dates: [{ date: '2030-06-01', time: '10:00', duration: 90 }],
  });

  it('asks for every day field, a positive price override and a whole capacity', async () => {
    const missing = await t.http
      .post('/api/admin/events')
      .set('token', a.token)
      .send({ ...payload(), dates: [{ date: '2030-06-01', time: '10:00', duration: 90 }, { date: '', time: '10:00', duration: 90 }] });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ 'dates.1': M.completeDayFields });
    const none = await t.http.post('/api/admin/events').set('token', a.token).send({ ...payload(), dates: [] });
    expect(none.body.errors).toEqual({ dates: M.completeDayFields });
    const money = await t.http.post('/api/admin/events').set('token', a.token).send({ ...payload(), price: 0, capacity: 1.5 });
    expect(money.body.errors).toEqual({ price: M.schedulePrice, capacity: M.scheduleCapacity });
  });

  const sessionCount = async (activityId = a.course.activity_id) =>
    (await t.http.get(`/api/admin/activities/${activityId}/sessions?include_past=true&limit=10000`).set('token', a.token)).body.sessions
      .length as number;

  it('refuses an overridden price that is empty and a blank name, and schedules nothing', async () => {
    const before = await sessionCount();
    for (const price of [null, '']) {
      const res = await t.http.post('/api/admin/events').set('token', a.token).send({ ...payload(), price });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ price: M.schedulePrice });
    }
    const noName = await t.http.post('/api/admin/events').set('token', a.token).send({ ...payload(), course_name: '   ' });
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual({ course_name: COURSE_MESSAGES.nameRequired });
    expect(await sessionCount()).toBe(before);
  });

  it('refuses dated sessions for an appointment course (students book those), and creates none', async () => {
    const appointment = await schedulableCourse(t, a.token, 2, { activity_type: 'appointment', single_party: true });
    const res = await t.http
      .post('/api/admin/events')
      .set('token', a.token)
      .send({ ...payload(), activity_id: appointment.activity_id, location_id: appointment.location_id, instructor_id: appointment.instructor_id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: M.appointmentNotSchedulable, errors: { activity_id: M.appointmentNotSchedulable } });
    expect(await sessionCount(appointment.activity_id)).toBe(0);
  });

  it("refuses another organization's course, location or instructor with 404", async () => {
    for (const field of ['activity_id', 'location_id', 'instructor_id'] as const) {
      const res = await t.http.post('/api/admin/events').set('token', a.token).send({ ...payload(), [field]: b.course[field] });
      expect(res.status).toBe(404);
    }
  });

  it('keeps the typed start time on a day after a daylight-saving change (one event, two days)', async () => {
    // US clocks spring forward on 2030-03-10: 09:00 is 14:00 UTC the day before and 13:00 UTC that day.
    const res = await t.http
      .post('/api/admin/events')
      .set('token', a.token)
      .send({
        ...payload(),
        dates: [
          { date: '2030-03-09', time: '09:00', duration: 120 },
          { date: '2030-03-10', time: '09:00', duration: 120 },
        ],
        price: 9900,
        capacity: 4,
        course_name: 'Weekend intensive',
      })
      .expect(201);
    const event = await t.http.get(`/api/admin/events/${res.body.event_id}`).set('token', a.token).expect(200);
    expect(event.body).toMatchObject({
      name: 'Weekend intensive',
      price: 9900,
      capacity: 4,
      schedule: [
        { start_date: '2030-03-09', start_time: '09:00', duration: 120 },
        { start_date: '2030-03-10', start_time: '09:00', duration: 120 },
      ],
      starts_at: '2030-03-09T14:00:00.000Z',
      ends_at: '2030-03-10T15:00:00.000Z',
      Location: { timezone: { timeZoneId: 'America/New_York' } },
      seats_taken: 0,
    });
    const sessions = await t.http.get(`/api/admin/activities/${a.course.activity_id}/sessions?include_past=false&limit=10000`).set('token', a.token);
    expect(sessions.body.sessions.map((s: { event_id: string }) => s.event_id)).toContain(res.body.event_id);
  });


  it('a typed time the clock skips starts at the first instant after the gap, as the slot engine reads it', async () => {
    // 2030-03-10 02:30 does not exist in New York (02:00 EST -> 03:00 EDT): the session starts at
    // 03:00 EDT (07:00Z), the instant an appointment opening typed 02:30 that day would start.
    const res = await t.http
      .post('/api/admin/events')
      .set('token', a.token)
      .send({ ...payload(), dates: [{ date: '2030-03-10', time: '02:30', duration: 60 }], price: 9900, capacity: 4 })
      .expect(201);
    const event = await t.http.get(`/api/admin/events/${res.body.event_id}`).set('token', a.token).expect(200);
    expect(event.body.starts_at).toBe('2030-03-10T07:00:00.000Z');
    expect(event.body.ends_at).toBe('2030-03-10T08:00:00.000Z');
  });
  it('uses the course price and capacity when not overridden', async () => {
    const id = await scheduleSession(t, a.token, a.course);
    const event = await t.http.get(`/api/admin/events/${id}`).set('token', a.token).expect(200);
    expect(event.body).toMatchObject({ price: 4500, capacity: 8 });
  });

  it('edits price, capacity and internal description with the dialog’s messages', async () => {
    const id = await scheduleSession(t, a.token, a.course);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ price: 1000 }, { capacity: M.capacityEmpty }],
      [{ price: 1000, capacity: 2.5 }, { capacity: M.capacityWhole }],
      [{ price: 1000, capacity: 0 }, { capacity: M.capacityMin }],
      [{ capacity: 3 }, { price: M.priceEmpty }],
      [{ capacity: 3, price: 0 }, { price: M.pricePositive }],
      [{ capacity: 3, price: 10.5 }, { price: M.priceCurrency }],
    ];
    for (const [body, errors] of cases) {
      const res = await t.http.put(`/api/admin/events/${id}`).set('token', a.token).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(errors);
    }
    const ok = await t.http
      .put(`/api/admin/events/${id}`)
      .set('token', a.token)
      .send({ price: 45099, capacity: 3, internal_short_description: 'Evening group' })
      .expect(200);
    expect(ok.body).toMatchObject({ price: 45099, capacity: 3, internal_short_description: 'Evening group' });
    await t.http.put(`/api/admin/events/${id}`).set('token', b.token).send({ price: 100, capacity: 3 }).expect(404);
    await t.http.get(`/api/admin/events/${id}`).set('token', b.token).expect(404);
  });

  it("a free session's capacity changes without a price; it stays free", async () => {
    const free = await schedulableCourse(t, a.token, 12, { priceType: 'free', price: undefined });
    const id = await scheduleSession(t, a.token, free);
    expect((await t.http.get(`/api/admin/events/${id}`).set('token', a.token)).body.price).toBe(0);
    const saved = await t.http.put(`/api/admin/events/${id}`).set('token', a.token).send({ capacity: 20 }).expect(200);
    expect(saved.body).toMatchObject({ capacity: 20, price: 0 });
    const zero = await t.http.put(`/api/admin/events/${id}`).set('token', a.token).send({ capacity: 21, price: 0 }).expect(200);
    expect(zero.body).toMatchObject({ capacity: 21, price: 0 });
    const bad = await t.http.put(`/api/admin/events/${id}`).set('token', a.token).send({ capacity: 21, price: -5 });
    expect(bad.status).toBe(400);
    // A paid session still needs its price (spec 001 §5), and nothing changes when refused.
    const paid = await scheduleSession(t, a.token, a.course);
    const refused = await t.http.put(`/api/admin/events/${paid}`).set('token', a.token).send({ capacity: 3 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ price: M.priceEmpty });
    expect((await t.http.get(`/api/admin/events/${paid}`).set('token', a.token)).body).toMatchObject({ capacity: 8, price: 4500 });
  });

  it('a single-party course takes one party per session, even when many enroll at once', async () => {
    const course = await schedulableCourse(t, a.token, 6, { single_party: true });
    const id = await scheduleSession(t, a.token, course);
    const students = await Promise.all(Array.from({ length: 8 }, () => addStudent(t, a.token)));
    const results = await Promise.all(
      students.map((s) => t.http.post(`/api/admin/orders/enroll/${s}`).set('token', a.token).send({ event_id: id })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.message])).toEqual(refused.map(() => [409, M.singlePartyBooked]));
    const event = await t.http.get(`/api/admin/events/${id}`).set('token', a.token).expect(200);
    expect(event.body).toMatchObject({ enrolled_count: 1, seats_taken: 1 });
    // The party itself may bring guests up to the capacity.
    const enrolled = results.find((r) => r.status === 201)!;
    await t.http.put(`/api/admin/enrollment/${enrolled.body.enrollment_id}/guests`).set('token', a.token).send({ guestCount: 5 }).expect(200);
    // Once the party is removed, another one may book.
    await t.http.delete(`/api/admin/enrollment/${enrolled.body.enrollment_id}`).set('token', a.token).expect(204);
    const other = students.find((_, i) => results[i].status !== 201)!;
    await t.http.post(`/api/admin/orders/enroll/${other}`).set('token', a.token).send({ event_id: id }).expect(201);
  });

  it('never sells the last seats twice when many enroll at once', async () => {
    const id = await scheduleSession(t, a.token, a.course, { capacity: 5 });
    const students = await Promise.all(Array.from({ length: 20 }, () => addStudent(t, a.token)));
    const results = await Promise.all(
      students.map((s) => t.http.post(`/api/admin/orders/enroll/${s}`).set('token', a.token).send({ event_id: id })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.message === M.sessionFull)).toBe(true);
    const event = await t.http.get(`/api/admin/events/${id}`).set('token', a.token).expect(200);
    expect(event.body).toMatchObject({ seats_taken: 5, enrolled_count: 5 });
  });

  describe('enrollments of one session', () => {
    let eventId: string;
    const ids: Record<string, string> = {};
    const enrollmentOf: Record<string, string> = {};

    beforeAll(async () => {
      eventId = await scheduleSession(t, a.token, a.course, { capacity: 30 });
      const people = [
        ['Ana', 'Zapata', 'ana@clay.test'],
        ['Bruno', 'Young', 'bruno@clay.test'],
        ['Carla', 'Xu', 'carla@glass.test'],
        ['=HYPERLINK("http://evil")', 'Mallory', 'mallory@evil.test'],
      ];
      for (const [first, last, email] of people) {
        ids[first] = await addStudent(t, a.token, { first_name: first, last_name: last, email, phone: '+1 555 0100' });
        const res = await t.http.post(`/api/admin/orders/enroll/${ids[first]}`).set('token', a.token).send({ event_id: eventId }).expect(201);
        expect(res.body).toMatchObject({ total: 0, source: 'workbench', order_number: expect.any(Number) });
        enrollmentOf[first] = res.body.enrollment_id;
      }
    });

    it('refuses a second enrollment of the same student and foreign ids', async () => {
      const again = await t.http.post(`/api/admin/orders/enroll/${ids.Ana}`).set('token', a.token).send({ event_id: eventId });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(M.alreadyEnrolled);
      const foreignStudent = await addStudent(t, b.token);
      await t.http.post(`/api/admin/orders/enroll/${foreignStudent}`).set('token', a.token).send({ event_id: eventId }).expect(404);
      await t.http.post(`/api/admin/orders/enroll/${foreignStudent}`).set('token', b.token).send({ event_id: eventId }).expect(404);
      const neither = await t.http.post(`/api/admin/orders/enroll/${ids.Ana}`).set('token', a.token).send({});
      expect(neither.status).toBe(400);
      expect(neither.body.errors).toEqual({ event_id: M.eventOrAppointment });
    });

    it('pages, searches, sorts and filters in the API', async () => {
      const all = await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', a.token).expect(200);
      expect(all.body).toMatchObject({ totalCount: 4, currentPage: 1, itemsPerPage: 20 });
      expect(all.body.enrollments[0]).toMatchObject({ Student: { first_name: 'Ana', email: 'ana@clay.test' }, guestCount: 0, Order: { totalPrice: 0 } });

      const page = await t.http.get(`/api/admin/enrollment/event/${eventId}?page=2&limit=3&sortField=last_name&sortOrder=asc`).set('token', a.token);
      expect(page.body.enrollments.map((e: { Student: { last_name: string } }) => e.Student.last_name)).toEqual(['Zapata']);
      expect(page.body).toMatchObject({ totalCount: 4, currentPage: 2, itemsPerPage: 3 });

      const search = await t.http.get(`/api/admin/enrollment/event/${eventId}?search=CLAY.test`).set('token', a.token);
      expect(search.body.enrollments.map((e: { Student: { first_name: string } }) => e.Student.first_name).sort()).toEqual(['Ana', 'Bruno']);

      const filtered = await t.http.get(`/api/admin/enrollment/event/${eventId}?filter[email]=glass`).set('token', a.token);
      expect(filtered.body.totalCount).toBe(1);
      const desc = await t.http.get(`/api/admin/enrollment/event/${eventId}?sortField=first_name&sortOrder=desc`).set('token', a.token);
      expect(desc.body.enrollments[0].Student.first_name).toBe('Carla');

      const wildcard = await t.http.get(`/api/admin/enrollment/event/${eventId}?search=%25`).set('token', a.token);
      expect(wildcard.body.totalCount).toBe(0);
      const badSort = await t.http.get(`/api/admin/enrollment/event/${eventId}?sortField=password`).set('token', a.token);
      expect(badSort.status).toBe(400);
      const badFilter = await t.http.get(`/api/admin/enrollment/event/${eventId}?filter[secret]=1`).set('token', a.token);
      expect(badFilter.status).toBe(400);
      await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', b.token).expect(404);
    });

    it('counts guests against capacity', async () => {
      const bad = await t.http.put(`/api/admin/enrollment/${enrollmentOf.Ana}/guests`).set('token', a.token).send({ guestCount: -1 });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual({ guestCount: M.guestCountMin });
      await t.http.put(`/api/admin/enrollment/${enrollmentOf.Ana}/guests`).set('token', a.token).send({ guestCount: 2 }).expect(200);
      const event = await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token);
      expect(event.body.seats_taken).toBe(6);
      const tooMany = await t.http.put(`/api/admin/enrollment/${enrollmentOf.Bruno}/guests`).set('token', a.token).send({ guestCount: 25 });
      expect(tooMany.status).toBe(409);
      expect(tooMany.body.message).toBe(M.notEnoughSeats(24));
      await t.http.put(`/api/admin/enrollment/${enrollmentOf.Bruno}/guests`).set('token', a.token).send({ guestCount: 24 }).expect(200);
      await t.http.put(`/api/admin/enrollment/${enrollmentOf.Bruno}/guests`).set('token', a.token).send({ guestCount: 0 }).expect(200);
      await t.http.put(`/api/admin/enrollment/${enrollmentOf.Ana}/guests`).set('token', b.token).send({ guestCount: 1 }).expect(404);
      const capacityBelow = await t.http.put(`/api/admin/events/${eventId}`).set('token', a.token).send({ price: 100, capacity: 5 });
      expect(capacityBelow.status).toBe(409);
      expect(capacityBelow.body.message).toBe(M.capacityBelowSeats(6));
    });

    it('exports the session as enrollments.csv with formulas neutralised', async () => {
      const res = await t.http.post('/api/admin/export/enrollment').set('token', a.token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="enrollments.csv"');
      const lines = res.text.replace(/^\uFEFF/, '').trim().split('\n');
      expect(lines[0]).toBe('"First name","Last name","Email","Phone","Guests","Waiver status","Enrolled at","Order number","Order total","Attendance"');
      expect(lines).toHaveLength(5);
      // Every field quoted; a phone number stays readable; the waiver status is its label.
      expect(lines[1]).toMatch(/^"Ana","Zapata","ana@clay.test","\+1 555 0100","2","N\/A","\d{4}-\d\d-\d\d \d\d:\d\d","\d+","0.00","Not checked in"$/);
      const evil = lines.find((l) => l.includes('Mallory'))!;
      expect(evil.startsWith(`"'=HYPERLINK(""http://evil"")"`)).toBe(true);

      const some = await t.http
        .post('/api/admin/export/enrollment')
        .set('token', a.token)
        .send({ event_id: eventId, enrollment_ids: [enrollmentOf.Carla] })
        .expect(200);
      expect(some.text.trim().split('\n')).toHaveLength(2);
      await t.http.post('/api/admin/export/enrollment').set('token', b.token).send({ event_id: eventId }).expect(404);
    });

    it('removes a student, frees the seat, keeps the order, and only then allows deleting the session', async () => {
      const blocked = await t.http.delete(`/api/admin/events/${eventId}`).set('token', a.token);
      expect(blocked.status).toBe(409);
      expect(blocked.body.message).toBe(M.deleteBlocked);

      await t.http.delete(`/api/admin/enrollment/${enrollmentOf.Ana}`).set('token', b.token).expect(404);
      await t.http.delete(`/api/admin/enrollment/${enrollmentOf.Ana}`).set('token', a.token).expect(204);
      await t.http.delete(`/api/admin/enrollment/${enrollmentOf.Ana}`).set('token', a.token).expect(404);
      const event = await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token);
      expect(event.body).toMatchObject({ enrolled_count: 3, seats_taken: 3 });
      const orders = await t.withEm((em) =>
        em.getConnection().execute(`select total_cents, source from customer_order where student_id = ?`, [ids.Ana]),
      );
      expect(orders).toEqual([{ total_cents: 0, source: 'workbench' }]);
      // Enrolling again after removal is allowed.
      await t.http.post(`/api/admin/orders/enroll/${ids.Ana}`).set('token', a.token).send({ event_id: eventId }).expect(201);

      const page = await t.http.get(`/api/admin/enrollment/event/${eventId}?limit=100`).set('token', a.token);
      for (const e of page.body.enrollments) await t.http.delete(`/api/admin/enrollment/${e.enrollment_id}`).set('token', a.token).expect(204);
      await t.http.delete(`/api/admin/events/${eventId}`).set('token', b.token).expect(404);
      const deleted = await t.http.delete(`/api/admin/events/${eventId}`).set('token', a.token).expect(200);
      expect(deleted.body).toEqual({ activity_id: a.course.activity_id, redirect_to: `/admin/courses/${a.course.activity_id}` });
      await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token).expect(404);
    });
  });

  describe('tags', () => {
    it('creates, lists and edits custom tags; system tags are derived and read-only', async () => {
      const eventId = await scheduleSession(t, a.token, a.course, { capacity: 20 });
      const wheel = await t.http.post('/api/admin/events/tags').set('token', a.token).send({ name: 'Wheel', color: '#aa3300' }).expect(201);
      expect(wheel.body).toMatchObject({ tag_id: expect.any(String), name: 'Wheel', color: '#aa3300', system: false });
      const dup = await t.http.post('/api/admin/events/tags').set('token', a.token).send({ name: 'wheel' });
      expect(dup.status).toBe(409);
      const badColor = await t.http.post('/api/admin/events/tags').set('token', a.token).send({ name: 'Kiln', color: 'red' });
      expect(badColor.body.errors).toEqual({ color: M.tagColor });

      const available = await t.http.get('/api/admin/events/tags').set('token', a.token).expect(200);
      expect(available.body.tags.map((x: { name: string }) => x.name)).toEqual(['Wheel']);
      const otherOrg = await t.http.get('/api/admin/events/tags').set('token', b.token).expect(200);
      expect(otherOrg.body.tags).toEqual([]);

      const set = await t.http
        .put(`/api/admin/events/${eventId}/tags`)
        .set('token', a.token)
        .send({ tags: [wheel.body.tag_id, 'system-hot', 'system-featured'] })
        .expect(200);
      expect(set.body.tags.map((x: { name: string }) => x.name)).toEqual(['Wheel']);

      await t.withEm((em) => em.getConnection().execute('update event set is_featured = true where id = ?', [eventId]));
      for (let i = 0; i < 11; i++) {
        const s = await addStudent(t, a.token);
        await t.http.post(`/api/admin/orders/enroll/${s}`).set('token', a.token).send({ event_id: eventId }).expect(201);
      }
      const tags = await t.http.get(`/api/admin/events/${eventId}/tags`).set('token', a.token).expect(200);
      expect(tags.body.tags.map((x: { name: string; system: boolean }) => [x.name, x.system])).toEqual([
        ['Featured', true],
        ['Hot', true],
        ['Wheel', false],
      ]);

      const system = await t.http.put('/api/admin/tags/system-hot').set('token', a.token).send({ name: 'Cold', color: '#000000' });
      expect(system.status).toBe(400);
      expect(system.body.message).toBe(M.systemTagsReadOnly);
      const renamed = await t.http.put(`/api/admin/tags/${wheel.body.tag_id}`).set('token', a.token).send({ name: 'Wheel work', color: '#aa3301' }).expect(200);
      expect(renamed.body.name).toBe('Wheel work');
      await t.http.put(`/api/admin/tags/${wheel.body.tag_id}`).set('token', b.token).send({ name: 'X', color: '#000000' }).expect(404);
      await t.http.put(`/api/admin/events/${eventId}/tags`).set('token', b.token).send({ tags: [] }).expect(404);
      const bTag = await t.http.post('/api/admin/events/tags').set('token', b.token).send({ name: 'Theirs' }).expect(201);
      await t.http.put(`/api/admin/events/${eventId}/tags`).set('token', a.token).send({ tags: [bTag.body.tag_id] }).expect(404);
    });
  });

  describe('students', () => {
    it('searches students of the caller’s organization only', async () => {
      await addStudent(t, a.token, { first_name: 'Zelda', last_name: 'Fitzgerald', email: 'zelda@jazz.test' });
      const found = await t.http.get('/api/admin/student?search=fitzg').set('token', a.token).expect(200);
      expect(found.body.students.map((s: { first_name: string }) => s.first_name)).toEqual(['Zelda']);
      const other = await t.http.get('/api/admin/student?search=fitzg').set('token', b.token).expect(200);
      expect(other.body.students).toEqual([]);
      await t.http.get(`/api/admin/student/${found.body.students[0].student_id}`).set('token', b.token).expect(404);
      const dup = await t.http.post('/api/admin/student').set('token', a.token).send({ first_name: 'Z', last_name: 'F', email: 'ZELDA@jazz.test' });
      expect(dup.status).toBe(409);
    });
  });
});
