import { PAYMENT_LINK_MESSAGES as L, SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { OrderEvent } from '../src/modules/orders/order-events';
import { PAYMENT_LINK_QUEUE, PaymentLinksService } from '../src/modules/orders/payment-links.service';
import { UNSEATED_REFUND_REASON } from '../src/modules/orders/refunds.service';
import { PaymentEvents } from '../src/modules/payments/payment-events';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { OutboxService } from '../src/outbox/outbox.service';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
type Course = Awaited<ReturnType<typeof schedulableCourse>>;

const emailOf = async (t: TestApp, token: string, studentId: string) =>
  (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body.email as string;

describe('payment links (demo provider)', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let course: Course;
  let queue: Queue;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({ SMTP_URL: smtp.url, RUN_WORKER: 'true', PUBLIC_APP_URL: 'http://studio.test' });
    const owner = await t.organizationWithUser('owner');
    token = owner.token;
    organizationId = owner.organization.id;
    course = await schedulableCourse(t, token);
    queue = new Queue(PAYMENT_LINK_QUEUE, { connection: { url: t.config.REDIS_URL }, prefix: t.config.REDIS_PREFIX });
  });
  afterAll(async () => {
    await queue.close();
    await t.close();
    await smtp.close();
  });

  const send = (studentId: string, body: object) => t.http.post(`/api/admin/orders/invoice/${studentId}`).set('token', token).send(body);
  const enroll = (studentId: string, eventId: string) => t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId });
  const order = async (id: string) => (await t.http.get(`/api/admin/order/${id}`).set('token', token).expect(200)).body;
  const event = async (id: string) => (await t.http.get(`/api/admin/events/${id}`).set('token', token).expect(200)).body;
  const enrolled = async (eventId: string) =>
    (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments as {
      student_id: string;
      Order: { order_id: string } | null;
    }[];
  const pagePath = (url: string) => new URL(url).pathname;

  it('sends a link: a pending order at the session price, the seat held and counted, the link mailed', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 2, price: 4500 });
    const [ana, ben, cy] = [await addStudent(t, token), await addStudent(t, token), await addStudent(t, token)];
    await enroll(ben, eventId).expect(201);

    const before = Date.now();
    const res = await send(ana, { event_id: eventId }).expect(201);
    expect(res.body).toEqual({ order_id: expect.any(String), order_number: expect.any(Number), url: expect.stringMatching(/^http:\/\/studio\.test\/api\/pay\/demo\/dcs_/), expires_at: expect.any(String) });
    const expiresAt = Date.parse(res.body.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(24 * 3600_000 + 5000);

    const o = await order(res.body.order_id);
    expect(o).toMatchObject({ status: 'pending', source: 'workbench', total: 4500, refunded_amount: 0, stripe_payment_intent_id: null, Student: { student_id: ana } });
    expect(o.lines).toEqual([expect.objectContaining({ kind: 'seat', event_id: eventId, unit_price: 4500, quantity: 1, total: 4500 })]);
    const email = await emailOf(t, token, ana);
    expect(o.activity).toEqual([expect.objectContaining({ action: 'payment_link_sent', actor: 'Test owner', detail: email, amount: 4500 })]);

    // The held seat counts: the session of 2 is full, a third student and a capacity cut are refused.
    expect(await event(eventId)).toMatchObject({ capacity: 2, seats_taken: 2, enrolled_count: 1 });
    expect((await enroll(cy, eventId).expect(409)).body.message).toBe(M.sessionFull);
    expect((await send(cy, { event_id: eventId }).expect(409)).body.message).toBe(M.sessionFull);
    const cut = await t.http.put(`/api/admin/events/${eventId}`).set('token', token).send({ price: 4500, capacity: 1 }).expect(409);
    expect(cut.body.message).toBe(M.capacityBelowSeats(2));
    // Nor can the session be deleted while a link holds a seat.
    expect((await t.http.delete(`/api/admin/events/${eventId}`).set('token', token).expect(409)).body.message).toBe(M.deleteBlocked);
    // A second link for the same student, and a link for an enrolled student, are refused.
    expect((await send(ana, { event_id: eventId }).expect(409)).body.message).toBe(L.alreadyPending);
    expect((await send(ben, { event_id: eventId }).expect(409)).body.message).toBe(M.alreadyEnrolled);

    // The mail goes out from the queue, with the link.
    const [mail] = await eventually(() => smtp.to(email), (m) => m.length === 1);
    expect(mail.subject).toContain('payment link');
    expect(mail.text).toContain(res.body.url);
    expect(mail.text).toContain('$45.00');

    // The expiry job waits for the link's expiry.
    const job = await queue.getJob(`payment-link-expiry-${res.body.order_id}`);
    expect(job?.data).toEqual({ orderId: res.body.order_id, organizationId });
    expect(await job?.getState()).toBe('delayed');
    expect(job!.timestamp + job!.delay).toBeGreaterThanOrEqual(expiresAt);
  });

  it('paid on the demo page: the order is paid with a receipt, the held seat becomes the enrollment; a repeat changes nothing', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 1, price: 3000 });
    const ana = await addStudent(t, token);
    const link = (await send(ana, { event_id: eventId }).expect(201)).body;

    const page = await t.http.get(pagePath(link.url)).expect(200);
    expect(page.text).toContain('Demo payment, no card is charged');
    expect(page.text).toContain('$30.00');
    await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('').expect(200);

    const o = await order(link.order_id);
    expect(o.status).toBe('paid');
    expect(o.stripe_payment_intent_id).toMatch(/^dpi_/);
    expect(o.paymentIntent.charges.receipt_url).toBe(`http://studio.test/api/pay/demo/receipt/${o.stripe_payment_intent_id}`);
    expect(o.activity.map((a: { action: string }) => a.action)).toEqual(['payment_link_sent', 'payment_received']);
    expect(o.activity[1]).toMatchObject({ actor: null, amount: 3000 });
    expect(await enrolled(eventId)).toEqual([expect.objectContaining({ student_id: ana, Order: expect.objectContaining({ order_id: link.order_id }) })]);
    // Capacity 1: the held seat became the enrolled seat, no more.
    expect(await event(eventId)).toMatchObject({ capacity: 1, seats_taken: 1, enrolled_count: 1 });

    // Pay clicked again, the same event delivered again, a late cancellation: nothing moves.
    await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('').expect(200);
    const events = t.created.app.get(PaymentEvents);
    const sessionId = pagePath(link.url).split('/').pop()!;
    await t.redeliver(events, { type: 'payment.succeeded', provider: 'demo', sessionId, orderId: link.order_id, organizationId, paymentIntentId: o.stripe_payment_intent_id, amountCents: 3000 });
    await t.redeliver(events, { type: 'checkout.cancelled', provider: 'demo', sessionId, orderId: link.order_id, organizationId });
    await t.redeliver(events, { type: 'checkout.expired', provider: 'demo', sessionId, orderId: link.order_id, organizationId });
    expect(await order(link.order_id)).toEqual(o);
    expect(await enrolled(eventId)).toHaveLength(1);
    // Orders announced the payment once (loyalty listens): a seat line earns no points.
    expect(await t.created.app.get(OutboxService).announced<OrderEvent>('order.paid', { orderId: link.order_id })).toEqual([
      { type: 'order.paid', organizationId, orderId: link.order_id, studentId: ana, loyaltyPoints: 0 },
    ]);
  });

  it('cancelled on the demo page: the order fails and the seat is free again', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 1, price: 3000 });
    const [ana, ben] = [await addStudent(t, token), await addStudent(t, token)];
    const link = (await send(ana, { event_id: eventId }).expect(201)).body;
    expect((await enroll(ben, eventId).expect(409)).body.message).toBe(M.sessionFull);

    await t.http.post(`${pagePath(link.url)}/cancel`).type('form').send('').expect(200);
    const o = await order(link.order_id);
    expect(o.status).toBe('failed');
    expect(o.activity.map((a: { action: string }) => a.action)).toEqual(['payment_link_sent', 'payment_link_cancelled']);
    expect(await event(eventId)).toMatchObject({ seats_taken: 0 });

    // A payment that still reaches the order after the cancellation (issue 31: here through another page
    // of the order, as a provider's late completion would) books nothing and is refunded in full.
    const late = await t.created.app.get(PaymentsPort).createCheckout({
      organizationId,
      orderId: link.order_id,
      lines: [{ name: 'Late page', unitAmountCents: 3000, quantity: 1 }],
      customerEmail: 'late@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await t.http.post(`${pagePath(late.url)}/pay`).type('form').send('').expect(200);
    const refunded = await eventually(() => order(link.order_id), (x) => x.refunds.length > 0 && x.refunds[0].status === 'succeeded');
    expect(refunded).toMatchObject({ status: 'refunded', refunded_amount: 3000, stripe_payment_intent_id: expect.stringMatching(/^dpi_/) });
    expect(refunded.activity.map((a: { action: string }) => a.action)).toEqual(['payment_link_sent', 'payment_link_cancelled', 'payment_received', 'refund']);
    expect(await event(eventId)).toMatchObject({ seats_taken: 0 });

    await enroll(ben, eventId).expect(201);
    expect(await enrolled(eventId)).toEqual([expect.objectContaining({ student_id: ben })]);
  });

  it('expired: the seat is free at the expiry, and the expiry job fails the order though nobody looked', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 1, price: 3000 });
    const [ana, ben] = [await addStudent(t, token), await addStudent(t, token)];
    const link = (await send(ana, { event_id: eventId }).expect(201)).body;
    const sessionId = pagePath(link.url).split('/').pop()!;

    // The link's time passes (at the provider and for the hold).
    await t.withEm(async (em) => {
      const past = new Date(Date.now() - 1000);
      await em.getConnection().execute(`update demo_checkout_session set expires_at = ? where id = ?`, [past, sessionId]);
      await em.getConnection().execute(`update seat_hold set expires_at = ? where order_id = ?`, [past, link.order_id]);
    });
    // The seat counts no more, before any job ran.
    expect(await event(eventId)).toMatchObject({ seats_taken: 0 });
    expect((await order(link.order_id)).status).toBe('pending');

    // The delayed job comes due.
    await (await queue.getJob(`payment-link-expiry-${link.order_id}`))!.promote();
    const o = await eventually(() => order(link.order_id), (x) => x.status !== 'pending');
    expect(o.status).toBe('failed');
    expect(o.activity.map((a: { action: string }) => a.action)).toEqual(['payment_link_sent', 'payment_link_expired']);
    const [hold] = await t.withEm((em) => em.getConnection().execute(`select released_at from seat_hold where order_id = ?`, [link.order_id]));
    expect(hold.released_at).not.toBeNull();

    // The page says so and cannot be paid any more.
    const paid = await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('').expect(200);
    expect(paid.text).toContain('This payment link has expired.');
    expect((await order(link.order_id)).status).toBe('failed');
    await enroll(ben, eventId).expect(201);
  });

  it('a payment that lands after the hold ran out and the seat was taken: refunded at once, the session not oversold', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 1, price: 3000 });
    const [ana, ben] = [await addStudent(t, token), await addStudent(t, token)];
    const link = (await send(ana, { event_id: eventId }).expect(201)).body;
    // The hold runs out (the provider's page is still open, as when Stripe completes at the last second).
    await t.withEm((em) => em.getConnection().execute(`update seat_hold set expires_at = ? where order_id = ?`, [new Date(Date.now() - 1000), link.order_id]));
    await enroll(ben, eventId).expect(201);

    await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('').expect(200);
    const o = await order(link.order_id);
    // Never charged for a seat she did not get: the whole payment went back, in the ledger.
    expect(o).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
    expect(o.activity[1]).toMatchObject({ action: 'payment_received', detail: `The student is not enrolled: ${M.sessionFull}. The payment is refunded.` });
    expect(o.refunds).toEqual([expect.objectContaining({ amount: 3000, reason: UNSEATED_REFUND_REASON })]);
    expect(await enrolled(eventId)).toEqual([expect.objectContaining({ student_id: ben })]);
    expect(await event(eventId)).toMatchObject({ capacity: 1, seats_taken: 1 });

    // A repeated payment event refunds nothing more.
    await t.http.post(`${pagePath(link.url)}/pay`).type('form').send('');
    expect(await order(link.order_id)).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
  });

  it('when the provider fails to create the checkout: 502, the order failed, the seat free, no mail', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 1, price: 3000 });
    const ana = await addStudent(t, token);
    const port = t.created.app.get(PaymentsPort);
    const refused = jest.spyOn(port, 'createCheckout').mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const res = await send(ana, { event_id: eventId }).expect(502);
    expect(refused).toHaveBeenCalledTimes(1);
    expect(res.body).toEqual({ statusCode: 502, message: L.providerFailed });
    expect(await event(eventId)).toMatchObject({ seats_taken: 0 });
    const { orders } = (await t.http.get('/api/admin/orders').set('token', token).query({ search: await emailOf(t, token, ana) }).expect(200)).body;
    expect(orders).toEqual([expect.objectContaining({ status: 'failed', total: 3000 })]);
    // The link can be sent again; only that one is mailed.
    await send(ana, { event_id: eventId }).expect(201);
    const email = await emailOf(t, token, ana);
    await eventually(() => smtp.to(email), (m) => m.length >= 1);
    await t.idle(); // nothing more is going to happen now: no job due or running
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('refuses a free session, telling the admin to enroll directly, and changes nothing', async () => {
    const free = await schedulableCourse(t, token, 12, { priceType: 'free', price: undefined });
    const eventId = await scheduleSession(t, token, free, { capacity: 3 });
    const ana = await addStudent(t, token);
    const count = async () => (await t.http.get('/api/admin/orders').set('token', token).expect(200)).body.totalCount;
    const orders = await count();
    const res = await send(ana, { event_id: eventId }).expect(409);
    expect(res.body).toEqual({ statusCode: 409, message: L.freeSession });
    expect(await count()).toBe(orders);
    expect(await event(eventId)).toMatchObject({ seats_taken: 0 });
  });

  it("answers 404 for another organization's student or session, and for an appointment", async () => {
    const other = await t.organizationWithUser('owner');
    const otherCourse = await schedulableCourse(t, other.token);
    const theirEvent = await scheduleSession(t, other.token, otherCourse, { price: 2000 });
    const theirStudent = await addStudent(t, other.token);
    const ourEvent = await scheduleSession(t, token, course, { price: 2000 });
    const ours = await addStudent(t, token);

    expect((await send(theirStudent, { event_id: ourEvent }).expect(404)).body.message).toBe('Student not found');
    expect((await send(ours, { event_id: theirEvent }).expect(404)).body.message).toBe('Event not found');
    expect((await send(ours, { event_id: randomUUID() }).expect(404)).body.message).toBe('Event not found');
    expect((await send(ours, { appointment_id: randomUUID() }).expect(404)).body.message).toBe(L.appointmentNotFound);
    // Their order is not ours to read.
    const theirLink = (await t.http.post(`/api/admin/orders/invoice/${theirStudent}`).set('token', other.token).send({ event_id: theirEvent }).expect(201)).body;
    await t.http.get(`/api/admin/order/${theirLink.order_id}`).set('token', token).expect(404);
    expect(await event(ourEvent)).toMatchObject({ seats_taken: 0 });
  });

  it('answers 400 to bad bodies, 404 to a malformed student id, and 401 without a session', async () => {
    const eventId = await scheduleSession(t, token, course, { price: 2000 });
    const ana = await addStudent(t, token);
    for (const body of [{}, { event_id: 'x' }, { event_id: eventId, appointment_id: randomUUID() }, { event_id: eventId, extra: 1 }, { event_id: 12 }]) {
      const res = await send(ana, body).expect(400);
      expect(res.body.statusCode).toBe(400);
    }
    await t.http.post('/api/admin/orders/invoice/not-a-uuid').set('token', token).send({ event_id: eventId }).expect(404);
    await t.http.post(`/api/admin/orders/invoice/${ana}`).set('token', token).set('content-type', 'application/json').send('{"event_id":').expect(400);
    await t.http.post(`/api/admin/orders/invoice/${ana}`).send({ event_id: eventId }).expect(401);
    expect(await event(eventId)).toMatchObject({ seats_taken: 0 });
  });

  it('never oversells when links and direct enrolls race for a small session (20 rounds)', async () => {
    const ROUNDS = 20;
    const students = await Promise.all(Array.from({ length: 8 }, () => addStudent(t, token)));
    const oversold: string[] = [];
    const answers = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const eventId = await scheduleSession(t, token, course, { capacity: 3, price: 2500, daysFromNow: 40 + round });
      // Half the students get links, half are enrolled directly, all at once, in a rotating order.
      const calls = students.map((s, i) => ({ what: i % 2 ? 'link' : 'enroll', send: () => (i % 2 ? send(s, { event_id: eventId }) : enroll(s, eventId)) }));
      const shifted = [...calls.slice(round % calls.length), ...calls.slice(0, round % calls.length)];
      const results = await Promise.all(shifted.map((c) => c.send()));
      results.forEach((res, i) => {
        const key = `${shifted[i].what} ${res.status}`;
        answers.set(key, (answers.get(key) ?? 0) + 1);
        expect([201, 409]).toContain(res.status);
        if (res.status === 409) expect(res.body.message).toBe(M.sessionFull);
      });
      const [row] = await t.withEm((em) =>
        em.getConnection().execute<{ enrolled: string; held: string }[]>(
          `select (select count(*) from enrollment where event_id = ? and status = 'active') as enrolled,
                  (select count(*) from seat_hold where event_id = ? and released_at is null and expires_at > now()) as held`,
          [eventId, eventId],
        ),
      );
      const taken = Number(row.enrolled) + Number(row.held);
      if (taken > 3) oversold.push(`round ${round + 1}: ${row.enrolled} enrolled + ${row.held} held in a session of 3`);
      // Every seat was sold, no more: as many 201s as seats.
      const sold = results.filter((r) => r.status === 201).length;
      if (sold !== 3) oversold.push(`round ${round + 1}: ${sold} seats sold in a session of 3`);
      expect(await event(eventId)).toMatchObject({ seats_taken: taken });
    }
    console.log(`link race: ${ROUNDS} rounds, ${oversold.length} oversold; answers ${JSON.stringify(Object.fromEntries([...answers].sort()))}`);
    expect(oversold).toEqual([]);
  }, 180_000);
});

