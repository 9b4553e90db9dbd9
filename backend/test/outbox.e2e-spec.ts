import { SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { JobPermanentError } from '../src/queue/job-queue';
import { OutboxService } from '../src/outbox/outbox.service';
import { EnrollmentEvent } from '../src/modules/scheduling/enrollment-events';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The transactional outbox (issue 19) on BullMQ with this process's workers: an announcement is
 * written with the change (a refused change writes none), relayed and handled once per subscriber;
 * a handler that fails for good is listed for the operators and handed back by Retry.
 */
describe('the outbox', () => {
  let t: TestApp;
  let outbox: OutboxService;
  let token: string;
  let superToken: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  /** What the test subscriber saw, and whether it should fail. */
  const seen: EnrollmentEvent[] = [];
  let failing = false;

  const rows = (enrollmentId: string) =>
    t.withEm((em) =>
      em.execute<{ subscriber: string; relayed_at: Date | null; done_at: Date | null; failed_at: Date | null; last_error: string | null; id: string }[]>(
        `select id, subscriber, relayed_at, done_at, failed_at, last_error from outbox_message where payload->>'enrollmentId' = ? order by subscriber`,
        [enrollmentId],
      ),
    );

  beforeAll(async () => {
    // The test client does not settle after each call here: the rows are looked at as they are.
    t = await startTestApp({ RUN_WORKER: 'true' }, { settleAfterEachCall: false });
    outbox = t.created.app.get(OutboxService);
    outbox.subscribe('enrollment.created', 'test.observer', (event: EnrollmentEvent) => {
      if (failing) throw new JobPermanentError('the observer is down');
      seen.push(event);
    });
    token = (await t.organizationWithUser()).token;
    superToken = (await t.organizationWithUser('super_admin', 'HQ')).token;
    course = await schedulableCourse(t, token);
  });
  afterAll(() => t.close());

  it('writes an enrollment announcement with the seat, once per subscriber, and each subscriber handles it once', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 1 });
    const ana = await addStudent(t, token);
    const enrolled = await t.http.post(`/api/admin/orders/enroll/${ana}`).set('token', token).send({ event_id: eventId }).expect(201);
    const enrollmentId = enrolled.body.enrollment_id as string;
    const written = await rows(enrollmentId);
    expect(written.map((r) => r.subscriber)).toEqual(['reminders', 'sync.mailing-lists', 'test.observer', 'waivers']);

    await eventually(async () => (await rows(enrollmentId)).every((r) => r.done_at !== null));
    expect(seen.filter((e) => e.enrollmentId === enrollmentId)).toEqual([
      { type: 'enrollment.created', organizationId: expect.any(String), enrollmentId, studentId: ana, eventId, requiredWaiverId: null },
    ]);

    // A refused enrolment (the session is full) rolls back with its announcement: nothing is written.
    const ben = await addStudent(t, token);
    expect((await t.http.post(`/api/admin/orders/enroll/${ben}`).set('token', token).send({ event_id: eventId }).expect(409)).body.message).toBe(M.sessionFull);
    const forBen = await t.withEm((em) => em.execute(`select 1 from outbox_message where type like 'enrollment.%' and payload->>'studentId' = ?`, [ben]));
    expect(forBen).toEqual([]);
  });

  it('a handler failing for good is listed for super admins with its error, and Retry hands it back', async () => {
    failing = true;
    const eventId = await scheduleSession(t, token, course, { capacity: 5 });
    const cleo = await addStudent(t, token);
    const enrollmentId = (await t.http.post(`/api/admin/orders/enroll/${cleo}`).set('token', token).send({ event_id: eventId }).expect(201)).body.enrollment_id as string;
    const failed = await eventually(async () => (await rows(enrollmentId)).find((r) => r.subscriber === 'test.observer' && r.failed_at));
    expect(failed.last_error).toBe('the observer is down');
    // The other subscribers of the same announcement are not held back by it.
    await eventually(async () => (await rows(enrollmentId)).filter((r) => r.subscriber !== 'test.observer').every((r) => r.done_at));

    const state = (await t.http.get('/api/admin/outbox').set('token', superToken).expect(200)).body;
    expect(state.subscribers).toContainEqual({ subscriber: 'test.observer', waiting: 0, in_flight: 0, failed: 1, oldest_open_at: null });
    expect(state.failed[0]).toMatchObject({ id: failed.id, type: 'enrollment.created', subscriber: 'test.observer', last_error: 'the observer is down' });
    // Not for studio owners.
    await t.http.get('/api/admin/outbox').set('token', token).expect(403);

    failing = false;
    await t.http.post(`/api/admin/outbox/${failed.id}/retry`).set('token', superToken).expect(204);
    await eventually(async () => (await rows(enrollmentId)).every((r) => r.done_at !== null));
    expect(seen.filter((e) => e.enrollmentId === enrollmentId)).toHaveLength(1);
    expect((await t.http.get('/api/admin/outbox').set('token', superToken).expect(200)).body.failed).toEqual([]);
    // A row that is not failed (any more) cannot be retried.
    await t.http.post(`/api/admin/outbox/${failed.id}/retry`).set('token', superToken).expect(404);
  });
});
