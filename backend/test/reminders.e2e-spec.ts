import { addDaysToDate, localDateOf, REMINDER_MESSAGES as R, wallClockToInstant } from '@studio/contracts';
import { Job, Queue } from 'bullmq';
import { AppointmentEvents } from '../src/modules/scheduling/appointment-events';
import { SessionEvents } from '../src/modules/scheduling/session-events';
import { REMINDER_QUEUE, ReminderJob, reminderJobId } from '../src/modules/reminders/reminders.service';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

const MIN = 60_000;
const ZONE = 'America/New_York'; // the fixtures' location
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const everyDay = (ranges: { start: string; end: string }[]) => Object.fromEntries(WEEKDAYS.map((d) => [d, ranges]));
const dayAhead = (n: number) => addDaysToDate(localDateOf(new Date(), ZONE), n);
const at = (date: string, time: string) => wallClockToInstant(date, time, ZONE)!.toISOString();

interface LogRow {
  booking_kind: string;
  booking_id: string;
  course_name: string | null;
  offset_mins: number;
  starts_at: string;
  to: string | null;
  outcome: string;
  detail: string | null;
}

/**
 * Reminders before a class or appointment (issue 23): the organization's setting (default 24 hours,
 * its refusals), one delayed job per offset on enrollment and appointment booking, sent once with its
 * log row, moved with the booking's start (the old job does nothing), taken off on removal and
 * cancellation, never sent twice (a second run, a second worker), and the log's tenancy.
 */
