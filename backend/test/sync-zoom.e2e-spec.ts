import { randomBytes } from 'node:crypto';
import { ZoomDriver } from '../src/modules/sync/drivers/zoom/zoom.driver';
import type { Queue } from 'bullmq';
import { JOB_QUEUE } from '../src/queue/job-queue';
import { ZOOM_SUMMARY_DELAY_MS } from '../src/modules/sync/events-sync.listener';
import { syncJobId } from '../src/modules/sync/jobs/sync-job.types';
import { FakeZoom, startFakeZoom } from '../src/sync-fakes/zoom';
import { eventually } from './support/fake-smtp';
import { scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { connect, fakeToken, mappingOf } from './support/sync-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * Zoom against its fake: the account, a meeting per session of an online course (created once,
 * updated, deleted with the session), the join URL on the event, the summary attached after the
 * session when meeting_summary is on, and tenancy.
 */
describe('Zoom sync', () => {
  let fake: FakeZoom;
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };
  const CLIENT = { id: 'fake-zoom-client', secret: 'fake-zoom-secret' };

  /** A course at a location marked online (or not): only the first's sessions get meetings. */
  async function courseAt(token: string, location: { name: string; address: string; online?: boolean }) {
    const course = await schedulableCourse(t, token);
    const created = await t.http
      .post('/api/admin/location')
      .set('token', token)
      .send({ ...location, timezone: 'America/New_York' })
      .expect(201);
    expect(created.body.online).toBe(location.online ?? false);
    return { ...course, location_id: created.body.location_id as string };
  }
  const onlineCourse = (token: string) => courseAt(token, { name: 'Live stream', address: 'From the studio', online: true });
  const event = (id: string, token = a.token) => t.http.get(`/api/admin/events/${id}`).set('token', token);

  beforeAll(async () => {
    fake = await startFakeZoom();
    t = await startTestApp({ SYNC_TOKEN_KEY: randomBytes(32).toString('base64'), ZOOM_BASE_URL: fake.url, RUN_WORKER: 'true' });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
    await connect(t, a.organizationId, 'zoom', await fakeToken(fake.url, CLIENT, 'basic'));
  }, 120000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('identifies the account by its display name (HTTP Basic client auth, expiring token)', async () => {
    const token = await fakeToken(fake.url, CLIENT, 'basic');
    expect(token.expires_in).toBe(3600);
    expect(await t.created.app.get(ZoomDriver).identify(token.access_token)).toEqual({
      accountName: 'Riley Studio',
      metadata: { user_id: fake.state.user.id },
    });
  });

  it('gives a session of an online course one meeting, shows its join URL on the event, updates and deletes it', async () => {
    const course = await onlineCourse(a.token);
    const created = fake.state.counts.meetingsCreated;
    const id = await scheduleSession(t, a.token, course, { daysFromNow: 10, capacity: 6 });
    const read = await eventually(async () => (await event(id).expect(200)).body, (e) => e.meeting_join_url !== null);
    const mapping = await mappingOf(t, a.organizationId, 'zoom', 'event', id);
    const meeting = fake.state.meetings.get(Number(mapping!.remote_id))!;
    expect(read.meeting_join_url).toBe(meeting.join_url);
    expect(meeting).toMatchObject({ topic: read.name, duration: 120, timezone: 'America/New_York', type: 2 });
    expect(meeting.start_time).toBe(new Date(read.starts_at).toISOString().replace('.000Z', 'Z'));
    expect(fake.state.counts.meetingsCreated).toBe(created + 1);

    await t.http.put(`/api/admin/events/${id}`).set('token', a.token).send({ capacity: 9, price: 4500 }).expect(200);
    await eventually(() => fake.state.counts.meetingsUpdated, (n) => n >= 1);
    expect(fake.state.counts.meetingsCreated).toBe(created + 1);

    await t.http.delete(`/api/admin/events/${id}`).set('token', a.token).expect(200);
    await eventually(() => meeting.status, (s) => s === 'deleted');
    expect(await mappingOf(t, a.organizationId, 'zoom', 'event', id)).toMatchObject({ stage: 'cancelled' });
  });

  it('a 429 from Zoom pauses the queue for its Retry-After, then the meeting is created once', async () => {
    const course = await onlineCourse(a.token);
    const created = fake.state.counts.meetingsCreated;
    const limited = fake.state.rateLimit.answered;
    fake.state.rateLimit.next(1, 1);
    const started = Date.now();
    const id = await scheduleSession(t, a.token, course, { daysFromNow: 12, capacity: 4 });
    await eventually(async () => (await event(id).expect(200)).body, (e) => e.meeting_join_url !== null);
    expect(fake.state.rateLimit.answered).toBe(limited + 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.state.counts.meetingsCreated).toBe(created + 1);
    expect(await mappingOf(t, a.organizationId, 'zoom', 'event', id)).toMatchObject({ stage: 'synced' });
  });

  it('gives no meeting to a session at a location not marked online, whatever its name says', async () => {
    const studio = await schedulableCourse(t, a.token);
    const named = await courseAt(a.token, { name: 'Online (Zoom)', address: 'Virtual room' });
    for (const course of [studio, named]) {
      const id = await scheduleSession(t, a.token, course, { daysFromNow: 11 });
      await t.idle(); // nothing more is going to happen now: no job due or running
      expect(await mappingOf(t, a.organizationId, 'zoom', 'event', id)).toBeNull();
      expect((await event(id).expect(200)).body.meeting_join_url).toBeNull();
    }
  });

  it('attaches the meeting summary to the event when meeting_summary is on', async () => {
    await t.http
      .put('/api/admin/sync/providers/config_schema')
      .set('token', a.token)
      .send({ provider_name: 'zoom', meeting_summary: true })
      .expect(200);
    const course = await onlineCourse(a.token);
    const id = await scheduleSession(t, a.token, course, { daysFromNow: 12 });
    const mapping = await eventually(() => mappingOf(t, a.organizationId, 'zoom', 'event', id), (m) => Boolean(m?.remote_id));
    const meeting = fake.state.meetings.get(Number(mapping!.remote_id))!;
    // The session took place: Zoom writes its summary, and the (delayed) summary job reads it.
    fake.summarize(meeting, 'Centered clay and pulled the first walls.');
    // The summary job waits in the queue until 15 minutes after the session ends; run it now.
    const queue = (t.created.app.get(JOB_QUEUE) as unknown as { queue(name: string): Queue }).queue('sync-zoom');
    // the job id carries the mapping's version (a change made while a job runs is a new job)
    const version = () =>
      t.withEm(async (em) => {
        const [row] = await em
          .getConnection()
          .execute<{ version: number }[]>(
            `select version from sync_mapping where organization_id = ? and provider = 'zoom' and local_type = 'event' and local_id = ?`,
            [a.organizationId, id],
          );
        return row;
      });
    const delayed = await eventually(
      async () =>
        queue.getJob(
          syncJobId({
            organizationId: a.organizationId,
            provider: 'zoom',
            action: 'meeting.summary',
            localType: 'event',
            localId: id,
            version: (await version())?.version,
          }),
        ),
      (j) => Boolean(j),
    );
    const endsAt = Date.parse((await event(id).expect(200)).body.ends_at);
    expect(delayed!.timestamp + delayed!.opts.delay!).toBeGreaterThanOrEqual(endsAt + ZOOM_SUMMARY_DELAY_MS - 60_000);
    await delayed!.promote();
    const read = await eventually(async () => (await event(id).expect(200)).body, (e) => e.meeting_summary !== null);
    expect(read.meeting_summary).toContain('Centered clay and pulled the first walls.');
    expect(fake.state.counts.summariesRead).toBe(1);
  });

  it('keeps organizations apart: B, not connected, gets no meetings and cannot read A’s event', async () => {
    const course = await onlineCourse(b.token);
    const id = await scheduleSession(t, b.token, course, { daysFromNow: 13 });
    await t.idle(); // nothing more is going to happen now: no job due or running
    expect(await mappingOf(t, b.organizationId, 'zoom', 'event', id)).toBeNull();
    const mine = await scheduleSession(t, a.token, await onlineCourse(a.token), { daysFromNow: 14 });
    await event(mine, b.token).expect(404);
  });
});
