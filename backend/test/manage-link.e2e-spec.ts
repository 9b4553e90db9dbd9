import { addDaysToDate, localDateOf, MANAGE_MESSAGES as M, POLICY_IDS, wallClockToInstant } from '@studio/contracts';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { BookingLinksService } from '../src/modules/booking-links/booking-links.service';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TEST_PASSWORD, TestApp } from './test-app';
import { UsersService } from '../src/modules/identity/users.service';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
type Entry = { points: number; reason: string; balance: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The manage link (issue 23), through the public API as the student's browser calls it and the
 * admin API as the drawer does, with the demo payment provider: every policy branch with the session
 * placed one minute either side of each boundary, the refund in the ledger with its reason and at the
 * provider, points back in proportion, reschedule moving seats and the order line, two concurrent
 * cancels refunding once, tenancy of the token, the owner's override and staff's 403, and Move
 * students all or nothing.
 */
describe('manage link', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let staffToken: string;
  let slug: string;
  let organizationId: string;
  let serial = 0;
  let links: BookingLinksService;
  const courses = new Map<string, Awaited<ReturnType<typeof schedulableCourse>>>();

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-manage-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Manage Ceramics');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    const staff = await t.withEm(() =>
      t.created.app.get(UsersService).create({
        email: `staff.manage.${Date.now()}@example.test`,
        password: TEST_PASSWORD,
        role: 'staff',
        organizationId,
        firstName: 'Sam',
        lastName: 'Staff',
      }),
    );
    staffToken = await t.login(staff.email);
    links = t.created.app.get(BookingLinksService);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function courseWith(cancel: number, reschedule: number) {
    const key = `${cancel}/${reschedule}`;
    if (!courses.has(key))
      courses.set(
        key,
        await schedulableCourse(t, token, 10, { name: `Raku ${key}`, cancel_policy_id: cancel, reschedule_policy_id: reschedule }),
      );
    return courses.get(key)!;
  }

  /** Places the session to start `msFromNow` from now (two hours long). */
  const place = (eventId: string, msFromNow: number) =>
    t.withEm((em) =>
      em
        .getConnection()
        .execute(`update event set starts_at = ?, ends_at = ? where id = ?`, [
          new Date(Date.now() + msFromNow),
          new Date(Date.now() + msFromNow + 2 * HOUR),
          eventId,
        ]),
    );

  const buyer = () => ({ first_name: 'Rosa', last_name: `Buyer${++serial}`, email: `rosa.buyer${serial}.${Date.now()}@example.test` });

  /** A party booked and paid in the store (demo provider); answers the enrollment, its order and its manage token. */
  async function booked(course: { activity_id: string; location_id: string; instructor_id: string }, options: { price?: number; party?: number; capacity?: number; extra?: object; eventId?: string } = {}) {
    const eventId = options.eventId ?? (await scheduleSession(t, token, course, { capacity: options.capacity ?? 6, price: options.price ?? 9000, daysFromNow: 40 }));
    const who = buyer();
    const res = await t.http
      .post(`/api/public/${slug}/checkout`)
      .send({ event_id: eventId, party_size: options.party ?? 1, ...who, ...options.extra })
      .expect(201);
    if (res.body.payment_url) await t.http.post(`${new URL(res.body.payment_url).pathname}/pay`).type('form').send('').expect(200);
    const enrollments = (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments as {
      enrollment_id: string;
      Student: { email: string };
    }[];
    const enrollmentId = enrollments.find((e) => e.Student.email === who.email)!.enrollment_id;
    return { eventId, enrollmentId, orderId: res.body.order_id as string, who, token: await links.tokenFor('enrollment', enrollmentId) };
  }

  const page = (manage: string) => t.http.get(`/api/public/${slug}/bookings/${manage}`);
  const cancel = (manage: string) => t.http.post(`/api/public/${slug}/bookings/${manage}/cancel`);
  const reschedule = (manage: string, body: object) => t.http.post(`/api/public/${slug}/bookings/${manage}/reschedule`).send(body);
  const order = async (orderId: string) => (await t.http.get(`/api/admin/order/${orderId}`).set('token', token).expect(200)).body;
  const seatsLeft = async (activityId: string, eventId: string) =>
    (await t.http.get(`/api/public/${slug}/activities/${activityId}`).expect(200)).body.sessions.find((s: { event_id: string }) => s.event_id === eventId)
      ?.seats_left as number;

  describe('cancel by the student, each policy a minute either side of its boundaries', () => {
    const cases: [string, number, number, number][] = [
      ['Flexible, a minute more than 1 day', POLICY_IDS.flexible, DAY + MINUTE, 9000],
      ['Flexible, a minute less than 1 day', POLICY_IDS.flexible, DAY - MINUTE, 0],
      ['Moderate, a minute more than 5 days', POLICY_IDS.moderate, 5 * DAY + MINUTE, 9000],
      ['Moderate, a minute less than 5 days', POLICY_IDS.moderate, 5 * DAY - MINUTE, 0],
      ['Firm, a minute more than 30 days', POLICY_IDS.firm, 30 * DAY + MINUTE, 9000],
      ['Firm, a minute less than 30 days', POLICY_IDS.firm, 30 * DAY - MINUTE, 4500],
      ['Firm, a minute more than 5 days', POLICY_IDS.firm, 5 * DAY + MINUTE, 4500],
      ['Firm, a minute less than 5 days', POLICY_IDS.firm, 5 * DAY - MINUTE, 0],
    ];
    it.each(cases)('%s', async (_name, policy, before, refund) => {
      const course = await courseWith(policy, POLICY_IDS.agile);
      const b = await booked(course);
      await place(b.eventId, before);
      const shown = (await page(b.token).expect(200)).body;
      expect(shown).toMatchObject({ status: 'active', paid_cents: 9000, cancel: { allowed: true, refund_cents: refund } });

      const after = (await cancel(b.token).expect(200)).body;
      expect(after).toMatchObject({ status: 'cancelled', cancel: { allowed: false } });
      const o = await order(b.orderId);
      if (refund > 0) {
        expect(o.refunds).toEqual([expect.objectContaining({ amount: refund, reason: M.cancelledByStudent, status: 'succeeded', actor: null })]);
        expect(o.refunds[0].provider_refund_id).toMatch(/^\w+/);
        expect(o).toMatchObject({ status: refund === 9000 ? 'refunded' : 'partial_refund', refunded_amount: refund });
        expect(after.refund_status).toBe('made');
      } else {
        expect(o.refunds).toEqual([]);
        expect(o).toMatchObject({ status: 'paid', refunded_amount: 0 });
      }
      // The seat is free again, and the admin's grid no longer lists the student.
      expect(await seatsLeft(course.activity_id, b.eventId)).toBe(6);
      const grid = (await t.http.get(`/api/admin/enrollment/event/${b.eventId}`).set('token', token).expect(200)).body.enrollments;
      expect(grid).toEqual([]);
    });

    it('"Contact the studio" shows no cancel and refuses one; a started session cannot be cancelled', async () => {
      const contact = await booked(await courseWith(POLICY_IDS.noSelfCancel, POLICY_IDS.noSelfReschedule));
      const shown = (await page(contact.token).expect(200)).body;
      expect(shown.cancel).toMatchObject({ allowed: false, policy: { name: 'Contact the studio' } });
      expect((await cancel(contact.token).expect(409)).body.message).toBe(M.cancelNotAllowed);
      expect((await order(contact.orderId)).refunds).toEqual([]);

      const started = await booked(await courseWith(POLICY_IDS.flexible, POLICY_IDS.agile));
      await place(started.eventId, -MINUTE);
      expect((await cancel(started.token).expect(409)).body.message).toBe(M.started);
      expect((await page(started.token).expect(200)).body.status).toBe('active');
    });
  });

  it('gives back the points the order redeemed in proportion to a partial refund', async () => {
    await t.http.put('/api/admin/loyalty-program').set('token', token).send({ status: 'active' }).expect(200);
    const email = `member.${Date.now()}@example.test`;
    const studentId = await addStudent(t, token, { first_name: 'Mina', last_name: 'Member', email });
    await t.http.post(`/api/admin/student/${studentId}/loyalty-balance/set`).set('token', token).send({ amount: 2000 }).expect(200);
    await t.http.post(`/api/public/${slug}/points/code`).send({ email }).expect(202);
    const [mail] = await eventually(() => smtp.to(email), (m) => m.length >= 1);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1];
    const proof = (await t.http.post(`/api/public/${slug}/points/verify`).send({ email, code }).expect(200)).body;
    const course = await courseWith(POLICY_IDS.firm, POLICY_IDS.agile);
    const eventId = await scheduleSession(t, token, course, { capacity: 6, price: 10000, daysFromNow: 40 });
    const res = await t.http
      .post(`/api/public/${slug}/checkout`)
      .send({ event_id: eventId, party_size: 1, first_name: 'Mina', last_name: 'Member', email, points_token: proof.points_token, redeem_points: 1000 })
      .expect(201);
    expect(res.body.total_cents).toBe(9000);
    await t.http.post(`${new URL(res.body.payment_url).pathname}/pay`).type('form').send('').expect(200);
    const enrollmentId = (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments[0].enrollment_id;
    await place(eventId, 12 * DAY);
    await cancel(await links.tokenFor('enrollment', enrollmentId)).expect(200);
    expect((await order(res.body.order_id)).refunds[0]).toMatchObject({ amount: 4500, reason: M.cancelledByStudent });
    await t.settle();
    const entries = (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body.LoyaltyBalance as Entry[];
    // 1,000 redeemed, half the price back: 500 points back.
    expect(entries[0]).toMatchObject({ reason: 'redemption_returned', points: 500, balance: 1500 });
  });

  it('refunds once when two cancels race, and a retried cancel changes nothing', async () => {
    const course = await courseWith(POLICY_IDS.flexible, POLICY_IDS.agile);
    const b = await booked(course);
    const answers = await Promise.all([cancel(b.token), cancel(b.token), cancel(b.token)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await cancel(b.token).expect(200);
    const o = await order(b.orderId);
    expect(o.refunds).toHaveLength(1);
    expect(o).toMatchObject({ status: 'refunded', refunded_amount: 9000 });
    expect(await seatsLeft(course.activity_id, b.eventId)).toBe(6);
  });

  describe('reschedule by the student', () => {
    const cases: [string, number, number, boolean][] = [
      ['Agile, a minute more than 24 hours', POLICY_IDS.agile, DAY + MINUTE, true],
      ['Agile, a minute less than 24 hours', POLICY_IDS.agile, DAY - MINUTE, false],
      ['Fixed, a minute more than 5 days', POLICY_IDS.fixed, 5 * DAY + MINUTE, true],
      ['Fixed, a minute less than 5 days', POLICY_IDS.fixed, 5 * DAY - MINUTE, false],
    ];
    it.each(cases)('%s', async (_name, policy, before, free) => {
      const course = await courseWith(POLICY_IDS.firm, policy);
      const b = await booked(course, { party: 2 });
      const target = await scheduleSession(t, token, course, { capacity: 4, price: 9000, daysFromNow: 45 });
      await place(b.eventId, before);
      const shown = (await page(b.token).expect(200)).body;
      expect(shown.reschedule.allowed).toBe(free);
      if (!free) {
        const res = await reschedule(b.token, { event_id: target }).expect(409);
        expect(res.body.message).toBe(M.rescheduleNotAllowed(shown.reschedule.policy.rule));
        expect(await seatsLeft(course.activity_id, target)).toBe(4);
        return;
      }
      expect(shown.move_targets.map((s: { event_id: string }) => s.event_id)).toContain(target);
      const moved = (await reschedule(b.token, { event_id: target }).expect(200)).body;
      expect(moved.status).toBe('active');
      // The seats moved (the party of two), the order line points at the new session, no refund.
      expect(await seatsLeft(course.activity_id, target)).toBe(2);
      const o = await order(b.orderId);
      expect(o.lines).toEqual([expect.objectContaining({ kind: 'seat', event_id: target, quantity: 2 })]);
      expect(o).toMatchObject({ status: 'paid', refunded_amount: 0 });
      // The student is mailed the new time with a calendar file and the link.
      const mails = await eventually(() => smtp.to(b.who.email), (m) => m.some((x) => x.subject?.startsWith('New time')));
      const mail = mails.find((x) => x.subject?.startsWith('New time'))!;
      expect(mail.text).toContain(`Manage your booking: http://studio.test/s/${slug}/booking/${b.token}`);
      expect(mail.attachments.find((a) => a.filename === 'booking.ics')?.content.toString()).toMatch(/BEGIN:VEVENT/);
      // A retry (to where it already is) changes nothing.
      await reschedule(b.token, { event_id: target }).expect(200);
      expect(await seatsLeft(course.activity_id, target)).toBe(2);
    });

    it('refuses a full session, another course, and "Contact the studio"', async () => {
      const course = await courseWith(POLICY_IDS.firm, POLICY_IDS.agile);
      const b = await booked(course, { party: 2 });
      const small = await scheduleSession(t, token, course, { capacity: 2, price: 9000, daysFromNow: 46 });
      await booked(course, { eventId: small });
      expect((await reschedule(b.token, { event_id: small }).expect(409)).body.message).toBe(M.noRoom(2, 1));
      const other = await courseWith(POLICY_IDS.flexible, POLICY_IDS.fixed);
      const elsewhere = await scheduleSession(t, token, other, { capacity: 9, daysFromNow: 47 });
      expect((await reschedule(b.token, { event_id: elsewhere }).expect(409)).body.message).toBe(M.otherCourse);
      expect((await reschedule(b.token, {}).expect(400)).body.message).toBeTruthy();

      const contact = await booked(await courseWith(POLICY_IDS.noSelfCancel, POLICY_IDS.noSelfReschedule));
      expect((await reschedule(contact.token, { event_id: small }).expect(409)).body.message).toBe(M.rescheduleContact);
    });
  });

  it('an appointment: moved to another free time within the policy, then cancelled with its refund', async () => {
    const zone = 'America/New_York';
    const refs = await courseRefs(t, token);
    const days = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [{ start: '09:00', end: '17:00' }]]));
    await t.http.put(`/api/admin/instructor/${refs.instructor_id}/availability`).set('token', token).send({ weekly: days }).expect(200);
    const activityId = (
      await t.http
        .post('/api/admin/activities')
        .set('token', token)
        .send({
          ...validCourse(refs),
          name: 'Wheel lesson',
          activity_type: 'appointment',
          single_party: true,
          price: 5000,
          capacity: 2,
          duration_mins: 60,
          start_time_increments_mins: 60,
          cancel_policy_id: POLICY_IDS.flexible,
          reschedule_policy_id: POLICY_IDS.agile,
        })
        .expect(201)
    ).body.activity_id as string;
    const day = addDaysToDate(localDateOf(new Date(), zone), 10);
    const first = wallClockToInstant(day, '10:00', zone)!.toISOString();
    const later = wallClockToInstant(day, '14:00', zone)!.toISOString();
    const who = buyer();
    const res = await t.http.post(`/api/public/${slug}/checkout`).send({ activity_id: activityId, starts_at: first, party_size: 1, ...who }).expect(201);
    await t.http.post(`${new URL(res.body.payment_url).pathname}/pay`).type('form').send('').expect(200);
    const appointmentId = (await order(res.body.order_id)).appointment.appointment_id as string;
    const manage = await links.tokenFor('appointment', appointmentId);
    const [mail] = await eventually(() => smtp.to(who.email), (m) => m.some((x) => x.subject?.startsWith("You're booked")));
    expect(mail.text).toContain(`Manage your booking: http://studio.test/s/${slug}/booking/${manage}`);

    expect((await page(manage).expect(200)).body).toMatchObject({ kind: 'appointment', starts_at: first, reschedule: { allowed: true } });
    await reschedule(manage, { event_id: '7d3f5e2a-1b4c-4d6e-8f90-a1b2c3d4e5f6' }).expect(400);
    expect((await reschedule(manage, { starts_at: later }).expect(200)).body.starts_at).toBe(later);
    await eventually(() => smtp.to(who.email), (m) => m.some((x) => x.subject?.startsWith('New time') && (x.text ?? '').includes('Manage your booking')));

    const cancelled = (await cancel(manage).expect(200)).body;
    expect(cancelled).toMatchObject({ status: 'cancelled', refunded_cents: 5000 });
    expect((await order(res.body.order_id)).refunds).toEqual([expect.objectContaining({ amount: 5000, reason: M.cancelledByStudent })]);
    // Its time is free again: another buyer books it.
    await t.http.post(`/api/public/${slug}/checkout`).send({ activity_id: activityId, starts_at: later, party_size: 1, ...buyer() }).expect(201);
  });

  describe('the token', () => {
    it('carries the link in the confirmation mail; a tampered, unknown or other store’s token is 404 and changes nothing', async () => {
      const course = await courseWith(POLICY_IDS.flexible, POLICY_IDS.agile);
      const b = await booked(course);
      const [mail] = await eventually(() => smtp.to(b.who.email), (m) => m.some((x) => x.subject?.startsWith("You're booked")));
      const url = `http://studio.test/s/${slug}/booking/${b.token}`;
      expect(mail.text).toContain(`Manage your booking: ${url}`);
      expect(mail.html).toContain(`href="${url}"`);

      const other = await booked(course);
      const last = b.token.at(-1) === 'A' ? 'B' : 'A';
      const tampered = b.token.slice(0, -1) + last;
      const swapped = `e_${other.enrollmentId}_${b.token.slice(-43)}`;
      for (const bad of [tampered, swapped, 'e_not-a-token', 'x'.repeat(500)]) {
        expect((await page(bad).expect(404)).body).toEqual({ statusCode: 404, message: M.notFound });
        await cancel(bad).expect(404);
        await reschedule(bad, { event_id: other.eventId }).expect(404);
      }
      // Another organization's store does not know the token.
      const elsewhere = await t.organizationWithUser('owner', 'Elsewhere Glass');
      const theirSlug = (await t.http.get('/api/admin/org').set('token', elsewhere.token).expect(200)).body.slug;
      await t.http.get(`/api/public/${theirSlug}/bookings/${b.token}`).expect(404);
      await t.http.post(`/api/public/${theirSlug}/bookings/${b.token}/cancel`).expect(404);
      // Nothing changed: both still booked, nothing refunded.
      expect((await page(b.token).expect(200)).body.status).toBe('active');
      expect((await page(other.token).expect(200)).body.status).toBe('active');
      expect((await order(b.orderId)).refunds).toEqual([]);
      // A token reads its own booking only.
      expect((await page(other.token).expect(200)).body.party_size).toBe(1);

      // The store's page itself (server-rendered): the booking for its link, nothing for a tampered one.
      const html = await t.http.get(`/s/${slug}/booking/${b.token}`).expect(200);
      expect(html.text).toContain('Raku 1/4');
      expect(html.text).toContain('Cancel booking');
      expect(html.text).toContain('Flexible: Full refund until 1 day before start.');
      const refused = await t.http.get(`/s/${slug}/booking/${tampered}`).expect(404);
      expect(refused.text).toContain(M.notFound);
      expect(refused.text).not.toContain('Raku');
    });

    it('survives a restart: the key made once is kept in the database', async () => {
      const course = await courseWith(POLICY_IDS.flexible, POLICY_IDS.agile);
      const b = await booked(course);
      const fresh = new BookingLinksService(
        t.created.app.get(BookingLinksService)['em'],
        t.created.app.get(BookingLinksService)['organizations'],
        t.config,
      );
      expect(await fresh.tokenFor('enrollment', b.enrollmentId)).toBe(b.token);
      expect(await fresh.verify(b.token)).toEqual({ kind: 'enrollment', id: b.enrollmentId });
    });
  });

  describe('the admin', () => {
    it('shows the policy’s figure; staff cancels by the policy, an owner overrides, staff’s override is 403', async () => {
      const course = await courseWith(POLICY_IDS.firm, POLICY_IDS.agile);
      const b = await booked(course);
      await place(b.eventId, 12 * DAY + 10 * MINUTE);
      const terms = (await t.http.get(`/api/admin/enrollment/${b.enrollmentId}/booking`).set('token', staffToken).expect(200)).body;
      expect(terms.cancel.figure).toBe('Firm: 50% refund ($45.00) — 12 days before start');
      expect(terms.can_override).toBe(false);
      const forbidden = await t.http.post(`/api/admin/enrollment/${b.enrollmentId}/booking/cancel`).set('token', staffToken).send({ refund_amount: 9000 }).expect(403);
      expect(forbidden.body.message).toBe(M.ownerOnly);
      expect((await order(b.orderId)).refunds).toEqual([]);
      await t.http.post(`/api/admin/enrollment/${b.enrollmentId}/booking/cancel`).set('token', token).send({ refund_amount: 9001 }).expect(400);
      await t.http.post(`/api/admin/enrollment/${b.enrollmentId}/booking/cancel`).set('token', token).send({ refund_amount: 8000 }).expect(204);
      expect((await order(b.orderId)).refunds).toEqual([expect.objectContaining({ amount: 8000, reason: M.cancelledByStudio })]);

      const s = await booked(course);
      await place(s.eventId, 12 * DAY + 10 * MINUTE);
      await t.http.post(`/api/admin/enrollment/${s.enrollmentId}/booking/cancel`).set('token', staffToken).send({}).expect(204);
      expect((await order(s.orderId)).refunds).toEqual([expect.objectContaining({ amount: 4500 })]);
      // Another organization's booking is 404.
      const elsewhere = await t.organizationWithUser('owner', 'Other Kiln');
      await t.http.get(`/api/admin/enrollment/${b.enrollmentId}/booking`).set('token', elsewhere.token).expect(404);
    });

    it('Modify booking past the policy: 409 for staff without override, 403 with it, the owner’s override moves it', async () => {
      const course = await courseWith(POLICY_IDS.firm, POLICY_IDS.fixed);
      const b = await booked(course);
      const target = await scheduleSession(t, token, course, { capacity: 4, daysFromNow: 48 });
      await place(b.eventId, 2 * DAY);
      const path = `/api/admin/enrollment/${b.enrollmentId}/booking/reschedule`;
      expect((await t.http.post(path).set('token', staffToken).send({ event_id: target }).expect(409)).body.message).toBe(
        M.rescheduleNotAllowed('Free until 5 days before'),
      );
      expect((await t.http.post(path).set('token', staffToken).send({ event_id: target, override: true }).expect(403)).body.message).toBe(M.ownerOnly);
      await t.http.post(path).set('token', token).send({ event_id: target, override: true }).expect(204);
      expect((await order(b.orderId)).lines[0].event_id).toBe(target);
    });

    it('moves one or all students to another session with room; all or nothing when it does not fit', async () => {
      const course = await courseWith(POLICY_IDS.firm, POLICY_IDS.agile);
      const from = await scheduleSession(t, token, course, { capacity: 6, price: 9000, daysFromNow: 50 });
      const one = await booked(course, { eventId: from, party: 2 });
      const two = await booked(course, { eventId: from });
      const three = await booked(course, { eventId: from });
      const small = await scheduleSession(t, token, course, { capacity: 3, daysFromNow: 51 });
      const big = await scheduleSession(t, token, course, { capacity: 8, daysFromNow: 52 });
      const move = (to: string, ids?: string[]) =>
        t.http.post(`/api/admin/events/${from}/move-students`).set('token', token).send({ to_event_id: to, ...(ids && { enrollment_ids: ids }) });
      // All four seats do not fit in three: nobody moves.
      expect((await move(small).expect(409)).body.message).toBe(M.moveAllNoRoom(4, 3));
      expect(await seatsLeft(course.activity_id, from)).toBe(2);
      expect(await seatsLeft(course.activity_id, small)).toBe(3);
      // One student (with a guest) fits.
      expect((await move(small, [one.enrollmentId]).expect(200)).body).toEqual({ moved: 1, message: M.movedDone(1) });
      expect(await seatsLeft(course.activity_id, small)).toBe(1);
      expect((await order(one.orderId)).lines[0].event_id).toBe(small);
      // The rest, all at once.
      expect((await move(big).expect(200)).body.moved).toBe(2);
      expect(await seatsLeft(course.activity_id, from)).toBe(6);
      expect(await seatsLeft(course.activity_id, big)).toBe(6);
      for (const b of [two, three]) expect((await page(b.token).expect(200)).body.starts_at).toBe(
        (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200)).body.sessions.find((s: { event_id: string }) => s.event_id === big).starts_at,
      );
      void organizationId;
    });
  });
});
