import { SYNC_CONFLICT_MESSAGES as C, SYNC_MESSAGES as M } from '@studio/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { Enrollment } from '../src/modules/scheduling/entities/enrollment.entity';
import { EnrollmentsService } from '../src/modules/scheduling/enrollments.service';
import { EventbriteDriver } from '../src/modules/sync/drivers/eventbrite/eventbrite.driver';
import { EventbriteOrdersService } from '../src/modules/sync/drivers/eventbrite/eventbrite-orders.service';
import { ProviderRateLimitedError } from '../src/modules/sync/drivers/sync-driver';
import { FakeEventbrite, FakeEventbriteOrder, startFakeEventbrite } from '../src/sync-fakes/eventbrite';
import { plainToInstance } from 'class-transformer';
import { EventbriteOrder } from '../src/modules/sync/drivers/eventbrite/eventbrite.resources';
import { eventually } from './support/fake-smtp';
import { validCourseEdit } from './support/catalog-fixtures';
import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { connect, fakeToken, mappingOf } from './support/sync-fixtures';
import { EventbriteWebhooksService } from '../src/modules/sync/drivers/eventbrite/eventbrite-webhooks.service';
import { SyncChangeEvents } from '../src/modules/sync/sync-config-events';
import { JOB_QUEUE, JobQueue } from '../src/queue/job-queue';
import { EVENTBRITE_POLL_QUEUE, EventbriteOrdersCron, eventbritePollScheduler } from '../src/modules/sync/crons/eventbrite-orders.cron';
import { startTestApp, TestApp } from './test-app';

/**
 * Eventbrite against its fake: pickers, the Edit Course events picker, sessions synced as events
 * (created once, updated, cancelled), orders coming back (webhook and poll) as enrollments with
 * source eventbrite, overbooking kept as a conflict, course reads, tenancy.
 */
