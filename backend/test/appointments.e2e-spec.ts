import { HttpException } from '@nestjs/common';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { APPOINTMENT_MESSAGES as M } from '@studio/contracts';
import { JOB_QUEUE, JobQueue } from '../src/queue/job-queue';
import {
  APPOINTMENT_HOLDS_QUEUE,
  APPOINTMENT_HOLDS_SCHEDULER,
  AppointmentHolds,
  HoldAppointmentInput,
} from '../src/modules/scheduling/appointment-holds.service';
import { AppointmentReads } from '../src/modules/scheduling/appointment-reads';
import { AppointmentsService } from '../src/modules/scheduling/appointments.service';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { addStudent, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

const MIN = 60_000;
const HOUR = 60 * MIN;

/*
 * PGlite loads its files with dynamic import(), which jest's module sandbox allows only under
 * node's --experimental-vm-modules. Without it (a plain `npx jest`), the embedded database's cases
 * run in a child jest given the flag (APPOINTMENTS_EMBEDDED_ONLY: that child runs those alone).
 */
const VM_MODULES = '--experimental-vm-modules';
const EMBEDDED_ONLY = process.env.APPOINTMENTS_EMBEDDED_ONLY === '1';
const embeddedHere = process.execArgv.includes(VM_MODULES) || (process.env.NODE_OPTIONS ?? '').includes(VM_MODULES);
const databases: [string, boolean][] = [
  ...(EMBEDDED_ONLY ? [] : [['PostgreSQL', false] as [string, boolean]]),
  ...(EMBEDDED_ONLY || embeddedHere ? [['the embedded database', true] as [string, boolean]] : []),
];

if (!EMBEDDED_ONLY && !embeddedHere) {
  describe('appointments on the embedded database', () => {
    it(`passes the same cases (in a child jest with ${VM_MODULES})`, async () => {
      const child = spawn(
        process.execPath,
        [require.resolve('jest/bin/jest'), '-c', 'jest.e2e.config.js', '--colors=false', 'test/appointments.e2e-spec.ts'],
        {
          cwd: path.join(__dirname, '..'),
          // This file alone (not the groups of `npm run test:e2e`: E2E_GROUPS is left out).
          env: {
            ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'E2E_GROUPS')),
            NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${VM_MODULES}`.trim(),
            APPOINTMENTS_EMBEDDED_ONLY: '1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      // The whole output when it fails: the child's own failures, by name.
      expect({ code, passed: /Tests:\s+8 passed, 8 total/.test(output), output: code === 0 ? '' : output }).toEqual({
        code: 0,
        passed: true,
        output: '',
      });
    }, 120_000);
  });
}

/**
 * Appointments' storage and booking guarantee (issue 22), on PostgreSQL and on the embedded
 * database (PGlite): the exclusion constraint refuses overlapping appointments of one instructor
 * (buffers included, periods half-open), whoever races; cancelled and expired holds free the time.
 */
describe.each(databases)('appointments on %s', (_name, embedded) => {
  let t: TestApp;
  let token: string;
  let ctx: { organizationId: string };
  let service: AppointmentsService;
  let holds: AppointmentHolds;
  let reads: AppointmentReads;
  /** 60 minutes, buffers 15 before and 15 after. */
  let courseA: string;
  /** 30 minutes, no buffers, same instructor. */
  let courseB: string;
  let refs: Awaited<ReturnType<typeof courseRefs>>;
  let students: string[];
  /** A day far ahead, 00:00 UTC; each test uses its own day. */
  const day = (n: number) => new Date(Date.UTC(2031, 0, 1 + n));

  const createCourse = async (overrides: Record<string, unknown>) => {
    const res = await t.http
      .post('/api/admin/activities')
      .set('token', token)
      .send({ ...validCourse(refs), activity_type: 'appointment', single_party: true, ...overrides })
      .expect(201);
    return res.body.activity_id as string;
  };

  const hold = (input: Partial<HoldAppointmentInput> & { activityId: string; startsAt: Date }, as = ctx) =>
    t.withEm((em) =>
      holds.hold(as, em, { studentId: students[0], expiresAt: new Date(Date.now() + HOUR), ...input }),
    );

  /** The refusal's status and message, or 'ok'. */
  const outcome = async (attempt: Promise<unknown>) => {
    try {
      await attempt;
      return 'ok';
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      return `${error.getStatus()} ${(error.getResponse() as { message: string }).message}`;
    }
  };
  const TAKEN = `409 ${M.taken}`;

  beforeAll(async () => {
    t = await startTestApp({}, { embedded });
    const owner = await t.organizationWithUser('owner');
    token = owner.token;
    ctx = { organizationId: owner.organization.id };
    service = t.created.app.get(AppointmentsService);
    holds = t.created.app.get(AppointmentHolds);
    reads = t.created.app.get(AppointmentReads);
    refs = await courseRefs(t, token);
    courseA = await createCourse({ duration_mins: 60, buffer_before_mins: 15, buffer_after_mins: 15, booking_window_days: 90 });
    courseB = await createCourse({ name: 'Glaze consult', duration_mins: 30 });
    students = [await addStudent(t, token), await addStudent(t, token)];
  });
  afterAll(() => t?.close());

  it('stores the booking window beside the scheduling settings', async () => {
    const a = await t.http.get(`/api/admin/activities/${courseA}`).set('token', token).expect(200);
    expect(a.body).toMatchObject({ booking_window_days: 90, buffer_before_mins: 15, duration_mins: 60 });
    const b = await t.http.get(`/api/admin/activities/${courseB}`).set('token', token).expect(200);
    expect(b.body.booking_window_days).toBe(60);
  });

  it('refuses an overlap with the message, widens by buffers and lets touching periods be', async () => {
    const ten = new Date(day(1).getTime() + 10 * HOUR);
    const held = await hold({ activityId: courseA, startsAt: ten });
    // Blocked [09:45, 11:15): the appointment and its buffers.
    expect(held).toMatchObject({
      blockedFrom: new Date(ten.getTime() - 15 * MIN),
      blockedTo: new Date(ten.getTime() + 75 * MIN),
      endsAt: new Date(ten.getTime() + HOUR),
    });
    expect(await outcome(hold({ activityId: courseA, startsAt: ten, studentId: students[1] }))).toBe(TAKEN);
    // The other course of the instructor: inside A's after-buffer (11:00) is taken, as is inside its before-buffer.
    expect(await outcome(hold({ activityId: courseB, startsAt: new Date(ten.getTime() + 60 * MIN) }))).toBe(TAKEN);
    expect(await outcome(hold({ activityId: courseB, startsAt: new Date(ten.getTime() - 40 * MIN) }))).toBe(TAKEN);
    // Touching the blocked period on either side is allowed (half-open ranges).
    expect(await outcome(hold({ activityId: courseB, startsAt: new Date(ten.getTime() + 75 * MIN) }))).toBe('ok');
    expect(await outcome(hold({ activityId: courseB, startsAt: new Date(ten.getTime() - 45 * MIN) }))).toBe('ok');
  });

  it('frees the time when an appointment is cancelled, and books a held one', async () => {
    const noon = new Date(day(2).getTime() + 12 * HOUR);
    const held = await hold({ activityId: courseA, startsAt: noon });
    const booked = await t.withEm((em) => service.book(ctx, em, held.appointmentId));
    expect(booked).toMatchObject({ status: 'booked', holdExpiresAt: null });
    expect(await outcome(hold({ activityId: courseB, startsAt: noon }))).toBe(TAKEN);
    const cancelled = await t.withEm((em) => service.cancel(ctx, em, held.appointmentId));
    expect(cancelled.status).toBe('cancelled');
    expect(await outcome(hold({ activityId: courseB, startsAt: noon }))).toBe('ok');
    // A cancelled appointment cannot be booked again.
    expect(await outcome(t.withEm((em) => service.book(ctx, em, held.appointmentId)))).toBe(`409 ${M.notHeld}`);
  });

  it('releases expired holds on its schedule, freeing the time', async () => {
    const queue = t.created.app.get<JobQueue>(JOB_QUEUE);
    expect(await queue.schedulerIds(APPOINTMENT_HOLDS_QUEUE)).toContain(APPOINTMENT_HOLDS_SCHEDULER);
    const nine = new Date(day(3).getTime() + 9 * HOUR);
    const expired = await hold({ activityId: courseA, startsAt: nine, expiresAt: new Date(Date.now() - 1000) });
    const live = await hold({ activityId: courseA, startsAt: new Date(nine.getTime() + 3 * HOUR) });
    // Until the job runs, the expired hold still keeps its time.
    expect(await outcome(hold({ activityId: courseB, startsAt: nine }))).toBe(TAKEN);
    expect(await holds.releaseExpiredHolds()).toBeGreaterThanOrEqual(1);
    expect(await holds.releaseExpiredHolds()).toBe(0);
    expect((await t.withEm((em) => service.get(ctx, em, expired.appointmentId))).status).toBe('cancelled');
    expect((await t.withEm((em) => service.get(ctx, em, live.appointmentId))).status).toBe('held');
    expect(await outcome(hold({ activityId: courseB, startsAt: nine }))).toBe('ok');
  });

  it("answers the instructor's busy time: appointments with buffers and sessions, not cancelled ones", async () => {
    const scheduled = await t.http.post('/api/admin/activities').set('token', token).send(validCourse(refs)).expect(201);
    const eventId = await scheduleSession(t, token, { ...refs, activity_id: scheduled.body.activity_id }, { daysFromNow: 20 });
    const event = await t.http.get(`/api/admin/events/${eventId}`).set('token', token).expect(200);
    const sessionStart = new Date(event.body.starts_at);
    const at = new Date(sessionStart.getTime() - 4 * HOUR);
    const held = await hold({ activityId: courseA, startsAt: at });
    const gone = await hold({ activityId: courseB, startsAt: new Date(at.getTime() - 2 * HOUR) });
    await t.withEm((em) => service.cancel(ctx, em, gone.appointmentId));
    const from = new Date(at.getTime() - 6 * HOUR);
    const to = new Date(sessionStart.getTime() + 6 * HOUR);
    const busy = await t.withEm((em) => reads.busyIntervals(em, ctx.organizationId, refs.instructor_id, from, to));
    expect(busy).toEqual([
      { source: 'appointment', id: held.appointmentId, start: held.blockedFrom, end: held.blockedTo },
      { source: 'session', id: expect.any(String), start: sessionStart, end: new Date(sessionStart.getTime() + 2 * HOUR) },
    ]);
    // [from, to) is half-open: a window ending where the appointment's blocked period starts has nothing.
    expect(await t.withEm((em) => reads.busyIntervals(em, ctx.organizationId, refs.instructor_id, from, held.blockedFrom))).toEqual([]);
  });

  it("keeps organizations apart: another organization's course and appointment are not found", async () => {
    const other = await t.organizationWithUser('owner');
    const as = { organizationId: other.organization.id };
    const start = new Date(day(4).getTime() + 15 * HOUR);
    expect(await outcome(hold({ activityId: courseA, startsAt: start }, as))).toBe(`404 ${M.courseNotFound}`);
    const mine = await hold({ activityId: courseA, startsAt: start });
    expect(await outcome(t.withEm((em) => service.cancel(as, em, mine.appointmentId)))).toBe(`404 ${M.notFound}`);
    expect(await outcome(t.withEm((em) => service.book(as, em, mine.appointmentId)))).toBe(`404 ${M.notFound}`);
    const scheduled = await t.http.post('/api/admin/activities').set('token', token).send(validCourse(refs)).expect(201);
    expect(await outcome(hold({ activityId: scheduled.body.activity_id, startsAt: start }))).toBe(`400 ${M.notAppointmentCourse}`);
  });

  const race = async (attempts: { activityId: string; startsAt: Date }[]) => {
    const outcomes = await Promise.all(
      attempts.map((a, i) => outcome(hold({ ...a, studentId: students[i % students.length] }))),
    );
    return {
      won: outcomes.filter((o) => o === 'ok').length,
      taken: outcomes.filter((o) => o === TAKEN).length,
      other: outcomes.filter((o) => o !== 'ok' && o !== TAKEN),
    };
  };

  it('lets exactly one of 50 concurrent holds of one slot win; the 49 others get the message', async () => {
    const slot = new Date(day(5).getTime() + 14 * HOUR);
    expect(await race(Array.from({ length: 50 }, () => ({ activityId: courseA, startsAt: slot })))).toEqual({ won: 1, taken: 49, other: [] });
  });

  it('lets exactly one of 50 concurrent holds of overlapping slots across two courses of one instructor win', async () => {
    const t0 = new Date(day(6).getTime() + 14 * HOUR);
    // Starts within 25 minutes of each other: every pair overlaps (B lasts 30 minutes; A blocks 90).
    const attempts = Array.from({ length: 50 }, (_, i) => ({
      activityId: i % 2 ? courseA : courseB,
      startsAt: new Date(t0.getTime() + (i % 6) * 5 * MIN),
    }));
    expect(await race(attempts)).toEqual({ won: 1, taken: 49, other: [] });
  });
});
