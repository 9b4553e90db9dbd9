import {
  addDaysToDate,
  ADMIN_APPOINTMENT_HOLD_MINUTES,
  APPOINTMENT_MESSAGES as M,
  localDateOf,
  REFUND_MESSAGES,
  wallClockToInstant,
} from '@studio/contracts';
import type { ParsedMail } from 'mailparser';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { PaymentEvents } from '../src/modules/payments/payment-events';
import { APPOINTMENT_MAILS_QUEUE } from '../src/modules/scheduling/appointment-mailer';
import { AppointmentSlotsService } from '../src/modules/scheduling/appointment-slots.service';
import { FakeZoom, startFakeZoom } from '../src/sync-fakes/zoom';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, scheduleSession } from './support/scheduling-fixtures';
import { connect, fakeToken, mappingOf } from './support/sync-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

const MIN = 60_000;
const ZONE = 'America/New_York'; // the fixtures' location
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const everyDay = (ranges: { start: string; end: string }[]) => Object.fromEntries(WEEKDAYS.map((d) => [d, ranges]));
/** A local date (in the location's zone) n days after today's. */
const dayAhead = (n: number) => addDaysToDate(localDateOf(new Date(), ZONE), n);
const at = (date: string, time: string) => wallClockToInstant(date, time, ZONE)!.toISOString();
const icsOf = (mail: ParsedMail) => mail.attachments.find((a) => a.filename === 'appointment.ics')?.content.toString() ?? '';
/** DTSTART as the calendar file writes a UTC instant: 20270105T150000Z. */
const icsStamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * The admin's appointments (issue 22) over the API: hold a free time for a student, enroll directly
 * or send a payment link with {appointment_id} (paid → booked and confirmed with a calendar file,
 * expired → the time free again), list and read, move (mail with the updated calendar file), cancel
 * with and without the removal's refund, the calendar of sessions and appointments, an online
 * appointment's Zoom meeting, every refusal's message, and tenancy.
 */
