import { CHECKOUT_MESSAGES as C, UNHONOURED_PAYMENT_MESSAGES as U } from '@studio/contracts';
import { Queue } from 'bullmq';
import { Order } from '../src/modules/orders/entities/order.entity';
import { PAYMENT_LINK_QUEUE } from '../src/modules/orders/payment-links.service';
import { RefundReconciler } from '../src/modules/orders/refund-reconciler';
import { ENDED_ORDER_REFUND_REASON, UNSEATED_REFUND_REASON } from '../src/modules/orders/refunds.service';
import { DemoCheckoutSession, DemoPayment } from '../src/modules/payments/demo/demo-ledger.entities';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
type Activity = { action: string; detail: string };

/**
 * Every payment lands somewhere (issue 31): a payment the app cannot honour is recorded and refunded
 * in the same step (the refund requested in the transaction that records the payment, carried out
 * from the outbox, finished by the reconciler after a crash), cancelling a session closes the pages
 * of its unpaid checkouts, and a checkout is one durable intent: a retry resumes its order and page,
 * a checkout that died before its page releases its seats.
 */
describe('every payment lands somewhere', () => {
  /** One studio in a test app: its admin API, its store, and a course with sessions at `price`. */
  async function studio(t: TestApp, name: string) {
    const owner = await t.organizationWithUser('owner', name);
    const token = owner.token;
    const slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug as string;
    const course = await schedulableCourse(t, token, 10, { name: `${name} wheel class` });
    let serial = 0;
    return {
      token,
      organizationId: owner.organization.id,
      session: (capacity: number) => scheduleSession(t, token, course, { capacity, price: 4000 }),
      buyer: () => ({ first_name: 'Mallory', last_name: `Buyer${++serial}`, email: `mallory${serial}.${Date.now()}@example.test` }),
      checkout: (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body),
      quote: async (eventId: string) => (await t.http.post(`/api/public/${slug}/checkout/quote`).send({ event_id: eventId, party_size: 1 }).expect(200)).body,
      link: (studentId: string, eventId: string, key?: string) => {
        const call = t.http.post(`/api/admin/orders/invoice/${studentId}`).set('token', token);
        return (key ? call.set('Idempotency-Key', key) : call).send({ event_id: eventId });
      },
      cancel: (eventId: string) => t.http.post(`/api/admin/events/${eventId}/cancel`).set('token', token).send({ refund: 'full', reason: 'The studio flooded' }),
      order: async (id: string) => (await t.http.get(`/api/admin/order/${id}`).set('token', token).expect(200)).body,
      event: async (id: string) => (await t.http.get(`/api/admin/events/${id}`).set('token', token).expect(200)).body,
      addStudent: () => addStudent(t, token),
      enroll: (studentId: string, eventId: string) => t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }),
    };
  }
  const pageOf = (t: TestApp, orderId: string) => t.withEm(async (em) => (await em.findOneOrFail(Order, { id: orderId }, { refresh: true })).checkoutSessionId!);

  describe('a payment completed as the studio cancels (Stripe, through the local fake)', () => {
    let fake: FakeStripe;
    let smtp: Smtp;
    let t: TestApp;
    let s: Awaited<ReturnType<typeof studio>>;

    beforeAll(async () => {
      fake = await startFakeStripe('sk_test_unhonoured');
      smtp = await startFakeSmtp();
      t = await startTestApp({
        STRIPE_SECRET_KEY: fake.secretKey,
        STRIPE_API_BASE: fake.url,
        STRIPE_WEBHOOK_SECRET: 'whsec_unhonoured',
        SMTP_URL: smtp.url,
        RUN_WORKER: 'true',
        PUBLIC_APP_URL: 'http://studio.test',
        PUBLIC_REQUESTS_PER_MINUTE: '100000',
      });
      s = await studio(t, 'Flood Ceramics');
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
      await smtp.close();
    });

    const deliver = (event: Record<string, unknown>) => {
      const { payload, header } = fake.signWebhook(event as never, 'whsec_unhonoured');
      return t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload);
    };

    it('store checkout and payment link paid at Stripe as the session is cancelled: refunded in full, the order says why, the buyer is told, no seat', async () => {
      const eventId = await s.session(5);
      const who = s.buyer();
      const store = (await s.checkout({ event_id: eventId, ...who }).expect(201)).body;
      const dan = await s.addStudent();
      const link = (await s.link(dan, eventId).expect(201)).body;
      // Both payers are on Stripe's page and pay; Stripe's webhooks are still on their way.
      const from = fake.events.length;
      const storePage = await pageOf(t, store.order_id);
      const linkPage = await pageOf(t, link.order_id);
      fake.completeCheckout(storePage);
      fake.completeCheckout(linkPage);
      const late = fake.events.slice(from).filter((e) => e.type === 'checkout.session.completed');
      expect(late).toHaveLength(2);

      await s.cancel(eventId).expect(200);
      await t.settle();

      // Closing the pages found them paid: each payment recorded on its order and refunded in full.
      for (const id of [store.order_id, link.order_id]) {
        const o = await s.order(id);
        expect(o).toMatchObject({ status: 'refunded', refunded_amount: 4000, stripe_payment_intent_id: expect.stringMatching(/^pi_/) });
        expect(o.refunds).toEqual([expect.objectContaining({ amount: 4000, reason: ENDED_ORDER_REFUND_REASON, status: 'succeeded' })]);
        expect((o.activity as Activity[]).find((a) => a.action === 'payment_received')).toMatchObject({ detail: U.orderEnded });
        const refunds = [...fake.refunds.values()].filter((r) => r.payment_intent === o.stripe_payment_intent_id);
        expect(refunds).toEqual([expect.objectContaining({ amount: 4000, status: 'succeeded' })]);
      }
      expect(await s.event(eventId)).toMatchObject({ status: 'cancelled', enrolled_count: 0, seats_taken: 0 });
      const [mail] = await eventually(() => smtp.to(who.email).filter((m) => m.subject?.includes('is being refunded')), (m) => m.length === 1);
      expect(mail.text).toContain('$40.00');
      expect(mail.text).toContain('refunded in full to the card you paid with');

      // Stripe's webhooks arrive late: the payments are known, nothing more is refunded.
      for (const event of late) await deliver(event).expect(200);
      await t.settle();
      for (const id of [store.order_id, link.order_id]) expect((await s.order(id)).refunds).toHaveLength(1);
      expect(fake.refunds.size).toBe(2);
    });

    it('an unpaid page is expired at Stripe when the session is cancelled', async () => {
      const eventId = await s.session(5);
      const store = (await s.checkout({ event_id: eventId, ...s.buyer() }).expect(201)).body;
      const page = await pageOf(t, store.order_id);
      await s.cancel(eventId).expect(200);
      await t.settle();
      expect(fake.sessions.get(page)).toMatchObject({ status: 'expired' });
      expect(await s.order(store.order_id)).toMatchObject({ status: 'failed', refunded_amount: 0 });
    });
  });

  describe('demo provider: pages closed, refunds that survive a crash, checkouts that resume or release', () => {
    let smtp: Smtp;
    let t: TestApp;
    let s: Awaited<ReturnType<typeof studio>>;
    let queue: Queue;
    let port: PaymentsPort;

    beforeAll(async () => {
      smtp = await startFakeSmtp();
      t = await startTestApp({
        SMTP_URL: smtp.url,
        RUN_WORKER: 'true',
        PUBLIC_APP_URL: 'http://studio.test',
        PUBLIC_REQUESTS_PER_MINUTE: '100000',
        IDEMPOTENCY_LEASE_SECONDS: '1',
      });
      s = await studio(t, 'Demo Pottery');
      port = t.created.app.get(PaymentsPort);
      queue = new Queue(PAYMENT_LINK_QUEUE, { connection: { url: t.config.REDIS_URL }, prefix: t.config.REDIS_PREFIX });
    });
    afterEach(() => jest.restoreAllMocks());
    afterAll(async () => {
      await queue.close();
      await t.close();
      await smtp.close();
    });

    const pay = (url: string) => t.http.post(`${new URL(url).pathname}/pay`).type('form').send('').expect(200);
    const demoPayments = (page: string) => t.withEm((em) => em.count(DemoPayment, { sessionId: page }));
    /** The provider's page creation hangs, as in a process that died before the page was made. */
    function dieBeforeThePage() {
      let release: () => void = () => undefined;
      const hung = new Promise<never>((_resolve, reject) => (release = () => reject(new Error('the process died'))));
      hung.catch(() => undefined);
      jest.spyOn(port, 'createCheckout').mockImplementationOnce(() => hung);
      return () => release();
    }
    /** A call whose answer never came (the process died under it): the client gives up after a moment. */
    const lost = (call: PromiseLike<unknown> & { timeout(ms: number): PromiseLike<unknown> }) => call.timeout(1500).then(
      () => {
        throw new Error('expected the call to hang');
      },
      (error: Error & { timeout?: number }) => expect(error.timeout).toBe(1500),
    );
    const pendingOrderOf = (eventId: string) =>
      t.withEm((em) => em.findOneOrFail(Order, { eventId, status: 'pending' }, { refresh: true, orderBy: { createdAt: 'desc' } }));

    it('cancelling the session closes the store page: Pay takes no money any more', async () => {
      const eventId = await s.session(5);
      const store = (await s.checkout({ event_id: eventId, ...s.buyer() }).expect(201)).body;
      await s.cancel(eventId).expect(200);
      await t.settle();
      const page = await pageOf(t, store.order_id);
      expect(await t.withEm((em) => em.findOneOrFail(DemoCheckoutSession, { id: page }, { refresh: true }))).toMatchObject({ status: 'expired' });
      const paid = await pay(store.payment_url);
      expect(paid.text).toContain('expired');
      expect(await demoPayments(page)).toBe(0);
      expect(await s.order(store.order_id)).toMatchObject({ status: 'failed', stripe_payment_intent_id: null });
    });

    /**
     * A store checkout whose hold runs out and whose seat goes to someone else, then paid, with the
     * process dying before the provider is asked for the refund (its refund call never happens).
     */
    async function paidWithoutSeatRefundLost() {
      const eventId = await s.session(1);
      const store = (await s.checkout({ event_id: eventId, ...s.buyer() }).expect(201)).body;
      await t.withEm((em) => em.getConnection().execute(`update seat_hold set expires_at = ? where order_id = ?`, [new Date(Date.now() - 1000), store.order_id]));
      await s.enroll(await s.addStudent(), eventId).expect(201);
      const died = jest.spyOn(port, 'refund').mockRejectedValueOnce(new Error('the process died'));
      await pay(store.payment_url);
      await t.settle();
      expect(died).toHaveBeenCalledTimes(1);
      return { eventId, store };
    }

    it('a payment whose seat was taken: the refund is requested with the payment, so a crash before the provider is asked still ends refunded', async () => {
      const { eventId, store } = await paidWithoutSeatRefundLost();
      const recorded = await s.order(store.order_id);
      // Paid, and its refund requested in the same step (its amount reserved): nothing can lose it now.
      expect(recorded).toMatchObject({ status: 'paid', refunded_amount: 4000 });
      expect(recorded.refunds).toEqual([expect.objectContaining({ amount: 4000, reason: UNSEATED_REFUND_REASON, status: 'requested' })]);

      // Recovery: the reconciler asks the provider again with the same key.
      const report = await t.created.app.get(RefundReconciler).run({ requestedOlderThanMs: 0 });
      expect(report.finished).toBe(1);
      const after = await s.order(store.order_id);
      expect(after.refunds).toEqual([expect.objectContaining({ amount: 4000, status: 'succeeded' })]);
      expect(await t.withEm(async (em) => (await em.findOneOrFail(DemoPayment, { sessionId: await pageOf(t, store.order_id) }, { refresh: true })).refundedCents)).toBe(4000);
      expect(await s.event(eventId)).toMatchObject({ seats_taken: 1 });
    });

    it('the reconciler refunds a payment an older version recorded without its refund (any age)', async () => {
      const { store } = await paidWithoutSeatRefundLost();
      // What the old code left after a kill between the settlement and the refund: paid, no ledger row.
      await t.withEm(async (em) => {
        await em.getConnection().execute(`delete from order_refund where order_id = ?`, [store.order_id]);
        await em.getConnection().execute(`update customer_order set status = 'paid', refunded_cents = 0 where id = ?`, [store.order_id]);
      });
      expect(await s.order(store.order_id)).toMatchObject({ status: 'paid', refunds: [] });

      const report = await t.created.app.get(RefundReconciler).run({ requestedOlderThanMs: 0 });
      await t.settle();
      expect(report.unhonoured).toBe(1);
      const after = await s.order(store.order_id);
      expect(after).toMatchObject({ status: 'refunded', refunded_amount: 4000 });
      expect(after.refunds).toEqual([expect.objectContaining({ amount: 4000, reason: UNSEATED_REFUND_REASON, status: 'succeeded' })]);
    });

    it('a checkout that died after the hold, before its page: the same request resumes its order and page; paid once, booked once', async () => {
      const eventId = await s.session(3);
      const who = s.buyer();
      const release = dieBeforeThePage();
      await lost(s.checkout({ event_id: eventId, ...who }).set('Idempotency-Key', `first-${who.email}`));
      const held = await pendingOrderOf(eventId);
      expect(held.checkoutSessionId ?? null).toBeNull();
      expect((await s.quote(eventId)).seats_left).toBe(2);

      // The buyer's retry (a new key, the same request): the same order, now with its page.
      const retry = (await s.checkout({ event_id: eventId, ...who }).set('Idempotency-Key', `second-${who.email}`).expect(201)).body;
      expect(retry).toMatchObject({ order_id: held.id, order_number: held.orderNumber, status: 'pending', payment_url: expect.stringContaining('/api/pay/demo/dcs_') });
      // And again: the same page, not a second one.
      const again = (await s.checkout({ event_id: eventId, ...who }).expect(201)).body;
      expect(again).toMatchObject({ order_id: held.id, payment_url: retry.payment_url, confirmation_url: retry.confirmation_url });
      expect((await s.quote(eventId)).seats_left).toBe(2);

      await pay(retry.payment_url);
      await t.settle();
      release();
      await t.settle();
      expect(await s.order(held.id)).toMatchObject({ status: 'paid', total: 4000 });
      expect(await s.event(eventId)).toMatchObject({ enrolled_count: 1, seats_taken: 1 });
      // The confirmation link the retry answered opens the order.
      const confirmation = new URL(retry.confirmation_url);
      const page = await t.http.get(`/api/public/${confirmation.pathname.split('/')[2]}/orders/${held.id}`).query({ token: confirmation.searchParams.get('token') });
      expect(page.status).toBe(200);
    });

    it('a checkout that died before its page and was abandoned: its seats are released at the page deadline', async () => {
      const eventId = await s.session(1);
      const release = dieBeforeThePage();
      await lost(s.checkout({ event_id: eventId, ...s.buyer() }));
      const held = await pendingOrderOf(eventId);
      expect((await s.quote(eventId)).seats_left).toBe(0);
      // The page deadline comes due (PAYMENT_PAGE_TIMEOUT_SECONDS after the hold).
      const job = await eventually(() => queue.getJob(`payment-page-deadline-${held.id}`), (j) => Boolean(j));
      await job!.promote();
      const ended = await eventually(() => s.order(held.id), (o) => o.status !== 'pending');
      expect(ended.status).toBe('failed');
      expect((ended.activity as Activity[]).at(-1)).toMatchObject({ action: 'payment_link_cancelled', detail: U.noPage });
      expect((await s.quote(eventId)).seats_left).toBe(1);
      // The dead call ends without a page; the seat is anyone's.
      release();
      await t.settle();
      const other = (await s.checkout({ event_id: eventId, ...s.buyer() }).expect(201)).body;
      expect(other.order_id).not.toBe(held.id);
    });

    it("the same buyer's other request for the session replaces the waiting one: its seats released, its page closed", async () => {
      const eventId = await s.session(3);
      const who = s.buyer();
      const first = (await s.checkout({ event_id: eventId, ...who, party_size: 2 }).expect(201)).body;
      const second = (await s.checkout({ event_id: eventId, ...who, party_size: 1 }).expect(201)).body;
      expect(second.order_id).not.toBe(first.order_id);
      expect(await s.order(first.order_id)).toMatchObject({ status: 'failed' });
      expect((await s.quote(eventId)).seats_left).toBe(2);
      const firstPage = await pageOf(t, first.order_id);
      expect(await t.withEm((em) => em.findOneOrFail(DemoCheckoutSession, { id: firstPage }, { refresh: true }))).toMatchObject({ status: 'expired' });
      expect((await pay(first.payment_url)).text).toContain('expired');
      expect(await demoPayments(firstPage)).toBe(0);
    });

    it('a payment link whose call died is resumed by the retry with the same Idempotency-Key: one order, one link, one mail', async () => {
      const eventId = await s.session(3);
      const ana = await s.addStudent();
      const release = dieBeforeThePage();
      await lost(s.link(ana, eventId, 'send-link-ana'));
      const held = await pendingOrderOf(eventId);
      // The retry: 409 while the first call's lease runs (it may still answer), then the same order resumed.
      const retried = await eventually(() => s.link(ana, eventId, 'send-link-ana'), (r) => r.status !== 409);
      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ order_id: held.id, url: expect.stringContaining('/api/pay/demo/dcs_') });
      release();
      await t.settle();
      const email = (await t.http.get(`/api/admin/student/${ana}`).set('token', s.token).expect(200)).body.email as string;
      const mails = await eventually(() => smtp.to(email).filter((m) => m.subject?.startsWith('Your payment link')), (m) => m.length >= 1);
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toContain(retried.body.url);
      // Without the key a second link is still refused, as the back office says.
      expect((await s.link(ana, eventId).expect(409)).body.message).toBeDefined();
      expect(await s.event(eventId)).toMatchObject({ seats_taken: 1 });
    });

    it('a page made for an order that ended meanwhile is closed, and the checkout answers that it ended', async () => {
      const eventId = await s.session(2);
      const who = s.buyer();
      // The page comes back only after the order ended (its deadline passed meanwhile).
      const real = port.createCheckout.bind(port);
      jest.spyOn(port, 'createCheckout').mockImplementationOnce(async (input) => {
        await t.withEm((em) => em.getConnection().execute(`update customer_order set status = 'failed' where id = ?`, [input.orderId]));
        return real(input);
      });
      const res = await s.checkout({ event_id: eventId, ...who }).expect(409);
      expect(res.body.message).toBe(C.checkoutEnded);
      const pages = await t.withEm((em) => em.find(DemoCheckoutSession, { customerEmail: who.email }, { refresh: true }));
      expect(pages.map((p) => p.status)).toEqual(['expired']);
    });
  });
});