describe('reminders', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let queue: Queue;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let appointmentCourse: string;
  let other: { token: string; student: string };

  const settings = (as = token) => t.http.get('/api/admin/org').set('token', as);
  const setOffsets = (body: unknown, as = token) => t.http.put('/api/admin/org/reminders').set('token', as).send(body as object);
  const enroll = (studentId: string, body: Record<string, unknown>) => t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send(body);
  const enrollmentOf = async (eventId: string, studentId: string) =>
    (
      (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments as {
        enrollment_id: string;
        student_id: string;
      }[]
    ).find((e) => e.student_id === studentId)!.enrollment_id;
  const startOf = async (eventId: string) => (await t.http.get(`/api/admin/events/${eventId}`).set('token', token).expect(200)).body.starts_at as string;
  const log = async (studentId: string, as = token) =>
    (await t.http.get(`/api/admin/student/${studentId}/reminders`).set('token', as).expect(200)).body.reminders as LogRow[];
  const emailOf = async (studentId: string) => (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body.email as string;
  const remindersTo = async (studentId: string) => smtp.to(await emailOf(studentId)).filter((m) => /^Reminder:/.test(m.subject ?? ''));
  const job = (id: string) => queue.getJob(id) as Promise<Job<ReminderJob> | undefined>;
  /** Runs a delayed job now and waits until the queue is done with it. */
  const runNow = async (id: string) => {
    const j = (await job(id))!;
    await j.promote();
    await eventually(() => j.getState(), (s) => s === 'completed' || s === 'failed');
    await t.settle();
  };

  const bookAppointment = async (date: string, time: string) => {
    const student = await addStudent(t, token);
    const held = await t.http
      .post(`/api/admin/activities/${appointmentCourse}/appointments`)
      .set('token', token)
      .send({ student_id: student, starts_at: at(date, time) })
      .expect(201);
    await enroll(student, { appointment_id: held.body.id }).expect(201);
    return { student, id: held.body.id as string, startsAt: held.body.starts_at as string };
  };

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({ SMTP_URL: smtp.url, RUN_WORKER: 'true', PUBLIC_APP_URL: 'http://studio.test' });
    const owner = await t.organizationWithUser('owner', 'Kiln Studio');
    token = owner.token;
    course = await schedulableCourse(t, token, 8, { auto_email: 'Wear clothes that can get muddy.' });
    const refs = await courseRefs(t, token);
    await t.http.put(`/api/admin/instructor/${refs.instructor_id}/availability`).set('token', token).send({ weekly: everyDay([{ start: '08:00', end: '20:00' }]) }).expect(200);
    appointmentCourse = (
      await t.http
        .post('/api/admin/activities')
        .set('token', token)
        .send({ ...validCourse(refs), name: 'Wheel lesson', activity_type: 'appointment', single_party: true, duration_mins: 60, start_time_increments_mins: 30 })
        .expect(201)
    ).body.activity_id;
    const second = await t.organizationWithUser('owner', 'Glass House');
    other = { token: second.token, student: await addStudent(t, second.token) };
    queue = new Queue(REMINDER_QUEUE, { connection: { url: t.config.REDIS_URL }, prefix: t.config.REDIS_PREFIX });
  });
  afterAll(async () => {
    await queue?.close();
    await t?.close();
    await smtp?.close();
  });

  it('the setting: 24 hours by default, at most 3 times of 15 minutes to 14 days, empty turns reminders off', async () => {
    expect((await settings().expect(200)).body.reminder_offsets_mins).toEqual([1440]);
    const saved = await setOffsets({ reminder_offsets_mins: [120, 1440] }).expect(200);
    expect(saved.body.reminder_offsets_mins).toEqual([1440, 120]);
    expect((await settings().expect(200)).body.reminder_offsets_mins).toEqual([1440, 120]);
    // Another organization keeps its own.
    expect((await settings(other.token).expect(200)).body.reminder_offsets_mins).toEqual([1440]);

    for (const [body, message] of [
      [{ reminder_offsets_mins: [10] }, R.offsetRange],
      [{ reminder_offsets_mins: [14 * 1440 + 1] }, R.offsetRange],
      [{ reminder_offsets_mins: [60, 120, 180, 240] }, R.tooMany],
      [{ reminder_offsets_mins: [60, 60] }, R.duplicate],
      [{ reminder_offsets_mins: [90.5] }, R.offsetWhole],
      [{ reminder_offsets_mins: ['soon'] }, R.offsetWhole],
      [{}, R.offsetsRequired],
    ] as const) {
      const res = await setOffsets(body).expect(400);
      expect(Object.values(res.body.errors ?? {})).toContain(message);
    }
    expect((await settings().expect(200)).body.reminder_offsets_mins).toEqual([1440, 120]);

    expect((await setOffsets({ reminder_offsets_mins: [] }).expect(200)).body.reminder_offsets_mins).toEqual([]);
    // Off: a new seat gets no reminder.
    const eventId = await scheduleSession(t, token, course, { daysFromNow: 5 });
    const student = await addStudent(t, token);
    await enroll(student, { event_id: eventId }).expect(201);
    const enrollmentId = await enrollmentOf(eventId, student);
    expect(await job(reminderJobId('enrollment', enrollmentId, 1440, await startOf(eventId)))).toBeUndefined();

    await setOffsets({ reminder_offsets_mins: [1440, 120] }).expect(200);
  });

  it('an enrollment: one delayed job per offset; when due, one mail with the course, time, place and the course text, logged on the booking', async () => {
    const eventId = await scheduleSession(t, token, course, { daysFromNow: 6 });
    const start = await startOf(eventId);
    const student = await addStudent(t, token, { first_name: 'Ana' });
    await enroll(student, { event_id: eventId }).expect(201);
    const enrollmentId = await enrollmentOf(eventId, student);

    for (const offset of [1440, 120]) {
      const j = await job(reminderJobId('enrollment', enrollmentId, offset, start));
      expect(await j?.getState()).toBe('delayed');
      // Due `offset` minutes before the start.
      expect(Math.abs(j!.timestamp + j!.delay - (Date.parse(start) - offset * MIN))).toBeLessThan(5000);
    }
    expect(await log(student)).toEqual([]);

    await runNow(reminderJobId('enrollment', enrollmentId, 1440, start));
    const [mail] = await eventually(() => remindersTo(student), (m) => m.length === 1);
    expect(mail.subject).toMatch(/^Reminder: Wheel throwing, /);
    expect(mail.text).toContain('Hello Ana,');
    // The session's 18:00 in the location's zone, named.
    expect(mail.text).toMatch(/When: .*6:00\s?PM E[SD]T/);
    expect(mail.text).toContain('Where: ');
    expect(mail.text).toContain('Wear clothes that can get muddy.');
    // The booking's manage link (cancel or reschedule by the policy), which opens this booking's page.
    const link = /Manage your booking: (\S+)/.exec(mail.text ?? '')?.[1];
    expect(link).toMatch(/^http:\/\/studio\.test\/s\/[a-z0-9-]+\/booking\/e_/);
    expect(mail.html).toContain(`<a href="${link}">Manage your booking</a>`);
    const page = await t.http.get(new URL(link!).pathname).expect(200);
    expect(page.text).toContain('Wheel throwing');
    expect(await log(student)).toEqual([
      expect.objectContaining({ booking_kind: 'enrollment', booking_id: enrollmentId, offset_mins: 1440, starts_at: start, to: await emailOf(student), outcome: 'sent', detail: null }),
    ]);
    // The 2-hour reminder still waits.
    expect(await (await job(reminderJobId('enrollment', enrollmentId, 120, start)))?.getState()).toBe('delayed');
  });

  it('never twice: the same reminder run again, and run by two workers at once, sends one mail and logs one row', async () => {
    const eventId = await scheduleSession(t, token, course, { daysFromNow: 8 });
    const start = await startOf(eventId);
    const student = await addStudent(t, token);
    await enroll(student, { event_id: eventId }).expect(201);
    const enrollmentId = await enrollmentOf(eventId, student);
    const original = (await job(reminderJobId('enrollment', enrollmentId, 120, start)))!;

    // Copies of the job under other ids (a retry after a lost answer, another worker's run) all come due at once.
    await Promise.all(
      [1, 2, 3].map((n) => queue.add(original.name, original.data, { jobId: `copy-${n}-${original.id}` })),
    );
    await original.promote();
    await eventually(
      async () => Promise.all([original.id!, ...[1, 2, 3].map((n) => `copy-${n}-${original.id}`)].map(async (id) => (await job(id))?.getState())),
      (states) => states.every((s) => s === 'completed'),
    );
    await t.settle();
    await t.idle(); // a second mail, were there one, would have been sent by now
    expect(await remindersTo(student)).toHaveLength(1);
    expect((await log(student)).filter((r) => r.offset_mins === 120)).toEqual([expect.objectContaining({ outcome: 'sent' })]);
  });

  it("a session's time changed: the reminder follows the new start, the old job does nothing", async () => {
    const eventId = await scheduleSession(t, token, course, { daysFromNow: 9 });
    const start = await startOf(eventId);
    const student = await addStudent(t, token);
    await enroll(student, { event_id: eventId }).expect(201);
    const enrollmentId = await enrollmentOf(eventId, student);
    const organizationId = (await t.http.get('/api/auth/session').set('token', token).expect(200)).body.organization.organization_id;

    // The session moves a day later (the session's change announces session.saved in its transaction).
    const later = new Date(Date.parse(start) + 1440 * MIN).toISOString();
    await t.withEm((em) => em.getConnection().execute(`update event set starts_at = ?, ends_at = ends_at + interval '1 day' where id = ?`, [later, eventId]));
    const activityId = course.activity_id;
    await t.redeliver(t.created.app.get(SessionEvents), { type: 'session.saved', organizationId, eventId, activityId, created: false });

    const moved = await job(reminderJobId('enrollment', enrollmentId, 1440, later));
    expect(await moved?.getState()).toBe('delayed');
    expect(Math.abs(moved!.timestamp + moved!.delay - (Date.parse(later) - 1440 * MIN))).toBeLessThan(5000);

    await runNow(reminderJobId('enrollment', enrollmentId, 1440, start));
    await t.idle();
    expect(await remindersTo(student)).toEqual([]);
    expect(await log(student)).toEqual([]);

    await runNow(reminderJobId('enrollment', enrollmentId, 1440, later));
    await eventually(() => remindersTo(student), (m) => m.length === 1);
    expect(await log(student)).toEqual([expect.objectContaining({ starts_at: later, outcome: 'sent' })]);
  });

  it('a student moved to another session (Move students, enrollment.moved): the reminder follows to the new start, the old job does nothing', async () => {
    const from = await scheduleSession(t, token, course, { daysFromNow: 11 });
    const to = await scheduleSession(t, token, course, { daysFromNow: 12 });
    const [start, later] = [await startOf(from), await startOf(to)];
    const student = await addStudent(t, token);
    await enroll(student, { event_id: from }).expect(201);
    const enrollmentId = await enrollmentOf(from, student);
    expect(await (await job(reminderJobId('enrollment', enrollmentId, 1440, start)))?.getState()).toBe('delayed');

    await t.http.post(`/api/admin/events/${from}/move-students`).set('token', token).send({ to_event_id: to, enrollment_ids: [enrollmentId] }).expect(200);
    await t.settle();
    const moved = await job(reminderJobId('enrollment', enrollmentId, 1440, later));
    expect(await moved?.getState()).toBe('delayed');
    expect(Math.abs(moved!.timestamp + moved!.delay - (Date.parse(later) - 1440 * MIN))).toBeLessThan(5000);

    await runNow(reminderJobId('enrollment', enrollmentId, 1440, start));
    await t.idle();
    expect(await remindersTo(student)).toEqual([]);
    await runNow(reminderJobId('enrollment', enrollmentId, 1440, later));
    await eventually(() => remindersTo(student), (m) => m.length === 1);
    expect(await log(student)).toEqual([expect.objectContaining({ starts_at: later, outcome: 'sent' })]);
  });

  it('a student removed from the session: the reminders are taken off the queue; one that runs anyway is logged skipped', async () => {
    const eventId = await scheduleSession(t, token, course, { daysFromNow: 10 });
    const start = await startOf(eventId);
    const student = await addStudent(t, token);
    await enroll(student, { event_id: eventId }).expect(201);
    const enrollmentId = await enrollmentOf(eventId, student);
    const pending = (await job(reminderJobId('enrollment', enrollmentId, 1440, start)))!;
    expect(await pending.getState()).toBe('delayed');

    await t.http.delete(`/api/admin/enrollment/${enrollmentId}`).set('token', token).expect(204);
    expect(await job(reminderJobId('enrollment', enrollmentId, 1440, start))).toBeUndefined();
    expect(await job(reminderJobId('enrollment', enrollmentId, 120, start))).toBeUndefined();

    // A run that had already been taken by a worker (the same job, queued again) sends nothing.
    await queue.add(pending.name, pending.data, { jobId: `late-${pending.id}` });
    await eventually(async () => (await job(`late-${pending.id}`))?.getState(), (s) => s === 'completed');
    await t.idle();
    expect(await remindersTo(student)).toEqual([]);
    expect(await log(student)).toEqual([
      expect.objectContaining({ outcome: 'skipped', detail: 'The student was removed from the session', to: null, offset_mins: 1440 }),
    ]);
  });

  it('an appointment: reminders when booked, moved with it (the old job does nothing), taken off when cancelled', async () => {
    const date = dayAhead(4);
    const a = await bookAppointment(date, '10:00');
    for (const offset of [1440, 120]) expect(await (await job(reminderJobId('appointment', a.id, offset, a.startsAt)))?.getState()).toBe('delayed');

    // Moved to 14:00: new jobs for the new start.
    const newStart = at(date, '14:00');
    await t.http.post(`/api/admin/appointments/${a.id}/move`).set('token', token).send({ starts_at: newStart, notify: false }).expect(200);
    expect(await (await job(reminderJobId('appointment', a.id, 1440, newStart)))?.getState()).toBe('delayed');
    await runNow(reminderJobId('appointment', a.id, 1440, a.startsAt));
    await t.idle();
    expect(await remindersTo(a.student)).toEqual([]);
    expect(await log(a.student)).toEqual([]);

    await runNow(reminderJobId('appointment', a.id, 1440, newStart));
    const [mail] = await eventually(() => remindersTo(a.student), (m) => m.length === 1);
    expect(mail.subject).toContain('Wheel lesson');
    expect(mail.text).toMatch(/When: .*2:00\s?PM E[SD]T/);
    expect(await log(a.student)).toEqual([
      expect.objectContaining({ booking_kind: 'appointment', booking_id: a.id, course_name: 'Wheel lesson', starts_at: newStart, outcome: 'sent', offset_mins: 1440 }),
    ]);

    // Cancelled: its waiting reminder is off the queue.
    expect(await (await job(reminderJobId('appointment', a.id, 120, newStart)))?.getState()).toBe('delayed');
    await t.http.delete(`/api/admin/appointments/${a.id}`).set('token', token).send({ notify: false }).expect(204);
    expect(await job(reminderJobId('appointment', a.id, 120, newStart))).toBeUndefined();
    // Redelivered booking of a cancelled appointment schedules nothing.
    const organizationId = (await t.http.get('/api/auth/session').set('token', token).expect(200)).body.organization.organization_id;
    await t.redeliver(t.created.app.get(AppointmentEvents), { type: 'appointment.booked', organizationId, appointmentId: a.id, confirm: false });
    expect(await job(reminderJobId('appointment', a.id, 120, newStart))).toBeUndefined();
  });

  it("a booking whose reminder time has passed gets none; the log is the organization's own (another's student answers 404)", async () => {
    // 14 days before a session a week away has passed: only the 2-hour reminder is made.
    await setOffsets({ reminder_offsets_mins: [14 * 1440, 120] }).expect(200);
    const eventId = await scheduleSession(t, token, course, { daysFromNow: 7 });
    const start = await startOf(eventId);
    const student = await addStudent(t, token);
    await enroll(student, { event_id: eventId }).expect(201);
    const enrollmentId = await enrollmentOf(eventId, student);
    expect(await job(reminderJobId('enrollment', enrollmentId, 14 * 1440, start))).toBeUndefined();
    expect(await (await job(reminderJobId('enrollment', enrollmentId, 120, start)))?.getState()).toBe('delayed');
    await setOffsets({ reminder_offsets_mins: [1440, 120] }).expect(200);

    await t.http.get(`/api/admin/student/${other.student}/reminders`).set('token', token).expect(404);
    await t.http.get(`/api/admin/student/${student}/reminders`).set('token', other.token).expect(404);
    await t.http.get(`/api/admin/student/not-an-id/reminders`).set('token', token).expect(404);
    expect(await log(other.student, other.token)).toEqual([]);
  });
});