describe('admin appointments', () => {
  let smtp: Smtp;
  let zoom: FakeZoom;
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let other: { token: string; course: string; student: string };
  let refs: Awaited<ReturnType<typeof courseRefs>>;
  /** 60 minutes every 30, 15 minutes after, capacity 3, $50.00. */
  let course: string;
  /** Same instructor, a location marked online (Zoom meetings). */
  let online: { course: string; location: string };
  let scheduled: string;

  const createCourse = async (overrides: Record<string, unknown>, as = token, r = refs) =>
    (
      await t.http
        .post('/api/admin/activities')
        .set('token', as)
        .send({ ...validCourse(r), activity_type: 'appointment', single_party: true, ...overrides })
        .expect(201)
    ).body.activity_id as string;
  const hold = (courseId: string, body: Record<string, unknown>, as = token) =>
    t.http.post(`/api/admin/activities/${courseId}/appointments`).set('token', as).send(body);
  const get = (id: string, as = token) => t.http.get(`/api/admin/appointments/${id}`).set('token', as);
  const enroll = (studentId: string, appointmentId: string, as = token) =>
    t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', as).send({ appointment_id: appointmentId });
  const invoice = (studentId: string, appointmentId: string, as = token) =>
    t.http.post(`/api/admin/orders/invoice/${studentId}`).set('token', as).send({ appointment_id: appointmentId });
  const move = (id: string, body: Record<string, unknown>, as = token) => t.http.post(`/api/admin/appointments/${id}/move`).set('token', as).send(body);
  const cancel = (id: string, body: Record<string, unknown> = {}, as = token) => t.http.delete(`/api/admin/appointments/${id}`).set('token', as).send(body);
  const order = async (id: string) => (await t.http.get(`/api/admin/order/${id}`).set('token', token).expect(200)).body;
  const emailOf = async (studentId: string) => (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body.email as string;
  /** The starts the admin's slots call offers for the course on a local date. */
  const startsOn = async (courseId: string, date: string) =>
    (
      (await t.http.get(`/api/admin/activities/${courseId}/slots`).set('token', token).query({ from: at(date, '00:00'), to: at(date, '24:00') }).expect(200)).body
        .slots as { starts_at: string }[]
    ).map((s) => s.starts_at);
  const pagePath = (url: string) => new URL(url).pathname;
  /** A held appointment of `course` for a new student at `time` on `date`. */
  const held = async (date: string, time: string, courseId = course) => {
    const student = await addStudent(t, token);
    const res = await hold(courseId, { student_id: student, starts_at: at(date, time) }).expect(201);
    return { student, id: res.body.id as string, body: res.body };
  };
  const booked = async (date: string, time: string, courseId = course) => {
    const h = await held(date, time, courseId);
    await enroll(h.student, h.id).expect(201);
    return h;
  };
  const mailsTo = async (studentId: string, subject: RegExp, count = 1) =>
    eventually(async () => smtp.to(await emailOf(studentId)).filter((m) => subject.test(m.subject ?? '')), (m) => m.length >= count);

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    zoom = await startFakeZoom();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      SYNC_TOKEN_KEY: randomBytes(32).toString('base64'),
      ZOOM_BASE_URL: zoom.url,
    });
    const owner = await t.organizationWithUser('owner', 'Kiln Studio');
    token = owner.token;
    organizationId = owner.organization.id;
    refs = await courseRefs(t, token);
    await t.http.put(`/api/admin/instructor/${refs.instructor_id}/availability`).set('token', token).send({ weekly: everyDay([{ start: '08:00', end: '20:00' }]) }).expect(200);
    course = await createCourse({ name: 'Wheel lesson', price: 5000, capacity: 3, duration_mins: 60, start_time_increments_mins: 30, buffer_after_mins: 15 });
    const place = await t.http.post('/api/admin/location').set('token', token).send({ name: 'Live room', address: 'From the studio', timezone: ZONE, online: true }).expect(201);
    online = {
      location: place.body.location_id,
      course: await createCourse({ name: 'Glaze consult', price: 3000, duration_mins: 30, start_time_increments_mins: 30, location_id: place.body.location_id }),
    };
    scheduled = (await t.http.post('/api/admin/activities').set('token', token).send(validCourse(refs)).expect(201)).body.activity_id;

    const second = await t.organizationWithUser('owner', 'Glass House');
    const refsB = await courseRefs(t, second.token);
    await t.http.put(`/api/admin/instructor/${refsB.instructor_id}/availability`).set('token', second.token).send({ weekly: everyDay([{ start: '08:00', end: '20:00' }]) }).expect(200);
    other = { token: second.token, course: await createCourse({}, second.token, refsB), student: await addStudent(t, second.token) };
    await connect(t, organizationId, 'zoom', await fakeToken(zoom.url, { id: 'fake-zoom-client', secret: 'fake-zoom-secret' }, 'basic'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await zoom?.close();
    await smtp?.close();
  });

  it('holds a free time for a student: the appointment answered held for 15 minutes, the time no longer offered', async () => {
    const date = dayAhead(3);
    const student = await addStudent(t, token, { first_name: 'Ana', last_name: 'Lopez' });
    expect(await startsOn(course, date)).toContain(at(date, '10:00'));
    const before = Date.now();
    const res = await hold(course, { student_id: student, starts_at: at(date, '10:00'), guest_count: 2 }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      activity_id: course,
      course_name: 'Wheel lesson',
      instructor_id: refs.instructor_id,
      instructor_name: 'Mira',
      location_id: refs.location_id,
      location_name: 'Main studio',
      time_zone: ZONE,
      student: { id: student, first_name: 'Ana', last_name: 'Lopez', email: expect.any(String) },
      guest_count: 2,
      status: 'held',
      starts_at: at(date, '10:00'),
      ends_at: at(date, '11:00'),
      hold_expires_at: expect.any(String),
      order: null,
      paid_with: null,
      meeting_url: null,
      checked_in_at: null,
      attendance: 'not_checked_in',
    });
    const expires = Date.parse(res.body.hold_expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(ADMIN_APPOINTMENT_HOLD_MINUTES * MIN - 1000);
    expect(expires - before).toBeLessThanOrEqual(ADMIN_APPOINTMENT_HOLD_MINUTES * MIN + 5000);
    expect((await get(res.body.id).expect(200)).body).toEqual(res.body);
    // 10:00–11:00 plus 15 minutes after: 9:30 and 10:30 overlap it; 11:30 is free again (11:15 is off the grid).
    const starts = await startsOn(course, date);
    expect(starts).not.toContain(at(date, '09:30'));
    expect(starts).not.toContain(at(date, '10:00'));
    expect(starts).not.toContain(at(date, '10:30'));
    expect(starts).toContain(at(date, '11:30'));
    // Same instructor, other course: busy too.
    expect(await startsOn(online.course, date)).not.toContain(at(date, '10:30'));
  });

  it('refuses a time the engine does not offer, a race lost at the database, a party too large, with the messages', async () => {
    const date = dayAhead(4);
    const student = await addStudent(t, token);
    const refused = async (body: Record<string, unknown>, status: number) => (await hold(course, { student_id: student, ...body }).expect(status)).body;
    // Outside the hours, off the grid, past the booking window, in the past.
    for (const starts_at of [at(date, '07:00'), at(date, '10:10'), at(dayAhead(90), '10:00'), at(dayAhead(-1), '10:00')])
      expect(await refused({ starts_at }, 409)).toMatchObject({ message: M.notOffered, errors: { starts_at: M.notOffered } });
    // Busy: another student holds 9:00.
    await hold(course, { student_id: await addStudent(t, token), starts_at: at(date, '09:00') }).expect(201);
    expect((await refused({ starts_at: at(date, '09:30') }, 409)).message).toBe(M.notOffered);
    // The check passed before a concurrent hold committed: the exclusion constraint refuses it.
    const slots = t.created.app.get(AppointmentSlotsService);
    const spy = jest.spyOn(slots, 'offered').mockResolvedValueOnce(true);
    try {
      expect((await refused({ starts_at: at(date, '09:30') }, 409)).message).toBe(M.taken);
    } finally {
      spy.mockRestore();
    }
    // The party (student and guests) within the course's capacity of 3.
    expect(await refused({ starts_at: at(date, '14:00'), guest_count: 3 }, 409)).toMatchObject({ message: M.partyTooLarge(3) });
    await hold(course, { student_id: student, starts_at: at(date, '14:00'), guest_count: 2 }).expect(201);
    // Bad input: 400 with the field's message.
    expect((await refused({ starts_at: 'tomorrow at ten' }, 400)).errors.starts_at).toBe(M.startsAt);
    expect((await refused({ starts_at: at(date, '16:00'), guest_count: -1 }, 400)).errors.guest_count).toBe(M.guestCount);
    expect((await hold(course, { starts_at: at(date, '16:00') }).expect(400)).body.errors.student_id).toBe(M.student);
    // A scheduled course.
    expect((await hold(scheduled, { student_id: student, starts_at: at(date, '16:00') }).expect(400)).body.message).toBe(M.notAppointmentCourse);
  });

  it("keeps organizations apart: another organization's course, student and appointment answer 404", async () => {
    const date = dayAhead(5);
    const mine = await held(date, '09:00');
    expect((await hold(other.course, { student_id: mine.student, starts_at: at(date, '10:00') }).expect(404)).body.message).toBe(M.courseNotFound);
    expect((await hold(course, { student_id: other.student, starts_at: at(date, '12:00') }).expect(404)).body.message).toBe('Student not found');
    await get(mine.id, other.token).expect(404);
    await move(mine.id, { starts_at: at(date, '12:00') }, other.token).expect(404);
    await cancel(mine.id, {}, other.token).expect(404);
    await enroll(other.student, mine.id, other.token).expect(404);
    await invoice(other.student, mine.id, other.token).expect(404);
    await t.http.get(`/api/admin/activities/${course}/appointments`).set('token', other.token).expect(404);
    expect((await get(mine.id).expect(200)).body.status).toBe('held');
  });

  it('enrolls directly: booked, a zero-total workbench order, the confirmation mailed with a calendar file', async () => {
    const date = dayAhead(6);
    const h = await held(date, '13:00');
    const res = await enroll(h.student, h.id).expect(201);
    expect(res.body).toEqual({ enrollment_id: null, appointment_id: h.id, order_id: expect.any(String), order_number: expect.any(Number), total: 0, source: 'workbench' });
    const a = (await get(h.id).expect(200)).body;
    expect(a).toMatchObject({ status: 'booked', hold_expires_at: null, order: { id: res.body.order_id, order_number: res.body.order_number, status: 'paid', total: 0 } });
    const o = await order(res.body.order_id);
    expect(o).toMatchObject({
      status: 'paid',
      total: 0,
      source: 'workbench',
      appointment: { appointment_id: h.id, activity_id: course, course_name: 'Wheel lesson', starts_at: at(date, '13:00'), ends_at: at(date, '14:00'), time_zone: ZONE, status: 'booked' },
    });
    expect(o.lines).toEqual([expect.objectContaining({ kind: 'appointment', event_id: null, unit_price: 0, quantity: 1 })]);

    const [mail] = await mailsTo(h.student, /You're booked/);
    expect(mail.subject).toBe("You're booked: Wheel lesson");
    expect(mail.text).toContain('1:00 PM E'); // the location's zone, named (EST or EDT)
    expect(mail.text).toContain('Where: Main studio, 12 Kiln Street, Brooklyn, NY');
    const ics = icsOf(mail);
    expect(ics).toContain(`UID:appointment-${h.id}@studio`);
    expect(ics).toContain(`DTSTART:${icsStamp(at(date, '13:00'))}`);
    expect(ics).toContain('SEQUENCE:0');
  });

  it('refuses enroll and invoice for another student, an ordered, cancelled or expired appointment, with the messages', async () => {
    const date = dayAhead(7);
    const h = await held(date, '09:00');
    const stranger = await addStudent(t, token);
    expect((await enroll(stranger, h.id).expect(409)).body.message).toBe(M.otherStudent);
    expect((await invoice(stranger, h.id).expect(409)).body.message).toBe(M.otherStudent);
    await enroll(h.student, h.id).expect(201);
    expect((await enroll(h.student, h.id).expect(409)).body.message).toBe(M.alreadyOrdered);
    expect((await invoice(h.student, h.id).expect(409)).body.message).toBe(M.alreadyOrdered);

    const gone = await held(date, '12:00');
    await cancel(gone.id).expect(204);
    expect((await enroll(gone.student, gone.id).expect(409)).body.message).toBe(M.notHeld);

    const late = await held(date, '15:00');
    await t.withEm((em) => em.getConnection().execute(`update appointment set hold_expires_at = ? where id = ?`, [new Date(Date.now() - 1000), late.id]));
    expect((await enroll(late.student, late.id).expect(409)).body.message).toBe(M.holdExpired);
    expect((await invoice(late.student, late.id).expect(409)).body.message).toBe(M.holdExpired);

    await enroll(h.student, '00000000-0000-4000-8000-000000000000').expect(404);
    // Neither or both of event_id and appointment_id.
    await t.http.post(`/api/admin/orders/enroll/${h.student}`).set('token', token).send({}).expect(400);
  });

  it('sends a payment link: the order pending at the course price, the time held as long as the link; paid → booked and confirmed', async () => {
    const date = dayAhead(8);
    const h = await held(date, '10:00');
    const link = (await invoice(h.student, h.id).expect(201)).body;
    const a = (await get(h.id).expect(200)).body;
    expect(a).toMatchObject({ status: 'held', hold_expires_at: link.expires_at, order: { id: link.order_id, status: 'pending', total: 5000 } });
    const o = await order(link.order_id);
    expect(o).toMatchObject({ status: 'pending', total: 5000, appointment: { appointment_id: h.id, status: 'held' } });
    expect(o.lines).toEqual([expect.objectContaining({ kind: 'appointment', unit_price: 5000, quantity: 1, total: 5000 })]);

    const [linkMail] = await mailsTo(h.student, /payment link/);
    expect(linkMail.text).toContain('Wheel lesson with Mira');
    expect(linkMail.text).toContain('10:00 AM E');
    expect(linkMail.text).toContain('$50.00');
    expect(linkMail.text).toContain(link.url);

    await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('').expect(200);
    expect((await get(h.id).expect(200)).body).toMatchObject({ status: 'booked', hold_expires_at: null, order: { status: 'paid' } });
    const [mail] = await mailsTo(h.student, /You're booked/);
    expect(mail.text).toContain('Order #');
    expect(icsOf(mail)).toContain(`DTSTART:${icsStamp(at(date, '10:00'))}`);
    // A free course has nothing to pay.
    const free = await createCourse({ name: 'Free consult', priceType: 'free', duration_mins: 30 });
    const f = await held(date, '16:00', free);
    expect((await invoice(f.student, f.id).expect(409)).body.message).toBe(M.freeCourse);
    expect((await get(f.id).expect(200)).body).toMatchObject({ status: 'held', order: null });
  });

  it('a payment link that expires unpaid: the order failed, the time offered again', async () => {
    const date = dayAhead(9);
    const h = await held(date, '11:00');
    const link = (await invoice(h.student, h.id).expect(201)).body;
    expect(await startsOn(course, date)).not.toContain(at(date, '11:00'));
    const sessionId = pagePath(link.url).split('/').pop()!;
    await t.redeliver(t.created.app.get(PaymentEvents), { type: 'checkout.expired', provider: 'demo', sessionId, orderId: link.order_id, organizationId });
    expect((await order(link.order_id)).status).toBe('failed');
    expect((await get(h.id).expect(200)).body.status).toBe('cancelled');
    expect(await startsOn(course, date)).toContain(at(date, '11:00'));
  });

  it('moves a booked appointment: the old time offered again, the student mailed the new time with the same UID and a higher SEQUENCE', async () => {
    const date = dayAhead(10);
    const h = await booked(date, '09:00');
    // Its own time is not busy for it: 9:30 overlaps 9:00–10:15 and is allowed.
    const res = await move(h.id, { starts_at: at(date, '09:30') }).expect(200);
    expect(res.body).toMatchObject({ id: h.id, status: 'booked', starts_at: at(date, '09:30'), ends_at: at(date, '10:30') });
    const [first] = await mailsTo(h.student, /New time/);
    expect(first.text).toContain('9:30 AM E');
    expect(icsOf(first)).toContain(`UID:appointment-${h.id}@studio`);
    expect(icsOf(first)).toContain('SEQUENCE:1');
    expect(icsOf(first)).toContain(`DTSTART:${icsStamp(at(date, '09:30'))}`);

    await move(h.id, { starts_at: at(date, '15:00') }).expect(200);
    const starts = await startsOn(course, date);
    expect(starts).toContain(at(date, '09:00'));
    expect(starts).not.toContain(at(date, '15:00'));
    const moved = await mailsTo(h.student, /New time/, 2);
    expect(icsOf(moved[1])).toContain('SEQUENCE:2');

    // notify: false: moved, nobody mailed.
    await move(h.id, { starts_at: at(date, '17:00'), notify: false }).expect(200);
    await t.idle();
    expect(smtp.to(await emailOf(h.student)).filter((m) => /New time/.test(m.subject ?? ''))).toHaveLength(2);

    // Refusals: a time taken by another appointment, off the grid, a cancelled appointment, bad input.
    await booked(date, '12:00');
    expect((await move(h.id, { starts_at: at(date, '12:00') }).expect(409)).body.message).toBe(M.notOffered);
    expect((await move(h.id, { starts_at: at(date, '12:10') }).expect(409)).body.message).toBe(M.notOffered);
    expect((await move(h.id, { starts_at: 'noon' }).expect(400)).body.errors.starts_at).toBe(M.startsAt);
    await cancel(h.id).expect(204);
    expect((await move(h.id, { starts_at: at(date, '09:00') }).expect(409)).body.message).toBe(M.cancelled);
  });

  it('a move that loses the race at the database answers taken', async () => {
    const date = dayAhead(11);
    const h = await booked(date, '09:00');
    await booked(date, '12:00');
    const spy = jest.spyOn(t.created.app.get(AppointmentSlotsService), 'offered').mockResolvedValueOnce(true);
    try {
      expect((await move(h.id, { starts_at: at(date, '12:00') }).expect(409)).body.message).toBe(M.taken);
    } finally {
      spy.mockRestore();
    }
    expect((await get(h.id).expect(200)).body.starts_at).toBe(at(date, '09:00'));
  });

  it('cancels without a refund: the time free at once, the student mailed the cancellation; twice is refused', async () => {
    const date = dayAhead(12);
    const h = await booked(date, '10:00');
    expect(await startsOn(course, date)).not.toContain(at(date, '10:00'));
    await cancel(h.id).expect(204);
    expect((await get(h.id).expect(200)).body.status).toBe('cancelled');
    expect(await startsOn(course, date)).toContain(at(date, '10:00'));
    const [mail] = await mailsTo(h.student, /Cancelled/);
    expect(mail.text).toContain('10:00 AM E');
    expect(icsOf(mail)).toContain('METHOD:CANCEL');
    expect((await cancel(h.id).expect(409)).body.message).toBe(M.cancelled);
    // notify: false.
    const quiet = await booked(date, '14:00');
    await cancel(quiet.id, { notify: false }).expect(204);
    await t.idle();
    expect(smtp.to(await emailOf(quiet.student)).filter((m) => /Cancelled/.test(m.subject ?? ''))).toHaveLength(0);
  });

  it('cancels with a refund: the order refunded in the ledger and the appointment cancelled; a refused refund keeps it', async () => {
    const date = dayAhead(13);
    const h = await held(date, '10:00');
    const link = (await invoice(h.student, h.id).expect(201)).body;
    await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('').expect(200);
    expect((await get(h.id).expect(200)).body.status).toBe('booked');
    // The Remove student dialog's quote, as for a session.
    const quote = await t.http.get(`/api/admin/appointments/${h.id}/refund-quote`).set('token', token).expect(200);
    expect(quote.body).toMatchObject({
      order: { order_id: link.order_id, status: 'paid', total: 5000, refunded_amount: 0 },
      refundable: 5000,
      starts_at: at(date, '10:00'),
      has_payment_method: false,
      refusal: REFUND_MESSAGES.noPaymentMethod,
    });
    await t.http.get(`/api/admin/appointments/${h.id}/refund-quote`).set('token', other.token).expect(404);

    const bad = await cancel(h.id, { refund: { amount: 0, reason: 'Other' } }).expect(400);
    expect(bad.body.errors['refund.amount']).toBe(REFUND_MESSAGES.amountNonZero);
    // No payment method saved yet: the refund is refused and the appointment stays.
    const noMethod = await cancel(h.id, { refund: { amount: 5000, reason: 'Schedule conflict' } }).expect(409);
    expect(noMethod.body.errors.refund).toBe(REFUND_MESSAGES.noPaymentMethod);
    expect((await get(h.id).expect(200)).body.status).toBe('booked');
    const setup = await t.http.post('/api/admin/payment-methods/setup').set('token', token).expect(200);
    await t.http.post(`${new URL(setup.body.url).pathname}/pay`).type('form').send('').expect(200);

    await cancel(h.id, { refund: { amount: 5000, reason: 'Schedule conflict' } }).expect(204);
    const o = await order(link.order_id);
    expect(o).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    expect(o.refunds).toEqual([expect.objectContaining({ amount: 5000, reason: 'Schedule conflict', status: 'succeeded' })]);
    expect((await get(h.id).expect(200)).body.status).toBe('cancelled');
    expect(await startsOn(course, date)).toContain(at(date, '10:00'));
    await mailsTo(h.student, /Cancelled/);

    // Enrolled directly: nothing was paid, the refund is refused and the appointment stays.
    const free = await booked(date, '14:00');
    const refused = await cancel(free.id, { refund: { amount: 100, reason: 'Other' } }).expect(409);
    expect(refused.body.errors.refund).toBe(REFUND_MESSAGES.zeroTotal);
    expect((await get(free.id).expect(200)).body.status).toBe('booked');
  });

  it("lists the course's appointments upcoming first, held and booked; cancelled ones when asked", async () => {
    const list = await createCourse({ name: 'List lesson', duration_mins: 30 });
    const date = dayAhead(14);
    const late = await held(date, '15:00', list);
    const early = await booked(date, '09:00', list);
    const gone = await held(date, '12:00', list);
    await cancel(gone.id).expect(204);
    const res = await t.http.get(`/api/admin/activities/${list}/appointments`).set('token', token).expect(200);
    expect(res.body.appointments.map((a: { id: string }) => a.id)).toEqual([early.id, late.id]);
    expect(res.body.appointments.map((a: { status: string }) => a.status)).toEqual(['booked', 'held']);
    const all = await t.http.get(`/api/admin/activities/${list}/appointments`).set('token', token).query({ include_cancelled: 'true' }).expect(200);
    expect(all.body.appointments.map((a: { id: string }) => a.id)).toEqual([early.id, gone.id, late.id]);
    const windowed = await t.http
      .get(`/api/admin/activities/${list}/appointments`)
      .set('token', token)
      .query({ from: at(date, '10:00'), to: at(date, '23:00'), limit: '1' })
      .expect(200);
    expect(windowed.body.appointments.map((a: { id: string }) => a.id)).toEqual([late.id]);
    expect((await t.http.get(`/api/admin/activities/${list}/appointments`).set('token', token).query({ limit: '0' }).expect(400)).body.errors.limit).toBe(M.limit);
    expect((await t.http.get(`/api/admin/activities/${scheduled}/appointments`).set('token', token).expect(400)).body.message).toBe(M.notAppointmentCourse);
  });

  it('answers the calendar: sessions and appointments overlapping the range, filtered by instructor or location, ordered by start', async () => {
    const date = dayAhead(20);
    const a = await booked(date, '09:00');
    const b = await held(date, '13:00', online.course);
    // The fixture's session: 18:00–20:00 local on the day 20 days from now (UTC date); within range below.
    const eventId = await scheduleSession(t, token, { ...refs, activity_id: scheduled }, { daysFromNow: 20, capacity: 5 });
    const session = (await t.http.get(`/api/admin/events/${eventId}`).set('token', token).expect(200)).body;
    const from = at(dayAhead(19), '00:00');
    const to = at(dayAhead(22), '00:00');
    const calendar = (query: Record<string, string> = {}, as = token) => t.http.get('/api/admin/calendar').set('token', as).query({ from, to, ...query });
    const res = await calendar().expect(200);
    expect(res.body.time_zone).toBe(ZONE);
    const mine = res.body.items.filter((i: { id: string }) => [a.id, b.id, eventId].includes(i.id));
    expect(mine.map((i: { id: string }) => i.id)).toEqual([a.id, b.id, eventId]);
    expect(mine[0]).toEqual({
      kind: 'appointment',
      id: a.id,
      activity_id: course,
      course_name: 'Wheel lesson',
      title: expect.stringMatching(/^Student\d+ Test\d+$/),
      starts_at: at(date, '09:00'),
      ends_at: at(date, '10:00'),
      instructor_id: refs.instructor_id,
      instructor_name: 'Mira',
      location_id: refs.location_id,
      location_name: 'Main studio',
      time_zone: ZONE,
      status: 'booked',
      seats_taken: null,
      capacity: null,
    });
    expect(mine[2]).toMatchObject({ kind: 'session', activity_id: scheduled, starts_at: session.starts_at, status: 'active', seats_taken: 0, capacity: 5 });
    const starts = res.body.items.map((i: { starts_at: string }) => i.starts_at);
    expect([...starts].sort()).toEqual(starts);
    // By location: the online room has only b.
    const byLocation = await calendar({ location_id: online.location }).expect(200);
    expect(byLocation.body.items.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const byInstructor = await calendar({ instructor_id: refs.instructor_id, tz: 'Europe/London' }).expect(200);
    expect(byInstructor.body.time_zone).toBe('Europe/London');
    expect(byInstructor.body.items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([a.id, b.id, eventId]));
    // Cancelled appointments are not on it.
    await cancel(a.id).expect(204);
    expect((await calendar().expect(200)).body.items.map((i: { id: string }) => i.id)).not.toContain(a.id);
    // Refusals.
    expect((await t.http.get('/api/admin/calendar').set('token', token).query({ from: to, to: from }).expect(400)).body.errors.to).toBe(M.order);
    expect((await t.http.get('/api/admin/calendar').set('token', token).query({ from, to: at(dayAhead(80), '00:00') }).expect(400)).body.errors.to).toBe(M.calendarRange);
    expect((await calendar({ tz: 'Mars/Olympus' }).expect(400)).body.errors.tz).toBe(M.tz);
    await calendar({ instructor_id: refs.instructor_id }, other.token).expect(404);
    expect((await calendar({}, other.token).expect(200)).body.items).toEqual([]);
  });

  it('gives a booked appointment at an online location a Zoom meeting: its link in the answer and the confirmation; moved, then deleted', async () => {
    const date = dayAhead(15);
    const h = await held(date, '10:00', online.course);
    const created = zoom.state.counts.meetingsCreated;
    await enroll(h.student, h.id).expect(201);
    const a = await eventually(async () => (await get(h.id).expect(200)).body, (x) => x.meeting_url !== null);
    const mapping = await mappingOf(t, organizationId, 'zoom', 'appointment', h.id);
    const meeting = zoom.state.meetings.get(Number(mapping!.remote_id))!;
    expect(a.meeting_url).toBe(meeting.join_url);
    expect(meeting).toMatchObject({ duration: 30, timezone: ZONE });
    expect(meeting.start_time).toBe(at(date, '10:00').replace('.000Z', 'Z'));
    expect(zoom.state.counts.meetingsCreated).toBe(created + 1);
    // The one confirmation waited for the link.
    const [mail] = await mailsTo(h.student, /You're booked/);
    expect(mail.text).toContain(`Where: Online: ${meeting.join_url}`);
    expect(smtp.to(await emailOf(h.student)).filter((m) => /You're booked/.test(m.subject ?? ''))).toHaveLength(1);
    // Had the meeting never come, the confirmation would have gone without it later: that job, run now, mails nothing more.
    const queue = new Queue(APPOINTMENT_MAILS_QUEUE, { connection: { url: t.config.REDIS_URL }, prefix: t.config.REDIS_PREFIX });
    try {
      const fallback = await queue.getJob(`appointment-confirmation-fallback-${h.id}`);
      expect(await fallback?.getState()).toBe('delayed');
      await fallback!.promote();
      await eventually(async () => fallback!.getState(), (state) => state === 'completed' || state === 'unknown');
    } finally {
      await queue.close();
    }
    await t.idle();
    expect(smtp.to(await emailOf(h.student)).filter((m) => /You're booked/.test(m.subject ?? ''))).toHaveLength(1);

    await move(h.id, { starts_at: at(date, '14:00') }).expect(200);
    await eventually(() => meeting.start_time, (s) => s === at(date, '14:00').replace('.000Z', 'Z'));
    expect(zoom.state.counts.meetingsCreated).toBe(created + 1);

    await cancel(h.id).expect(204);
    await eventually(() => meeting.status, (s) => s === 'deleted');
    await eventually(async () => (await get(h.id).expect(200)).body.meeting_url, (u) => u === null);
    // A held appointment (not booked yet) has no meeting.
    const waiting = await held(date, '16:00', online.course);
    await t.idle();
    expect(await mappingOf(t, organizationId, 'zoom', 'appointment', waiting.id)).toBeNull();
  });
});