describe('payment links (Stripe adapter against the fake)', () => {
  let smtp: Smtp;
  let stripe: FakeStripe;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    stripe = await startFakeStripe('sk_test_links');
    t = await startTestApp({ SMTP_URL: smtp.url, RUN_WORKER: 'true', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: 'whsec_test', STRIPE_API_BASE: stripe.url });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await smtp.close();
  });

  it('creates a Checkout Session for the order, mails its URL, and a completed session pays the order', async () => {
    const { token, organization } = await t.organizationWithUser('owner');
    const course = await schedulableCourse(t, token);
    const eventId = await scheduleSession(t, token, course, { capacity: 1, price: 4200 });
    const ana = await addStudent(t, token);
    const link = (await t.http.post(`/api/admin/orders/invoice/${ana}`).set('token', token).send({ event_id: eventId }).expect(201)).body;

    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === link.order_id)!;
    expect(session).toMatchObject({ mode: 'payment', amount_total: 4200, url: link.url, metadata: { order_id: link.order_id, organization_id: organization.id } });
    expect(Math.abs((session.expires_at as number) * 1000 - Date.parse(link.expires_at))).toBeLessThan(1000);
    const email = await emailOf(t, token, ana);
    expect(session.customer_email).toBe(email);
    const [mail] = await eventually(() => smtp.to(email), (m) => m.length === 1);
    expect(mail.text).toContain(link.url);

    // The payer pays on Stripe's page; the expiry job (or a webhook) learns it from Stripe.
    stripe.completeCheckout(session.id as string);
    await t.created.app.get(PaymentLinksService).reconcile({ orderId: link.order_id, organizationId: organization.id });
    const o = (await t.http.get(`/api/admin/order/${link.order_id}`).set('token', token).expect(200)).body;
    expect(o.status).toBe('paid');
    expect(o.stripe_payment_intent_id).toMatch(/^pi_/);
    expect(o.paymentIntent.charges.receipt_url).toMatch(/\/receipts\/payment\//);
    const enrolled = (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments;
    expect(enrolled).toEqual([expect.objectContaining({ student_id: ana })]);
  });
});