describe('Eventbrite sync', () => {
  let fake: FakeEventbrite;
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };
  const CLIENT = { id: 'fake-eventbrite-client', secret: 'fake-eventbrite-secret' };
  const ORG = '2000001';

  const save = (body: object, token = a.token) =>
    t.http.put('/api/admin/sync/providers/config_schema').set('token', token).send({ provider_name: 'eventbrite', ...body }).expect(200);
  const eventsPicker = (token = a.token, query = '') => t.http.get(`/api/admin/partners/eventbrite/events${query}`).set('token', token);
  const PUBLIC_URL = 'https://studio.example';
  const schedules = () => t.created.app.get<JobQueue>(JOB_QUEUE).schedulerIds(EVENTBRITE_POLL_QUEUE);
  const metadataOf = (organizationId: string) =>
    t.withEm(async (em) => {
      const [row] = await em
        .getConnection()
        .execute<{ metadata: Record<string, string> }[]>(`select metadata from sync_connection where organization_id = ? and provider = 'eventbrite'`, [organizationId]);
      return row?.metadata ?? null;
    });
  const reconcileWebhook = (organizationId: string) =>
    t.created.app.get(EventbriteWebhooksService).reconcile(organizationId);
  const hooksOn = (eventbriteOrganization: string) => fake.state.webhooks.filter((w) => w.organization_id === eventbriteOrganization);
  const remoteOf = async (eventId: string, organizationId = a.organizationId) =>
    eventually(() => mappingOf(t, organizationId, 'eventbrite', 'event', eventId), (m) => m?.stage === 'synced' || m?.stage === 'cancelled' || m?.stage === 'failed');

  beforeAll(async () => {
    fake = await startFakeEventbrite();
    t = await startTestApp({ SYNC_TOKEN_KEY: randomBytes(32).toString('base64'), EVENTBRITE_BASE_URL: fake.url, RUN_WORKER: 'true' });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
  }, 120000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('answers the events picker with a clear 409 while Eventbrite is not connected, then until an organization is chosen', async () => {
    const notConnected = await eventsPicker().expect(409);
    expect(notConnected.body).toEqual({ statusCode: 409, message: M.notConnected('eventbrite') });
    await connect(t, a.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: fake.state.user.id });
    const noOrg = await eventsPicker().expect(409);
    expect(noOrg.body).toEqual({ statusCode: 409, message: M.organizationRequired });
  });

  it("fills the Eventbrite panel's organization picker from the driver once connected (B, not connected, gets none)", async () => {
    const read = await t.http.get('/api/admin/sync/providers/eventbrite').set('token', a.token).expect(200);
    expect(read.body.provider).toMatchObject({ connected: true });
    expect(read.body.organizations).toEqual([
      { id: '2000001', name: 'Riley Studio Events' },
      { id: '2000002', name: 'Riley Pop-ups' },
    ]);
    expect(read.body.conflicts).toEqual([]);
    expect(read.body.conflicts_total).toBe(0);
    const other = await t.http.get('/api/admin/sync/providers/eventbrite').set('token', b.token).expect(200);
    expect(other.body.provider.connected).toBe(false);
    expect(other.body.organizations).toEqual([]);
  });

  it("identifies the account and lists the user's organizations (pickers) through the real client", async () => {
    const driver = t.created.app.get(EventbriteDriver);
    const token = await fakeToken(fake.url, CLIENT, 'post');
    expect(await driver.identify(token.access_token)).toEqual({ accountName: 'Riley Studio', metadata: { user_id: fake.state.user.id } });
    expect(await driver.pickers({ accessToken: token.access_token, metadata: {} })).toEqual({
      organizations: [
        { id: '2000001', name: 'Riley Studio Events' },
        { id: '2000002', name: 'Riley Pop-ups' },
      ],
    });
  });

  it('turns a 429 into ProviderRateLimitedError with the Retry-After', async () => {
    const driver = t.created.app.get(EventbriteDriver);
    const token = await fakeToken(fake.url, CLIENT, 'post');
    fake.state.rateLimit.next(1, 7);
    const error = await driver.identify(token.access_token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect((error as ProviderRateLimitedError).retryAfterMs).toBe(7000);
  });

  it("lists the chosen organization's events for Edit Course's picker, page by page", async () => {
    await save({ organization_id: ORG });
    for (let i = 0; i < 55; i++) fake.addEvent(ORG, `Wheel night ${i}`, `2031-01-${String((i % 28) + 1).padStart(2, '0')}T18:00:00Z`);
    fake.addEvent('2000002', 'Other organization', '2031-02-01T18:00:00Z');
    const first = await eventsPicker().expect(200);
    expect(first.body.events).toHaveLength(50);
    expect(first.body.events[0]).toEqual({ id: expect.any(String), name: expect.stringMatching(/^Wheel night/), start: expect.stringMatching(/^2031-01-28T18:00:00/), status: 'live' });
    expect(first.body.continuation).toEqual(expect.any(String));
    const second = await eventsPicker(a.token, `?continuation=${first.body.continuation}`).expect(200);
    expect(second.body.events).toHaveLength(5);
    expect(second.body.continuation).toBeNull();
    const names = [...first.body.events, ...second.body.events].map((e: { name: string }) => e.name);
    expect(names).not.toContain('Other organization');
    // Another organization of the studio app has no connection of its own.
    await eventsPicker(b.token).expect(409);
  });

  it('creates a toggled session once as an event with a ticket class, updates it, and cancels it when deleted', async () => {
    const course = await schedulableCourse(t, a.token);
    const created = fake.state.counts.eventsCreated;
    const res = await t.http
      .post('/api/admin/events')
      .set('token', a.token)
      .send({
        activity_id: course.activity_id,
        location_id: course.location_id,
        instructor_id: course.instructor_id,
        dates: [{ date: '2031-03-10', time: '18:00', duration: 120 }],
        capacity: 12,
        price: 4500,
        sync_with_eventbrite: true,
      })
      .expect(201);
    const eventId = res.body.event_id as string;
    const mapping = await remoteOf(eventId);
    expect(mapping).toMatchObject({ stage: 'synced', last_error: null });
    const remote = fake.state.events.get(mapping!.remote_id!)!;
    expect(remote).toMatchObject({ organization_id: ORG, capacity: 12, currency: 'USD', status: 'draft' });
    expect(remote.start.utc).toBe('2031-03-10T22:00:00Z'); // 18:00 in New York (daylight time)
    const tickets = [...fake.state.ticketClasses.values()].filter((tc) => tc.event_id === remote.id);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ quantity_total: 12, free: false, cost: { currency: 'USD', value: 4500 } });
    expect(fake.state.counts.eventsCreated).toBe(created + 1);

    // A change updates the same event: nothing is created again.
    await t.http.put(`/api/admin/events/${eventId}`).set('token', a.token).send({ capacity: 20, price: 5000 }).expect(200);
    await eventually(() => tickets[0].quantity_total, (q) => q === 20);
    expect(tickets[0].cost).toMatchObject({ value: 5000 });
    expect(remote.capacity).toBe(20);
    expect(fake.state.counts.eventsCreated).toBe(created + 1);
    expect([...fake.state.ticketClasses.values()].filter((tc) => tc.event_id === remote.id)).toHaveLength(1);

    await t.http.delete(`/api/admin/events/${eventId}`).set('token', a.token).expect(200);
    await eventually(() => remote.status, (s) => s === 'canceled');
    expect(await remoteOf(eventId)).toMatchObject({ stage: 'cancelled', remote_id: remote.id });
  });

  it('leaves a session without the toggle alone, and syncs every session once sync_all_courses is on', async () => {
    const course = await schedulableCourse(t, a.token);
    const quiet = await scheduleSession(t, a.token, course, { daysFromNow: 40 });
    await t.idle(); // nothing more is going to happen now: no job due or running
    expect(await mappingOf(t, a.organizationId, 'eventbrite', 'event', quiet)).toBeNull();
    await save({ sync_all_courses: true });
    const all = await scheduleSession(t, a.token, course, { daysFromNow: 41 });
    expect(await remoteOf(all)).toMatchObject({ stage: 'synced', remote_id: expect.any(String) });
    await save({ sync_all_courses: false });
  });

  it("links a course to an existing event from Edit Course, and shows the course's syncMappings", async () => {
    const course = await schedulableCourse(t, a.token);
    const existing = fake.addEvent(ORG, 'Existing event', '2031-05-01T18:00:00Z');
    const res = await t.http
      .put(`/api/admin/activities/${course.activity_id}`)
      .set('token', a.token)
      .send({ ...validCourseEdit(course), sync_with_eventbrite: true, eventbrite_event_id: existing.id });
    expect(res.status).toBe(200);
    expect(await mappingOf(t, a.organizationId, 'eventbrite', 'activity', course.activity_id)).toMatchObject({
      stage: 'synced',
      remote_id: existing.id,
    });
    const read = await t.http.get(`/api/admin/activities/${course.activity_id}`).set('token', a.token).expect(200);
    expect(read.body.syncMappings).toEqual([{ SyncProvider: { name: 'eventbrite', config_schema: { sync_all_courses: false } } }]);
    // Another organization's course read shows nothing of it, and a course never synced shows none.
    const plain = await schedulableCourse(t, a.token);
    expect((await t.http.get(`/api/admin/activities/${plain.activity_id}`).set('token', a.token).expect(200)).body.syncMappings).toEqual([]);
    await t.http.get(`/api/admin/activities/${course.activity_id}`).set('token', b.token).expect(404);
  });

  describe('orders placed on Eventbrite', () => {
    let course: Awaited<ReturnType<typeof schedulableCourse>>;
    let eventId: string;
    let remoteId: string;
    let wrenOrder: FakeEventbriteOrder;
    let olaOrder: FakeEventbriteOrder;

    beforeAll(async () => {
      course = await schedulableCourse(t, a.token);
      const res = await t.http
        .post('/api/admin/events')
        .set('token', a.token)
        .send({
          activity_id: course.activity_id,
          location_id: course.location_id,
          instructor_id: course.instructor_id,
          dates: [{ date: '2031-04-10', time: '18:00', duration: 120 }],
          capacity: 3,
          price: 4500,
          sync_with_eventbrite: true,
        })
        .expect(201);
      eventId = res.body.event_id;
      remoteId = (await remoteOf(eventId))!.remote_id!;
    });

    const enrollments = async () =>
      (await t.http.get(`/api/admin/enrollment/event/${eventId}?page=1&limit=100`).set('token', a.token).expect(200)).body;

    it('registers the Eventbrite webhook once the server knows its public URL, keeps its id on the connection, and stops polling', async () => {
      // An organization is chosen, but the server has no public URL: no webhook, the poll runs.
      expect(fake.state.webhooks).toEqual([]);
      expect((await metadataOf(a.organizationId))?.webhook_id).toBeUndefined();
      expect(await schedules()).toContain(eventbritePollScheduler(a.organizationId));
      t.config.PUBLIC_APP_URL = PUBLIC_URL;
      await save({ organization_id: ORG });
      const [hook] = await eventually(() => hooksOn(ORG), (l) => l.length === 1);
      expect(hook).toMatchObject({
        endpoint_url: `${PUBLIC_URL}/api/webhooks/eventbrite`,
        actions: 'order.placed,order.refunded,order.updated',
        event_id: null,
      });
      const metadata = await eventually(() => metadataOf(a.organizationId), (m) => m?.webhook_id === hook.id);
      expect(metadata).toEqual({
        user_id: fake.state.user.id,
        webhook_id: hook.id,
        webhook_organization_id: ORG,
        webhook_endpoint_url: `${PUBLIC_URL}/api/webhooks/eventbrite`,
      });
      await eventually(schedules, (ids) => !ids.includes(eventbritePollScheduler(a.organizationId)));
      // Saving again, and running the job again, registers nothing more.
      await save({ sync_all_courses: false });
      await reconcileWebhook(a.organizationId);
      expect(fake.state.counts.webhooksCreated).toBe(1);
      expect(fake.state.webhooks).toHaveLength(1);
    });

    it('changing the Eventbrite organization replaces the webhook (the old one is deleted), and a lost create answer is adopted, not repeated', async () => {
      const [first] = hooksOn(ORG);
      await save({ organization_id: '2000002' });
      const [moved] = await eventually(() => hooksOn('2000002'), (l) => l.length === 1);
      await eventually(() => metadataOf(a.organizationId), (m) => m?.webhook_id === moved.id && m?.webhook_organization_id === '2000002');
      expect(hooksOn(ORG)).toEqual([]);
      expect(fake.server.requests.some((r) => r.method === 'DELETE' && r.path === `/v3/webhooks/${first.id}/`)).toBe(true);
      await save({ organization_id: ORG });
      const [back] = await eventually(() => hooksOn(ORG), (l) => l.length === 1);
      await eventually(() => metadataOf(a.organizationId), (m) => m?.webhook_id === back.id);
      expect(fake.state.webhooks).toHaveLength(1);
      expect(fake.state.counts.webhooksDeleted).toBe(2);
      // The create succeeded but its answer was lost (nothing kept): the next run adopts it.
      const created = fake.state.counts.webhooksCreated;
      await t.withEm((em) =>
        em.getConnection().execute(`update sync_connection set metadata = metadata - 'webhook_id' where organization_id = ? and provider = 'eventbrite'`, [a.organizationId]),
      );
      await reconcileWebhook(a.organizationId);
      expect(fake.state.counts.webhooksCreated).toBe(created);
      expect((await metadataOf(a.organizationId))?.webhook_id).toBe(back.id);
      expect(await schedules()).not.toContain(eventbritePollScheduler(a.organizationId));
    });

    it('a webhook delivery arrives as an enrollment whose order has source eventbrite, once however often it is sent', async () => {
      const order = (wrenOrder = fake.placeOrder(remoteId, { first_name: 'Wren', last_name: 'Hale', email: 'wren@buyer.test' }));
      const body = fake.webhookBody(order);
      const first = await t.http.post('/api/webhooks/eventbrite').send(body).expect(200);
      expect(first.body).toEqual({ received: true, queued: 1 });
      await t.http.post('/api/webhooks/eventbrite').send(body).expect(200);
      const list = await eventually(enrollments, (l) => l.totalCount === 1);
      expect(list.enrollments[0]).toMatchObject({ Student: expect.objectContaining({ email: 'wren@buyer.test' }) });
      const orders = await t.http.get('/api/admin/orders?source=eventbrite').set('token', a.token).expect(200);
      const mine = orders.body.orders.filter((o: { Student: { email: string } }) => o.Student.email === 'wren@buyer.test');
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ source: 'eventbrite', total: 4500, status: 'paid' });
      // The poll finds the same order again: nothing more.
      expect(await t.created.app.get(EventbriteOrdersService).poll(a.organizationId)).toMatchObject({ recorded: 0, duplicate: 1 });
      expect((await enrollments()).totalCount).toBe(1);
    });

    it("links the sale's enrollment to its order through the scheduling module, the one writer of enrollment.order_id", async () => {
      const orders = await t.http.get('/api/admin/orders?source=eventbrite').set('token', a.token).expect(200);
      const sale = orders.body.orders.find((o: { Student: { email: string } }) => o.Student.email === 'wren@buyer.test');
      const row = (await enrollments()).enrollments.find((e: { Student: { email: string } }) => e.Student.email === 'wren@buyer.test');
      expect(row.Order).toEqual({ order_id: sale.order_id, order_number: sale.order_number, totalPrice: 4500, refundedPrice: 0, status: 'paid' });
      const scheduling = t.created.app.get(EnrollmentsService);
      await t.withEm(async (em) => {
        const enrollment = await em.findOneOrFail(Enrollment, row.enrollment_id);
        // Another organization cannot link it, and an enrollment already linked keeps its order.
        await expect(scheduling.linkOrder({ organizationId: b.organizationId }, em, enrollment.id, randomUUID())).rejects.toMatchObject({ status: 404 });
        expect(await scheduling.linkOrder({ organizationId: a.organizationId }, em, enrollment.id, randomUUID(), { keepExisting: true })).toBe(false);
      });
      expect((await enrollments()).enrollments.find((e: { enrollment_id: string }) => e.enrollment_id === row.enrollment_id).Order.order_id).toBe(sale.order_id);
    });

    it('the polling cron brings an order no webhook announced', async () => {
      olaOrder = fake.placeOrder(remoteId, { first_name: 'Ola', last_name: 'Berg', email: 'ola@buyer.test' });
      expect(await t.created.app.get(EventbriteOrdersService).poll(a.organizationId)).toMatchObject({ recorded: 1 });
      expect((await enrollments()).totalCount).toBe(2);
    });

    it('never oversells the last seat to a local enrollment racing an Eventbrite sale; the loser on Eventbrite is a visible conflict', async () => {
      const students = await Promise.all([0, 1, 2].map(() => addStudent(t, a.token)));
      const sales = [0, 1, 2].map((i) => fake.placeOrder(remoteId, { first_name: 'Race', last_name: `${i}`, email: `race${i}@buyer.test` }));
      const orders = t.created.app.get(EventbriteOrdersService);
      const results = await Promise.all([
        ...students.map((s) => t.http.post(`/api/admin/orders/enroll/${s}`).set('token', a.token).send({ event_id: eventId })),
        ...sales.map((s) => orders.importById(a.organizationId, s.id)),
      ]);
      const local = results.slice(0, 3).filter((r) => (r as { status: number }).status === 201).length;
      const remote = results.slice(3).filter((r) => r === 'recorded').length;
      expect(local + remote).toBe(1); // one seat was left
      const event = await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token).expect(200);
      expect(event.body.seats_taken).toBe(3);
      const conflicts = await orders.conflicts(a.organizationId);
      expect(conflicts.filter((c) => c.remote_order_id.length > 0 && sales.some((s) => s.id === c.remote_order_id))).toHaveLength(3 - remote);
      expect(conflicts[0].message).toBe(M.overbooked(1, 0));
      // The conflict stays one per order.
      await orders.importById(a.organizationId, sales[0].id);
      expect((await orders.conflicts(a.organizationId)).length).toBe(conflicts.length);
    });

    it('shows the conflicts in the Eventbrite read; Mark resolved takes one off for good, and another org gets 404', async () => {
      const read = async (token = a.token) =>
        (await t.http.get('/api/admin/sync/providers/eventbrite').set('token', token).expect(200)).body;
      const before = await read();
      expect(before.conflicts_total).toBeGreaterThanOrEqual(2);
      expect(before.conflicts).toHaveLength(before.conflicts_total);
      const first = before.conflicts[0];
      expect(first).toEqual({
        id: expect.any(String),
        remote_order_id: expect.any(String),
        event_id: eventId,
        seats: 1,
        buyer_email: expect.stringMatching(/^race\d@buyer\.test$/),
        message: M.overbooked(1, 0),
        created_at: expect.any(String),
      });
      // B's panel shows none of A's conflicts, and B cannot resolve one (404, not 403).
      const other = await read(b.token);
      expect(other.conflicts).toEqual([]);
      expect(other.conflicts_total).toBe(0);
      const foreign = await t.http.post(`/api/admin/sync/conflicts/${first.id}/resolve`).set('token', b.token).expect(404);
      expect(foreign.body.message).toBe(C.notFound);
      await t.http.post('/api/admin/sync/conflicts/not-a-uuid/resolve').set('token', a.token).expect(404);

      const resolved = await t.http.post(`/api/admin/sync/conflicts/${first.id}/resolve`).set('token', a.token).expect(200);
      expect(resolved.body.conflicts_total).toBe(before.conflicts_total - 1);
      expect(resolved.body.conflicts.map((c: { id: string }) => c.id)).not.toContain(first.id);
      // Resolving twice is a 404: it is no longer an open conflict.
      await t.http.post(`/api/admin/sync/conflicts/${first.id}/resolve`).set('token', a.token).expect(404);
      // The order is still known: importing it again neither enrolls it nor reopens the conflict.
      const orders = t.created.app.get(EventbriteOrdersService);
      expect(await orders.importById(a.organizationId, first.remote_order_id)).toBe('duplicate');
      expect((await read()).conflicts_total).toBe(before.conflicts_total - 1);
      const event = await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token).expect(200);
      expect(event.body.seats_taken).toBe(3);
      // Mailing lists and Zoom carry no conflicts.
      const zoom = await t.http.get('/api/admin/sync/providers/zoom').set('token', a.token).expect(200);
      expect(zoom.body).not.toHaveProperty('conflicts');
    });

    it("ignores a delivery of a webhook the studio did not register (even naming A's Eventbrite user), and B sees none of A's sales", async () => {
      const order = fake.placeOrder(remoteId, { first_name: 'Forged', last_name: 'Hook', email: 'forged@buyer.test' });
      const real = fake.webhookBody(order);
      const forged = { ...real, config: { ...real.config, webhook_id: '424242' } };
      expect((await t.http.post('/api/webhooks/eventbrite').send(forged).expect(200)).body.queued).toBe(0);
      const noId = { ...real, config: { action: 'order.placed', user_id: fake.state.user.id } };
      expect((await t.http.post('/api/webhooks/eventbrite').send(noId).expect(200)).body.queued).toBe(0);
      const otherAction = fake.webhookBody(order, 'event.published');
      expect((await t.http.post('/api/webhooks/eventbrite').send(otherAction).expect(200)).body.queued).toBe(0);
      await t.idle(); // nothing more is going to happen now: no job due or running
      const orders = await t.http.get('/api/admin/orders?source=eventbrite').set('token', a.token).expect(200);
      expect(orders.body.orders.map((o: { Student: { email: string } }) => o.Student.email)).not.toContain('forged@buyer.test');
      fake.state.orders.delete(order.id); // out of the later polls
      const res = await t.http
        .post('/api/webhooks/eventbrite')
        .send({ config: { action: 'order.placed', user_id: '999' }, api_url: `${fake.url}/v3/orders/1/` })
        .expect(200);
      expect(res.body.queued).toBe(0);
      expect(await t.created.app.get(EventbriteOrdersService).conflicts(b.organizationId)).toEqual([]);
      await t.http.get(`/api/admin/enrollment/event/${eventId}?page=1&limit=10`).set('token', b.token).expect(404);
    });

    describe('refunded or cancelled on Eventbrite', () => {
      const seatsTaken = async () => (await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token).expect(200)).body.seats_taken as number;
      const saleOf = async (email: string) =>
        (await t.http.get('/api/admin/orders?source=eventbrite').set('token', a.token).expect(200)).body.orders.find(
          (o: { Student: { email: string } }) => o.Student.email === email,
        );
      const enrolled = async (email: string) =>
        ((await enrollments()).enrollments.find((e: { Student: { email: string } }) => e.Student.email === email) ?? null) as {
          GuestEnrollments: unknown[];
        } | null;
      const deliver = (order: FakeEventbriteOrder, action: string) => t.http.post('/api/webhooks/eventbrite').send(fake.webhookBody(order, action)).expect(200);
      const service = () => t.created.app.get(EventbriteOrdersService);

      it('a refund (webhook order.refunded) gives the seat back: the enrollment is removed and the order marked refunded, once however often it comes', async () => {
        const before = await seatsTaken();
        expect(await enrolled('wren@buyer.test')).not.toBeNull();
        fake.refundOrder(wrenOrder.id);
        expect((await deliver(wrenOrder, 'order.refunded')).body.queued).toBe(1);
        await deliver(wrenOrder, 'order.refunded');
        await eventually(() => enrolled('wren@buyer.test'), (e) => e === null);
        expect(await seatsTaken()).toBe(before - 1);
        const sale = await saleOf('wren@buyer.test');
        expect(sale).toMatchObject({ status: 'refunded', total: 4500 });
        const drawer = await t.http.get(`/api/admin/order/${sale.order_id}`).set('token', a.token).expect(200);
        expect(drawer.body).toMatchObject({ status: 'refunded', refunded_amount: 4500 });
        expect(drawer.body.activity).toEqual([expect.objectContaining({ action: 'refund', amount: 4500, detail: 'Refunded or cancelled on Eventbrite: seats released' })]);
        // The same refund again, by webhook, import or poll, changes nothing.
        await deliver(wrenOrder, 'order.updated');
        expect(await service().importById(a.organizationId, wrenOrder.id)).toBe('duplicate');
        expect((await service().poll(a.organizationId)).released).toBe(0);
        await t.idle(); // nothing more is going to happen now: no job due or running
        expect(await seatsTaken()).toBe(before - 1);
        expect((await t.http.get(`/api/admin/order/${sale.order_id}`).set('token', a.token).expect(200)).body.activity).toHaveLength(1);
      });

      it('the poll asks for refunded and cancelled orders too, and releases the seat of one cancelled on Eventbrite', async () => {
        const before = await seatsTaken();
        fake.refundOrder(olaOrder.id, 'cancelled');
        expect(await service().poll(a.organizationId)).toMatchObject({ released: 1, recorded: 0 });
        expect(fake.server.requests.filter((r) => r.path === `/v3/organizations/${ORG}/orders/`).length).toBeGreaterThan(0);
        expect(await enrolled('ola@buyer.test')).toBeNull();
        expect(await seatsTaken()).toBe(before - 1);
        expect((await saleOf('ola@buyer.test')).status).toBe('refunded');
      });

      it("a buyer's second sale refunded (order.updated) shrinks their party; two releases of the first at once release it once", async () => {
        const before = await seatsTaken();
        const buyer = { first_name: 'Pat', last_name: 'Moss', email: 'pat@buyer.test' };
        const first = fake.placeOrder(remoteId, buyer);
        const second = fake.placeOrder(remoteId, buyer);
        expect(await service().importById(a.organizationId, first.id)).toBe('recorded');
        expect(await service().importById(a.organizationId, second.id)).toBe('recorded');
        expect((await enrolled('pat@buyer.test'))!.GuestEnrollments).toHaveLength(1);
        expect(await seatsTaken()).toBe(before + 2);

        fake.refundOrder(second.id);
        await deliver(second, 'order.updated');
        await eventually(() => enrolled('pat@buyer.test'), (e) => e?.GuestEnrollments.length === 0);
        expect(await seatsTaken()).toBe(before + 1);

        fake.refundOrder(first.id);
        const outcomes = await Promise.all([service().importById(a.organizationId, first.id), service().importById(a.organizationId, first.id)]);
        expect(outcomes.sort()).toEqual(['duplicate', 'released']);
        expect(await enrolled('pat@buyer.test')).toBeNull();
        expect(await seatsTaken()).toBe(before);
      });

      it('a placed order partly refunded on Eventbrite gives back those seats and records what they cost, once however often it comes', async () => {
        const before = await seatsTaken();
        const capacity = (cap: number) => t.http.put(`/api/admin/events/${eventId}`).set('token', a.token).send({ capacity: cap, price: 4500 }).expect(200);
        await capacity(before + 3); // room for a party of three
        const order = fake.placeOrder(remoteId, { first_name: 'Quin', last_name: 'Lark', email: 'quin@buyer.test', quantity: 3 });
        expect(await service().importById(a.organizationId, order.id)).toBe('recorded');
        expect((await enrolled('quin@buyer.test'))!.GuestEnrollments).toHaveLength(2);
        expect(await seatsTaken()).toBe(before + 3);
        const drawer = async () => (await t.http.get(`/api/admin/order/${(await saleOf('quin@buyer.test')).order_id}`).set('token', a.token).expect(200)).body;

        // One of the three tickets refunded; the order stays placed on Eventbrite.
        fake.refundAttendees(order.id, 1);
        await deliver(order, 'order.updated');
        await eventually(() => enrolled('quin@buyer.test'), (e) => e?.GuestEnrollments.length === 1);
        expect(await seatsTaken()).toBe(before + 2);
        expect(await drawer()).toMatchObject({ status: 'partial_refund', total: 13500, refunded_amount: 4500 });
        expect((await drawer()).activity).toEqual([
          expect.objectContaining({ action: 'refund', amount: 4500, detail: 'Partly refunded or cancelled on Eventbrite: 1 seat released' }),
        ]);
        // The same change again, twice at once: nothing more.
        expect(await Promise.all([service().importById(a.organizationId, order.id), service().importById(a.organizationId, order.id)])).toEqual(['duplicate', 'duplicate']);
        expect(await seatsTaken()).toBe(before + 2);

        // A second ticket, delivered twice at once: released once.
        fake.refundAttendees(order.id, 1);
        const outcomes = await Promise.all([service().importById(a.organizationId, order.id), service().importById(a.organizationId, order.id)]);
        expect(outcomes.sort()).toEqual(['duplicate', 'released']);
        expect((await enrolled('quin@buyer.test'))!.GuestEnrollments).toHaveLength(0);
        expect(await seatsTaken()).toBe(before + 1);
        expect(await drawer()).toMatchObject({ status: 'partial_refund', refunded_amount: 9000 });

        // Then the whole order: the last seat goes, the order is refunded in full.
        fake.refundOrder(order.id);
        expect(await service().importById(a.organizationId, order.id)).toBe('released');
        expect(await enrolled('quin@buyer.test')).toBeNull();
        expect(await seatsTaken()).toBe(before);
        expect(await drawer()).toMatchObject({ status: 'refunded', refunded_amount: 13500 });
        expect((await drawer()).activity).toHaveLength(3);
        await capacity(3);
      });

      it('a sale held as a conflict and refunded on Eventbrite is resolved by itself (it took no seat)', async () => {
        const open = await service().conflicts(a.organizationId);
        expect(open.length).toBeGreaterThan(0);
        const conflict = open[0];
        const before = await seatsTaken();
        const order = fake.refundOrder(conflict.remote_order_id);
        await deliver(order, 'order.refunded');
        await eventually(() => service().conflicts(a.organizationId), (l) => !l.some((c) => c.id === conflict.id));
        const [row] = await t.withEm((em) =>
          em.getConnection().execute<{ stage: string; resolved_by: string | null; resolved_at: Date | null }[]>(
            'select stage, resolved_by, resolved_at from sync_external_sale where id = ?',
            [conflict.id],
          ),
        );
        expect(row).toMatchObject({ stage: 'resolved', resolved_by: null });
        expect(row.resolved_at).not.toBeNull();
        expect(await seatsTaken()).toBe(before);
      });

      it('an order refunded before it was ever recorded is not enrolled by a late import of its placed state', async () => {
        const before = await seatsTaken();
        const order = fake.placeOrder(remoteId, { first_name: 'Quinn', last_name: 'Late', email: 'quinn@buyer.test' });
        const placed = plainToInstance(EventbriteOrder, JSON.parse(JSON.stringify(order)));
        fake.refundOrder(order.id);
        expect(await service().importById(a.organizationId, order.id)).toBe('ignored');
        // The 'placed' delivery, read before the refund, arrives last.
        expect(await t.withEm(() => service().importOrder(a.organizationId, placed))).toBe('duplicate');
        expect(await enrolled('quinn@buyer.test')).toBeNull();
        expect(await saleOf('quinn@buyer.test')).toBeUndefined();
        expect(await seatsTaken()).toBe(before);
      });
    });
  });
  describe('the polling schedule and the webhook on connect and disconnect', () => {
    it('polls, on one repeatable schedule, an organization with an Eventbrite organization chosen and no webhook (no public URL); Disconnect removes it', async () => {
      // A has its webhook: no poll.
      expect(await schedules()).not.toContain(eventbritePollScheduler(a.organizationId));
      delete t.config.PUBLIC_APP_URL;
      try {
        await connect(t, b.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: fake.state.user.id });
        // Connected but no organization chosen: nothing to poll yet.
        await save({ sync_all_courses: false }, b.token);
        expect(await schedules()).not.toContain(eventbritePollScheduler(b.organizationId));
        await save({ organization_id: '2000002' }, b.token);
        expect(await schedules()).toContain(eventbritePollScheduler(b.organizationId));
        // A reconnect (its announcement) schedules the poll again, had it been lost.
        await t.created.app.get(EventbriteOrdersCron).unschedule(b.organizationId);
        await t.redeliver(t.created.app.get(SyncChangeEvents), { type: 'sync.connected', organizationId: b.organizationId, provider: 'eventbrite' });
        expect(await schedules()).toContain(eventbritePollScheduler(b.organizationId));
        // Saving again (another replica, another field) keeps the one schedule, and registers no webhook.
        await save({ sync_all_courses: false }, b.token);
        await reconcileWebhook(b.organizationId);
        expect((await schedules()).filter((id) => id === eventbritePollScheduler(b.organizationId))).toHaveLength(1);
        expect(hooksOn('2000002')).toEqual([]);
        await t.http.delete('/api/admin/sync/providers/eventbrite/connection').set('token', b.token).expect(204);
        expect(await schedules()).not.toContain(eventbritePollScheduler(b.organizationId));
      } finally {
        t.config.PUBLIC_APP_URL = PUBLIC_URL;
      }
    });

    it('a start reconciles the schedules with the connections, and a poll of an organization no longer polled removes its schedule', async () => {
      const cron = t.created.app.get(EventbriteOrdersCron);
      const queue = t.created.app.get<JobQueue>(JOB_QUEUE);
      await cron.schedule(a.organizationId); // left over: A has a webhook now
      await cron.schedule(b.organizationId); // left over: B is no longer connected
      await cron.reconcile();
      expect(await schedules()).not.toContain(eventbritePollScheduler(a.organizationId));
      expect(await schedules()).not.toContain(eventbritePollScheduler(b.organizationId));
      // The schedule's own job removes a schedule that outlived its connection.
      await queue.upsertScheduler(EVENTBRITE_POLL_QUEUE, eventbritePollScheduler(b.organizationId), 'orders.poll', { organizationId: b.organizationId }, { everyMs: 60_000 });
      await eventually(schedules, (ids) => !ids.includes(eventbritePollScheduler(b.organizationId)));
    });

    it('Disconnect deletes the webhook at Eventbrite; when Eventbrite fails, the failure is logged and the disconnect stands', async () => {
      const disconnect = () => t.http.delete('/api/admin/sync/providers/eventbrite/connection').set('token', b.token).expect(204);
      await connect(t, b.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: fake.state.user.id });
      await save({ organization_id: '2000002' }, b.token);
      const [hook] = await eventually(() => hooksOn('2000002'), (l) => l.length === 1);
      await eventually(() => metadataOf(b.organizationId), (m) => m?.webhook_id === hook.id);
      await disconnect();
      expect(hooksOn('2000002')).toEqual([]);
      expect(await metadataOf(b.organizationId)).toBeNull();
      // A's webhook is untouched.
      expect(hooksOn(ORG)).toHaveLength(1);

      await connect(t, b.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: fake.state.user.id });
      await save({ organization_id: '2000001' }, b.token);
      // B's own webhook on the Eventbrite organization A also uses (A's is not adopted: A holds it).
      await eventually(() => hooksOn(ORG), (l) => l.length === 2);
      const bHook = (await eventually(() => metadataOf(b.organizationId), (m) => Boolean(m?.webhook_id)))!.webhook_id;
      expect(bHook).not.toBe((await metadataOf(a.organizationId))!.webhook_id);
      const before = fake.server.before;
      fake.server.before = (req) => (req.method === 'DELETE' ? { status: 503, json: { error: 'unavailable' } } : (before?.(req) ?? null));
      try {
        await disconnect();
      } finally {
        fake.server.before = before;
      }
      expect(await metadataOf(b.organizationId)).toBeNull();
      expect(hooksOn(ORG).map((w) => w.id)).toContain(bHook); // left at Eventbrite (logged)
    });

    it("a reconnect of the same account keeps its webhook, with no gap and no second one; connecting another account deletes the old account's webhook", async () => {
      const owner = await t.organizationWithUser('owner', 'Gamma Wood');
      const c = { token: owner.token, organizationId: owner.organization.id };
      const user = fake.state.user.id;
      await connect(t, c.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: user });
      await save({ organization_id: '2000002' }, c.token);
      const hook = (await eventually(() => metadataOf(c.organizationId), (m) => Boolean(m?.webhook_id)))!.webhook_id;
      const created = fake.state.counts.webhooksCreated;

      // The same Eventbrite user again: the webhook id is still on the connection at once.
      await connect(t, c.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: user });
      expect(await metadataOf(c.organizationId)).toMatchObject({ user_id: user, webhook_id: hook, webhook_organization_id: '2000002' });
      await reconcileWebhook(c.organizationId);
      expect(fake.state.counts.webhooksCreated).toBe(created);
      expect(hooksOn('2000002').map((w) => w.id)).toEqual([hook]);

      // Another Eventbrite user: the old account's webhook is deleted while its token still works,
      // and the new account gets its own.
      await connect(t, c.organizationId, 'eventbrite', await fakeToken(fake.url, CLIENT, 'post'), { user_id: 'another-eventbrite-user' });
      expect(fake.server.requests.some((r) => r.method === 'DELETE' && r.path === `/v3/webhooks/${hook}/`)).toBe(true);
      expect(await metadataOf(c.organizationId)).toEqual({ user_id: 'another-eventbrite-user' });
      const next = (await eventually(() => metadataOf(c.organizationId), (m) => Boolean(m?.webhook_id)))!.webhook_id;
      expect(next).not.toBe(hook);
      expect(hooksOn('2000002').map((w) => w.id)).toEqual([next]);
      await t.http.delete('/api/admin/sync/providers/eventbrite/connection').set('token', c.token).expect(204);
    });
  });
});
