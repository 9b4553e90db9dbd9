import { CHECKOUT_MESSAGES, DISCOUNT_CASE_BASE, SESSION_CANCEL_MESSAGES as M } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { DemoPayment, DemoRefund } from '../src/modules/payments/demo/demo-ledger.entities';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { SessionCancelEvents } from '../src/modules/scheduling/session-events';
import { FakeEventbrite, startFakeEventbrite } from '../src/sync-fakes/eventbrite';
import { FakeZoom, startFakeZoom } from '../src/sync-fakes/zoom';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { connect, fakeToken, mappingOf } from './support/sync-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
type Org = { token: string; organizationId: string };
type Cancellation = {
  refund: string;
  reason: string;
  total: number;
  processed: number;
  refunded_cents: number;
  students: { enrollment_id: string; student_id: string; email: string; outcome: string; refund_cents: number; note: string | null; order_id: string | null }[];
};

/**
 * The studio cancels a session with students (issue 23), through the admin API against the demo
 * payment provider's own ledger, a local SMTP server, and the Eventbrite and Zoom fakes: everyone
 * refunded in full (points redeemed given back), or no refund; every student mailed once; unpaid
 * payment links cancelled; the provider events cancelled; a redelivered or retried seat refunds
 * once; a cancelled session takes no seat; validation, 409 on a second cancel, tenancy.
 */
describe('the studio cancels a session', () => {
  let smtp: Smtp;
  let eventbrite: FakeEventbrite;
  let zoom: FakeZoom;
  let t: TestApp;
  let a: Org;
  let b: Org;
  let slug: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let serial = 0;
  let day = 5;
  const ORG = '2000001';

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    eventbrite = await startFakeEventbrite();
    zoom = await startFakeZoom();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-session-cancel-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
      SYNC_TOKEN_KEY: randomBytes(32).toString('base64'),
      EVENTBRITE_BASE_URL: eventbrite.url,
      ZOOM_BASE_URL: zoom.url,
    });
    const ownerA = await t.organizationWithUser('owner', 'Cancel Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Other Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
    slug = (await t.http.get('/api/admin/org').set('token', a.token).expect(200)).body.slug;
    await t.http.put('/api/admin/loyalty-program').set('token', a.token).send({ status: 'active' }).expect(200);
    // A payment method on file (refunds need one); Other Glass has none.
    const setup = await t.http.post('/api/admin/payment-methods/setup').set('token', a.token).expect(200);
    await t.http.post(`${new URL(setup.body.url).pathname}/pay`).type('form').send('').expect(200);
    // Sessions at an online location, synced to Eventbrite: each gets an event and a Zoom meeting.
    await connect(t, a.organizationId, 'eventbrite', await fakeToken(eventbrite.url, { id: 'fake-eventbrite-client', secret: 'fake-eventbrite-secret' }, 'post'), {
      user_id: eventbrite.state.user.id,
    });
    await connect(t, a.organizationId, 'zoom', await fakeToken(zoom.url, { id: 'fake-zoom-client', secret: 'fake-zoom-secret' }, 'basic'));
    await t.http
      .put('/api/admin/sync/providers/config_schema')
      .set('token', a.token)
      .send({ provider_name: 'eventbrite', organization_id: ORG, sync_all_courses: true })
      .expect(200);
    const refs = await schedulableCourse(t, a.token, 10, { name: 'Raku firing night' });
    const online = await t.http
      .post('/api/admin/location')
      .set('token', a.token)
      .send({ name: 'Live stream', address: 'From the studio', timezone: 'America/New_York', online: true })
      .expect(201);
    course = { ...refs, location_id: online.body.location_id as string };
  }, 120000);
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
    await smtp?.close();
    await eventbrite?.close();
    await zoom?.close();
  });

  const session = (price = 4000) => scheduleSession(t, a.token, course, { capacity: 6, price, daysFromNow: ++day });
  const cancel = (eventId: string, body: object, token = a.token) => t.http.post(`/api/admin/events/${eventId}/cancel`).set('token', token).send(body);
  const cancellation = async (eventId: string) =>
    (await t.http.get(`/api/admin/events/${eventId}/cancellation`).set('token', a.token).expect(200)).body as Cancellation;
  const event = async (eventId: string) => (await t.http.get(`/api/admin/events/${eventId}`).set('token', a.token).expect(200)).body;
  const order = async (orderId: string) => (await t.http.get(`/api/admin/order/${orderId}`).set('token', a.token).expect(200)).body;
  const api = (path: string, body: object) => t.http.post(`/api/public/${slug}/${path}`).send(body);
  const buyer = () => ({ first_name: 'Rosa', last_name: `Buyer${++serial}`, email: `rosa.buyer${serial}.${Date.now()}@example.test` });
  const demoLedger = (paymentIntentId: string) =>
    t.withEm(async (em) => ({
      refunded: (await em.findOneOrFail(DemoPayment, { id: paymentIntentId }, { refresh: true })).refundedCents,
      refunds: await em.find(DemoRefund, { paymentId: paymentIntentId }, { refresh: true }),
    }));
  const mailsTo = (email: string) => smtp.to(email).filter((m) => m.subject?.startsWith('Cancelled:'));

  /** A seat bought at the store's checkout and paid on the demo payment page; answers its order. */
  async function bought(eventId: string, who: ReturnType<typeof buyer>, extra: object = {}) {
    const res = await api('checkout', { event_id: eventId, ...who, ...extra }).expect(201);
    await t.http.post(`${new URL(res.body.payment_url).pathname}/pay`).type('form').send('').expect(200);
    await t.settle();
    const paid = await order(res.body.order_id);
    expect(paid.status).toBe('paid');
    return { orderId: res.body.order_id as string, paymentIntentId: paid.stripe_payment_intent_id as string, total: paid.total as number };
  }

  /** A member of the store with a points balance, and the proof that lets them spend it. */
  async function member(points: number) {
    const who = buyer();
    const id = await addStudent(t, a.token, who);
    await t.http.post(`/api/admin/student/${id}/loyalty-balance/set`).set('token', a.token).send({ amount: points }).expect(200);
    await api('points/code', { email: who.email }).expect(202);
    const [mail] = await eventually(() => smtp.to(who.email), (m) => m.length >= 1);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1];
    const proof = (await api('points/verify', { email: who.email, code }).expect(200)).body.points_token as string;
    return { id, who, proof };
  }
  const balance = async (studentId: string) =>
    ((await t.http.get(`/api/admin/student/${studentId}`).set('token', a.token).expect(200)).body.LoyaltyBalance as { balance: number; reason: string; points: number }[])[0];

  it('refunds everyone in full: each order at the provider, the ledger with the reason, points given back, every student mailed, links and provider events cancelled', async () => {
    const eventId = await session(4000);
    // Synced: an Eventbrite event and a Zoom meeting.
    const ebMapping = await eventually(() => mappingOf(t, a.organizationId, 'eventbrite', 'event', eventId), (m) => m?.stage === 'synced');
    const zoomMapping = await eventually(() => mappingOf(t, a.organizationId, 'zoom', 'event', eventId), (m) => m?.stage === 'synced');

    // Rosa pays with a 10% code and 1,000 points; Ben pays the price; Cleo is enrolled directly (nothing charged).
    const code = `CANCEL${++serial}`;
    await t.http
      .post('/api/admin/promo-code')
      .set('token', a.token)
      .send({ ...DISCOUNT_CASE_BASE, code, start_date: null, expiration_date: null })
      .expect(201);
    const rosa = await member(1500);
    const rosaOrder = await bought(eventId, rosa.who, { discount_code: code, points_token: rosa.proof, redeem_points: 1000 });
    expect(rosaOrder.total).toBe(2600); // 4000 − 10% − $10.00 of points
    expect(await balance(rosa.id)).toMatchObject({ reason: 'redeemed', balance: 500 });
    const ben = buyer();
    const benOrder = await bought(eventId, ben);
    const cleo = { ...buyer(), first_name: 'Cleo' };
    const cleoId = await addStudent(t, a.token, cleo);
    await t.http.post(`/api/admin/orders/enroll/${cleoId}`).set('token', a.token).send({ event_id: eventId }).expect(201);
    // Dan's payment link holds a seat, unpaid.
    const danId = await addStudent(t, a.token, buyer());
    const link = (await t.http.post(`/api/admin/orders/invoice/${danId}`).set('token', a.token).send({ event_id: eventId }).expect(201)).body;
    expect((await event(eventId)).seats_taken).toBe(4);

    const res = await cancel(eventId, { refund: 'full', reason: 'The kiln broke down' }).expect(200);
    expect(res.body).toMatchObject({ refund: 'full', reason: 'The kiln broke down', total: 3 });
    await t.settle();

    const done = await cancellation(eventId);
    expect(done).toMatchObject({ total: 3, processed: 3, refunded_cents: 2600 + 4000 });
    const byEmail = (email: string) => done.students.find((s) => s.email === email.toLowerCase())!;
    expect(byEmail(rosa.who.email)).toMatchObject({ outcome: 'refunded', refund_cents: 2600, order_id: rosaOrder.orderId });
    expect(byEmail(ben.email)).toMatchObject({ outcome: 'refunded', refund_cents: 4000, order_id: benOrder.orderId });
    expect(byEmail(cleo.email)).toMatchObject({ outcome: 'not_refunded', refund_cents: 0 });

    // Refunded in full at the provider, once each, with the ledger row's idempotency key.
    for (const paid of [rosaOrder, benOrder]) {
      const ledger = await demoLedger(paid.paymentIntentId);
      expect(ledger.refunded).toBe(paid.total);
      expect(ledger.refunds).toHaveLength(1);
      const drawer = await order(paid.orderId);
      expect(drawer.status).toBe('refunded');
      expect(drawer.refunds).toEqual([
        expect.objectContaining({ amount: paid.total, reason: M.ledgerReason('The kiln broke down'), status: 'succeeded', origin: 'app', actor: expect.any(String) }),
      ]);
      expect(ledger.refunds[0].idempotencyKey).toBe(`order-refund-${drawer.refunds[0].refund_id}`);
    }
    // The points Rosa paid with are back.
    expect(await balance(rosa.id)).toMatchObject({ reason: 'redemption_returned', points: 1000, balance: 1500 });

    // Every student mailed once: what was cancelled, why, and the refund.
    const [rosaMail] = await eventually(() => mailsTo(rosa.who.email), (m) => m.length === 1);
    expect(rosaMail.subject).toBe('Cancelled: Raku firing night');
    expect(rosaMail.text).toContain('Cancel Ceramics has cancelled Raku firing night');
    expect(rosaMail.text).toContain('Reason: The kiln broke down');
    expect(rosaMail.text).toContain('You are refunded $26.00 in full');
    const [benMail] = await eventually(() => mailsTo(ben.email), (m) => m.length === 1);
    expect(benMail.text).toContain('You are refunded $40.00 in full');
    const [cleoMail] = await eventually(() => mailsTo(cleo.email), (m) => m.length === 1);
    expect(cleoMail.text).toContain('There was no payment to refund.');

    // The session stays, cancelled, with nobody in it: the link's held seat is released and the link cancelled.
    const after = await event(eventId);
    expect(after).toMatchObject({ status: 'cancelled', enrolled_count: 0, seats_taken: 0 });
    expect((await order(link.order_id)).status).toBe('failed');
    const grid = await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', a.token).expect(200);
    expect(grid.body.totalCount).toBe(0);

    // Eventbrite's event and Zoom's meeting are cancelled at the fakes.
    await eventually(() => eventbrite.state.events.get(ebMapping!.remote_id!)?.status, (s) => s === 'canceled');
    await eventually(() => zoom.state.meetings.get(Number(zoomMapping!.remote_id))?.status, (s) => s === 'deleted');

    // A cancelled session takes nobody: Add student, a payment link, the store; and it is cancelled once.
    const eve = await addStudent(t, a.token, buyer());
    expect((await t.http.post(`/api/admin/orders/enroll/${eve}`).set('token', a.token).send({ event_id: eventId }).expect(409)).body.message).toBe(
      M.sessionCancelled,
    );
    expect((await t.http.post(`/api/admin/orders/invoice/${eve}`).set('token', a.token).send({ event_id: eventId }).expect(409)).body.message).toBe(
      M.sessionCancelled,
    );
    expect((await api('checkout', { event_id: eventId, ...buyer() }).expect(404)).body.message).toBe(CHECKOUT_MESSAGES.sessionNotFound);
    const open = await session();
    const page = await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200);
    const listed = page.body.sessions.map((s: { event_id: string }) => s.event_id);
    expect(listed).toContain(open);
    expect(listed).not.toContain(eventId);
    expect((await cancel(eventId, { refund: 'full', reason: 'Again' }).expect(409)).body).toEqual({ statusCode: 409, message: M.alreadyCancelled });
    // Nothing more was refunded or mailed by the refused second cancel.
    expect((await demoLedger(benOrder.paymentIntentId)).refunds).toHaveLength(1);
    expect(mailsTo(ben.email)).toHaveLength(1);
  });

  it('cancels with no refund: the students are removed and mailed the reason, no money moves and the orders stay paid', async () => {
    const eventId = await session(3000);
    const first = buyer();
    const second = buyer();
    const one = await bought(eventId, first);
    const two = await bought(eventId, second);
    await cancel(eventId, { refund: 'none', reason: 'Our instructor is ill' }).expect(200);
    await t.settle();
    const done = await cancellation(eventId);
    expect(done).toMatchObject({ refund: 'none', total: 2, processed: 2, refunded_cents: 0 });
    expect(done.students.map((s) => s.outcome)).toEqual(['no_refund', 'no_refund']);
    for (const [who, paid] of [
      [first, one],
      [second, two],
    ] as const) {
      expect((await demoLedger(paid.paymentIntentId)).refunds).toHaveLength(0);
      const drawer = await order(paid.orderId);
      expect(drawer).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [] });
      const [mail] = await eventually(() => mailsTo(who.email), (m) => m.length === 1);
      expect(mail.text).toContain('Reason: Our instructor is ill');
      expect(mail.text).toContain('No refund is made for this cancellation.');
    }
    expect(await event(eventId)).toMatchObject({ status: 'cancelled', enrolled_count: 0 });
    // The course page lists it badged Cancelled; the share drawer's list (no include_cancelled) does not.
    const sessions = (query: string) =>
      t.http.get(`/api/admin/activities/${course.activity_id}/sessions?${query}`).set('token', a.token).expect(200);
    const listed = (await sessions('include_cancelled=true')).body.sessions.find((s: { event_id: string }) => s.event_id === eventId);
    expect(listed).toMatchObject({ badge: 'Cancelled' });
    expect((await sessions('include_past=false')).body.sessions.map((s: { event_id: string }) => s.event_id)).not.toContain(eventId);
  });

  it('a seat delivered again, or after a crash before its outcome was recorded, or whose first refund got no answer, is refunded and mailed once', async () => {
    const eventId = await session(5000);
    const first = buyer();
    const second = buyer();
    const one = await bought(eventId, first);
    const two = await bought(eventId, second);
    // The provider does not answer the first refund asked (a timeout): the job fails and is retried with the same key.
    const port = t.created.app.get(PaymentsPort);
    const real = port.refund.bind(port);
    let calls = 0;
    jest.spyOn(port, 'refund').mockImplementation(async (input) => {
      calls += 1;
      if (calls === 1) throw new Error('socket hang up');
      return real(input);
    });
    await cancel(eventId, { refund: 'full', reason: 'Flooded studio' }).expect(200);
    await t.settle();
    expect(calls).toBe(3); // one unanswered, then one per student
    let done = await cancellation(eventId);
    expect(done).toMatchObject({ processed: 2, refunded_cents: 10000 });

    // Delivered again as it is, and again after "a crash" before the outcome was recorded.
    const seats = done.students;
    const bus = t.created.app.get(SessionCancelEvents);
    for (const seat of seats) await t.redeliver(bus, { type: 'session.seat_cancelled', organizationId: a.organizationId, eventId, enrollmentId: seat.enrollment_id });
    await t.withEm((em) =>
      em.getConnection().execute(`update session_cancellation_seat set outcome = 'pending', refund_cents = 0, processed_at = null where event_id = ?`, [eventId]),
    );
    expect((await cancellation(eventId)).processed).toBe(0);
    for (const seat of seats) await t.redeliver(bus, { type: 'session.seat_cancelled', organizationId: a.organizationId, eventId, enrollmentId: seat.enrollment_id });

    done = await cancellation(eventId);
    expect(done).toMatchObject({ processed: 2, refunded_cents: 10000 });
    expect(done.students.map((s) => s.outcome)).toEqual(['refunded', 'refunded']);
    for (const [who, paid] of [
      [first, one],
      [second, two],
    ] as const) {
      const ledger = await demoLedger(paid.paymentIntentId);
      expect(ledger).toMatchObject({ refunded: 5000 });
      expect(ledger.refunds).toHaveLength(1);
      expect((await order(paid.orderId)).refunds).toHaveLength(1);
      await eventually(() => mailsTo(who.email), (m) => m.length === 1);
      await t.idle(); // nothing more is going to happen now: no job due or running
      expect(mailsTo(who.email)).toHaveLength(1);
    }
    expect(calls).toBe(3);
    jest.restoreAllMocks();
  });

  it('validates the choice and the reason, and changes nothing when it refuses', async () => {
    const eventId = await session();
    await bought(eventId, buyer());
    const bad = async (body: object, field: string, message: string) => {
      const res = await cancel(eventId, body).expect(400);
      expect(res.body.errors?.[field]).toBe(message);
    };
    await bad({ reason: 'Kiln broke' }, 'refund', M.choiceRequired);
    await bad({ refund: 'partial', reason: 'Kiln broke' }, 'refund', M.choiceRequired);
    await bad({ refund: 'full' }, 'reason', M.reasonRequired);
    await bad({ refund: 'none', reason: '   ' }, 'reason', M.reasonRequired);
    await bad({ refund: 'full', reason: 'x'.repeat(501) }, 'reason', M.reasonTooLong);
    await bad({ refund: 'full', reason: 'nul\u0000byte' }, 'reason', 'Text cannot contain control characters such as NUL.');
    await cancel(eventId, { refund: 'full', reason: 'Kiln broke', extra: 1 }).expect(400);
    expect(await event(eventId)).toMatchObject({ status: 'active', enrolled_count: 1 });
    // An empty session needs no reason (nobody is told); the choice stays required.
    const empty = await session();
    await cancel(empty, {}).expect(400);
    const res = await cancel(empty, { refund: 'none' }).expect(200);
    expect(res.body).toMatchObject({ total: 0, processed: 0, reason: '' });
    expect((await event(empty)).status).toBe('cancelled');
  });

  it('acts inside the caller’s organization, and refuses refunds without a payment method on file', async () => {
    const eventId = await session();
    await bought(eventId, buyer());
    await cancel(eventId, { refund: 'full', reason: 'Kiln broke' }, b.token).expect(404);
    await t.http.get(`/api/admin/events/${eventId}/cancellation`).set('token', b.token).expect(404);
    await t.http.get(`/api/admin/events/${eventId}/cancellation`).set('token', a.token).expect(404); // not cancelled
    await cancel('not-a-uuid', { refund: 'full', reason: 'x' }).expect(404);
    await t.http.post(`/api/admin/events/${eventId}/cancel`).send({ refund: 'full', reason: 'x' }).expect(401);
    expect(await event(eventId)).toMatchObject({ status: 'active', enrolled_count: 1 });

    // Other Glass has no card on file: refunding everyone is refused before anything changes; no refund works.
    const theirs = await schedulableCourse(t, b.token);
    const theirEvent = await scheduleSession(t, b.token, theirs, { daysFromNow: 9 });
    const theirStudent = await addStudent(t, b.token);
    await t.http.post(`/api/admin/orders/enroll/${theirStudent}`).set('token', b.token).send({ event_id: theirEvent }).expect(201);
    expect((await cancel(theirEvent, { refund: 'full', reason: 'Closed' }, b.token).expect(409)).body.message).toBe(M.noPaymentMethod);
    expect((await t.http.get(`/api/admin/events/${theirEvent}`).set('token', b.token).expect(200)).body.status).toBe('active');
    await cancel(theirEvent, { refund: 'none', reason: 'Closed' }, b.token).expect(200);
    await t.settle();
    const theirs2 = (await t.http.get(`/api/admin/events/${theirEvent}/cancellation`).set('token', b.token).expect(200)).body as Cancellation;
    expect(theirs2).toMatchObject({ total: 1, processed: 1 });
  });
});
