import { ORDER_MESSAGES, REFUND_MESSAGES as M, SCHEDULING_MESSAGES } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp, CreatedApp } from '../src/app.factory';
import { OrderEvents } from '../src/modules/orders/order-events';
import { OrdersService } from '../src/modules/orders/orders.service';
import { DemoPayment, DemoRefund } from '../src/modules/payments/demo/demo-ledger.entities';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/** What differs between the adapters: the payer's click on the provider's page, and the provider's own ledger. */
interface Harness {
  t: TestApp;
  port: PaymentsPort;
  pay(sessionId: string, url: string): Promise<void>;
  /** Cents the provider has refunded on a payment, and its refund count. */
  refundedAtProvider(paymentIntentId: string): Promise<{ cents: number; count: number }>;
  close(): Promise<void>;
}

async function demoHarness(): Promise<Harness> {
  const t = await startTestApp({ PUBLIC_APP_URL: 'http://studio.test', MEDIA_DIR: `/tmp/studio-media-refunds-${process.pid}` });
  const path = (url: string) => new URL(url).pathname;
  return {
    t,
    port: t.created.app.get(PaymentsPort),
    pay: async (_id, url) => void (await t.http.post(`${path(url)}/pay`).type('form').send('').expect(200)),
    refundedAtProvider: (id) =>
      t.withEm(async (em) => {
        const payment = await em.findOneOrFail(DemoPayment, { id }, { refresh: true });
        return { cents: payment.refundedCents, count: await em.count(DemoRefund, { paymentId: id }) };
      }),
    close: () => t.close(),
  };
}

let fake: FakeStripe | undefined;
async function stripeHarness(): Promise<Harness> {
  fake = await startFakeStripe('sk_test_refunds');
  const stripe = fake;
  const t = await startTestApp({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: 'whsec_test',
    STRIPE_API_BASE: stripe.url,
    PUBLIC_APP_URL: 'http://studio.test',
    MEDIA_DIR: `/tmp/studio-media-refunds-${process.pid}`,
  });
  return {
    t,
    port: t.created.app.get(PaymentsPort),
    pay: async (id) => void stripe.completeCheckout(id),
    refundedAtProvider: async (intentId) => {
      const intent = stripe.paymentIntents.get(intentId)!;
      const charge = stripe.charges.get(intent.latest_charge as string)!;
      return { cents: charge.amount_refunded as number, count: [...stripe.refunds.values()].filter((r) => r.payment_intent === intentId).length };
    },
    close: async () => {
      await t.close();
      await stripe.close();
    },
  };
}

type Org = { token: string; organizationId: string; userId: string };

describe.each([
  ['demo provider', demoHarness],
  ['Stripe adapter against the fake', stripeHarness],
])('refunds: %s', (_name, start) => {
  let h: Harness;
  let a: Org;
  let b: Org;
  let student: string;
  let studentB: string;

  const ctx = (o: Org) => ({ organizationId: o.organizationId, userId: o.userId, role: 'owner' as const, sessionId: 'test' });

  /** A real payment of `cents` at the provider: its payment intent. */
  async function charge(o: Org, cents: number): Promise<string> {
    const created = await h.port.createCheckout({
      organizationId: o.organizationId,
      orderId: randomUUID(),
      lines: [{ name: 'Wheel throwing', unitAmountCents: cents, quantity: 1 }],
      customerEmail: 'ana@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt: new Date(Date.now() + 23 * 3600_000),
    });
    await h.pay(created.sessionId, created.url);
    return (await h.port.retrieveCheckout(created.sessionId)).paymentIntentId!;
  }

  /** A paid workbench order charged at the provider (or as overridden). */
  async function order(o: Org, cents: number, overrides: { status?: 'paid' | 'pending' | 'refunded' | 'failed'; source?: string; paymentIntentId?: string | null } = {}) {
    const paymentIntentId = overrides.paymentIntentId === undefined ? await charge(o, cents) : overrides.paymentIntentId;
    const recorded = await h.t.withEm(() =>
      h.t.created.app.get(OrdersService).recordOrder(ctx(o), {
        studentId: o === a ? student : studentB,
        status: overrides.status ?? 'paid',
        source: overrides.source ?? 'workbench',
        paymentIntentId,
        lines: [{ kind: 'product', description: 'Glaze kit', unitPriceCents: cents }],
      }),
    );
    return { id: recorded.id, paymentIntentId };
  }

  const refund = (o: Org, orderId: string, body?: object, key?: string) => {
    const req = h.t.http.post(`/api/admin/order/${orderId}/refund`).set('token', o.token);
    if (key) req.set('Idempotency-Key', key);
    return body === undefined ? req.send() : req.send(body);
  };

  async function saveCard(o: Org) {
    const res = await h.t.http.post('/api/admin/payment-methods/setup').set('token', o.token).expect(200);
    expect(res.body.url).toMatch(/^https?:\/\//);
    const url = new URL(res.body.url);
    if (fake && h.port.provider === 'stripe') fake.completeCheckout(url.pathname.split('/').pop()!);
    else await h.t.http.post(`${url.pathname}/pay`).type('form').send('').expect(200);
  }

  beforeAll(async () => {
    h = await start();
    const ownerA = await h.t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await h.t.organizationWithUser('owner', 'Another Studio');
    a = { token: ownerA.token, organizationId: ownerA.organization.id, userId: ownerA.user.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id, userId: ownerB.user.id };
    student = await addStudent(h.t, a.token, { first_name: 'Ada', last_name: 'Lovelace' });
    studentB = await addStudent(h.t, b.token, { first_name: 'Olga', last_name: 'Other' });
    // Alpha Ceramics has a payment method on file; Another Studio has none.
    await saveCard(a);
  });
  afterAll(() => h.close());

  it('lists the payment methods on file: none, then the card saved on the setup page', async () => {
    const owner = await h.t.organizationWithUser('owner', 'Gamma Pottery');
    const c = { token: owner.token, organizationId: owner.organization.id, userId: owner.user.id };
    const empty = await h.t.http.get('/api/admin/payment-methods').set('token', c.token).expect(200);
    expect(empty.body).toEqual({ provider: h.port.provider, payment_methods: [] });
    await saveCard(c);
    const listed = await h.t.http.get('/api/admin/payment-methods').set('token', c.token).expect(200);
    expect(listed.body.payment_methods).toEqual([{ id: expect.any(String), brand: expect.any(String), last4: expect.stringMatching(/^\d{4}$/), exp_month: expect.any(Number), exp_year: expect.any(Number) }]);
    // Another studio's card is not ours.
    const other = await h.t.http.get('/api/admin/payment-methods').set('token', b.token).expect(200);
    expect(other.body.payment_methods).toEqual([]);
    await h.t.http.get('/api/admin/payment-methods').expect(401);
  });

  it('refuses what cannot be refunded, each with its message, and changes nothing', async () => {
    const pending = await order(a, 2000, { status: 'pending', paymentIntentId: null });
    const refunded = await order(a, 2000, { status: 'refunded' });
    const failed = await order(a, 2000, { status: 'failed', paymentIntentId: null });
    const zero = await order(a, 0, { paymentIntentId: null });
    const neverCharged = await order(a, 2000, { paymentIntentId: null });
    const synced = await order(a, 2000, { source: 'eventbrite' });
    for (const [o, message] of [
      [pending, M.notRefundable],
      [refunded, M.notRefundable],
      [failed, M.notRefundable],
      [zero, M.zeroTotal],
      [neverCharged, M.neverCharged],
      [synced, M.notWorkbench('eventbrite')],
    ] as const) {
      const res = await refund(a, o.id, { amount: 100 }).expect(409);
      expect(res.body.message).toBe(message);
    }
    const paid = await order(a, 2000);
    for (const amount of [0, -5, 1.5, '100', 100_000_001]) {
      const res = await refund(a, paid.id, { amount }).expect(400);
      expect(res.body.errors.amount).toBe(M.amountWholeCents);
    }
    const tooMuch = await refund(a, paid.id, { amount: 2001 }).expect(400);
    expect(tooMuch.body.message).toBe('Refund amount cannot exceed the remaining amount of $20.00');
    await refund(a, paid.id, { amount: 100, extra: true }).expect(400);
    await refund(a, paid.id, { amount: 100, reason: 'x'.repeat(501) }).expect(400);
    await refund(a, paid.id, { amount: 100 }, 'k'.repeat(201)).expect(400);
    const after = await h.t.http.get(`/api/admin/order/${paid.id}`).set('token', a.token).expect(200);
    expect(after.body).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [] });
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 0, count: 0 });
  });

  it("answers 404 'Order not found' for an unknown order or another studio's, and refuses without a payment method on file", async () => {
    const theirs = await order(b, 3000);
    const res = await refund(a, theirs.id, { amount: 100 }).expect(404);
    expect(res.body.message).toBe(ORDER_MESSAGES.notFound);
    expect((await refund(a, randomUUID()).expect(404)).body.message).toBe(ORDER_MESSAGES.notFound);
    // Another Studio has no payment method on file.
    const own = await refund(b, theirs.id, { amount: 100 }).expect(409);
    expect(own.body.message).toBe(M.noPaymentMethod);
    expect(await h.refundedAtProvider(theirs.paymentIntentId!)).toEqual({ cents: 0, count: 0 });
  });

  it('refunds part, then the rest with no amount; the ledger, the audit and the provider agree', async () => {
    const paid = await order(a, 4500);
    const first = await refund(a, paid.id, { amount: 1000, reason: 'Class moved' }).expect(200);
    expect(first.body).toMatchObject({ status: 'partial_refund', refunded_amount: 1000, total: 4500 });
    expect(first.body.refunds).toEqual([
      { refund_id: expect.any(String), amount: 1000, reason: 'Class moved', actor: 'Test owner', status: 'succeeded', provider_refund_id: expect.any(String), origin: 'app', created_at: expect.any(String) },
    ]);
    expect(first.body.activity).toContainEqual(expect.objectContaining({ action: 'refund', amount: 1000, detail: 'Class moved', actor: 'Test owner' }));
    const rest = await refund(a, paid.id).expect(200);
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 4500 });
    expect(rest.body.refunds.map((r: { amount: number }) => r.amount)).toEqual([1000, 3500]);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 4500, count: 2 });
    expect((await refund(a, paid.id, { amount: 1 }).expect(409)).body.message).toBe(M.notRefundable);
  });

  it('refunds once when one action is retried with its Idempotency-Key', async () => {
    const paid = await order(a, 3000);
    const key = randomUUID();
    await refund(a, paid.id, { amount: 700 }, key).expect(200);
    const again = await refund(a, paid.id, { amount: 700 }, key).expect(200);
    expect(again.body).toMatchObject({ status: 'partial_refund', refunded_amount: 700 });
    expect(again.body.refunds).toHaveLength(1);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 700, count: 1 });
    // Another action (another key) is another refund.
    await refund(a, paid.id, { amount: 700 }, randomUUID()).expect(200);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 1400, count: 2 });
  });

  it('a retry after a refund whose commit was lost refunds once at the provider', async () => {
    const paid = await order(a, 3000);
    const key = randomUUID();
    await refund(a, paid.id, { amount: 500 }, key).expect(200);
    // As if the process died after the provider refunded and before our transaction committed.
    await h.t.withEm(async (em) => {
      await em.execute(`delete from order_refund where order_id = ?`, [paid.id]);
      await em.execute(`update customer_order set refunded_cents = 0, status = 'paid' where id = ?`, [paid.id]);
    });
    const again = await refund(a, paid.id, { amount: 500 }, key).expect(200);
    expect(again.body).toMatchObject({ status: 'partial_refund', refunded_amount: 500 });
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 500, count: 1 });
  });

  it('after a refusal, the same action (one key) may try a smaller amount', async () => {
    const paid = await order(a, 2000);
    await h.port.refund({ paymentIntentId: paid.paymentIntentId!, amountCents: 1500, idempotencyKey: randomUUID() });
    const key = randomUUID();
    await refund(a, paid.id, { amount: 1000, reason: 'Late cancel' }, key).expect(409);
    const smaller = await refund(a, paid.id, { amount: 500, reason: 'Late cancel' }, key).expect(200);
    expect(smaller.body).toMatchObject({ status: 'partial_refund', refunded_amount: 500 });
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 2000, count: 2 });
  });

  it('records refund_failed and changes nothing when the provider refuses', async () => {
    const paid = await order(a, 2000);
    // Refunded at the provider behind our back: our ledger says 2,000 is left, the provider 500.
    await h.port.refund({ paymentIntentId: paid.paymentIntentId!, amountCents: 1500, idempotencyKey: randomUUID() });
    const res = await refund(a, paid.id, { amount: 1000, reason: 'Late cancel' }).expect(409);
    expect(res.body.message).toMatch(/greater than unrefunded amount/);
    const after = await h.t.http.get(`/api/admin/order/${paid.id}`).set('token', a.token).expect(200);
    expect(after.body).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [] });
    expect(after.body.activity).toContainEqual(expect.objectContaining({ action: 'refund_failed', amount: 1000, actor: 'Test owner' }));
  });

  describe('Remove student with a refund', () => {
    let eventId: string;

    /** An enrollment whose order was paid `cents` at the provider. */
    async function paidEnrollment(o: Org, studentId: string, cents: number) {
      const enrolled = await h.t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', o.token).send({ event_id: eventId }).expect(201);
      const paymentIntentId = await charge(o, cents);
      await h.t.withEm((em) =>
        em.execute(`update customer_order set total_cents = ?, payment_intent_id = ?, status = 'paid' where id = ?`, [cents, paymentIntentId, enrolled.body.order_id]),
      );
      return { enrollmentId: enrolled.body.enrollment_id as string, orderId: enrolled.body.order_id as string, paymentIntentId };
    }
    const enrolledIds = async () =>
      (await h.t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', a.token).expect(200)).body.enrollments.map((e: { enrollment_id: string }) => e.enrollment_id);

    beforeAll(async () => {
      const course = await schedulableCourse(h.t, a.token, 20);
      // 40 days ahead: the default Firm policy refunds everything.
      eventId = await scheduleSession(h.t, a.token, course, { price: 4500, daysFromNow: 40 });
    });

    it("quotes the order and the course policy's suggested refund", async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      const quote = await h.t.http.get(`/api/admin/enrollment/${e.enrollmentId}/refund-quote`).set('token', a.token).expect(200);
      expect(quote.body).toMatchObject({
        order: { order_id: e.orderId, status: 'paid', total: 4500, refunded_amount: 0 },
        refundable: 4500,
        suggested_amount: 4500,
        share: 1,
        policy: { name: 'Firm' },
        has_payment_method: true,
        refusal: null,
      });
      await h.t.http.get(`/api/admin/enrollment/${e.enrollmentId}/refund-quote`).set('token', b.token).expect(404);
      // A direct ($0.00) enrollment: nothing to refund, and why.
      const free = await h.t.http.post(`/api/admin/orders/enroll/${await addStudent(h.t, a.token)}`).set('token', a.token).send({ event_id: eventId }).expect(201);
      const freeQuote = await h.t.http.get(`/api/admin/enrollment/${free.body.enrollment_id}/refund-quote`).set('token', a.token).expect(200);
      expect(freeQuote.body).toMatchObject({ refundable: 0, suggested_amount: 0, refusal: M.zeroTotal });
    });

    it('validates the refund: non-zero amount and a reason', async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      const zero = await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 0, reason: 'Other' } }).expect(400);
      expect(zero.body.errors['refund.amount']).toBe(M.amountNonZero);
      const noReason = await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 100 } }).expect(400);
      expect(noReason.body.errors['refund.reason']).toBe(M.selectReason);
      const blank = await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 100, reason: '  ' } }).expect(400);
      expect(blank.body.errors['refund.reason']).toBe(M.selectReason);
      expect(await enrolledIds()).toContain(e.enrollmentId);
    });

    it('keeps the student enrolled when the provider refuses the refund', async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      await h.port.refund({ paymentIntentId: e.paymentIntentId, amountCents: 4500, idempotencyKey: randomUUID() });
      const res = await h.t.http
        .delete(`/api/admin/enrollment/${e.enrollmentId}`)
        .set('token', a.token)
        .send({ refund: { amount: 4500, reason: 'Schedule conflict' } })
        .expect(409);
      expect(res.body.errors.refund).toEqual(expect.any(String));
      expect(await enrolledIds()).toContain(e.enrollmentId);
      const o = await h.t.http.get(`/api/admin/order/${e.orderId}`).set('token', a.token).expect(200);
      expect(o.body).toMatchObject({ status: 'paid', refunded_amount: 0 });
      expect(o.body.activity).toContainEqual(expect.objectContaining({ action: 'refund_failed', amount: 4500 }));
    });

    it('removes and refunds in one operation', async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      const tooMuch = await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 4501, reason: 'Other' } }).expect(400);
      expect(tooMuch.body.errors.refund).toBe(M.exceedsRemaining(4500));
      expect(await enrolledIds()).toContain(e.enrollmentId);
      await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 2250, reason: 'Schedule conflict' } }).expect(204);
      expect(await enrolledIds()).not.toContain(e.enrollmentId);
      const o = await h.t.http.get(`/api/admin/order/${e.orderId}`).set('token', a.token).expect(200);
      expect(o.body).toMatchObject({ status: 'partial_refund', refunded_amount: 2250, refunds: [expect.objectContaining({ amount: 2250, reason: 'Schedule conflict' })] });
      expect(await h.refundedAtProvider(e.paymentIntentId)).toEqual({ cents: 2250, count: 1 });
    });

    it("the refund's announcement comes after the removal committed, never from inside its transaction", async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      // What another connection saw of the seat when order.refunded was announced (the loyalty module
      // takes points back on it): a removal that then rolled back must not have been announced.
      const seen: boolean[] = [];
      const off = h.t.created.app.get(OrderEvents).on('order.refunded', async (event) => {
        if (event.orderId === e.orderId) seen.push((await enrolledIds()).includes(e.enrollmentId));
      });
      try {
        await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 4500, reason: 'Other' } }).expect(204);
      } finally {
        off();
      }
      expect(seen).toEqual([false]);
    });

    it('a removal retried after a refund whose commit was lost refunds once at the provider', async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      const remove = () =>
        h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 1000, reason: 'Other' } });
      await remove().expect(204);
      // As if the process died after the provider refunded and before the removal committed.
      await h.t.withEm(async (em) => {
        await em.execute(`delete from order_refund where order_id = ?`, [e.orderId]);
        await em.execute(`update customer_order set refunded_cents = 0, status = 'paid' where id = ?`, [e.orderId]);
        await em.execute(`update enrollment set status = 'active', removed_at = null where id = ?`, [e.enrollmentId]);
      });
      await remove().expect(204);
      expect(await h.refundedAtProvider(e.paymentIntentId)).toEqual({ cents: 1000, count: 1 });
      const o = await h.t.http.get(`/api/admin/order/${e.orderId}`).set('token', a.token).expect(200);
      expect(o.body).toMatchObject({ status: 'partial_refund', refunded_amount: 1000 });
    });

    it("refuses a refund of a direct ($0.00) enrollment and of another studio's enrollment", async () => {
      const s = await addStudent(h.t, a.token);
      const enrolled = await h.t.http.post(`/api/admin/orders/enroll/${s}`).set('token', a.token).send({ event_id: eventId }).expect(201);
      const res = await h.t.http
        .delete(`/api/admin/enrollment/${enrolled.body.enrollment_id}`)
        .set('token', a.token)
        .send({ refund: { amount: 100, reason: 'Other' } })
        .expect(409);
      expect(res.body.errors.refund).toBe(M.zeroTotal);
      expect(await enrolledIds()).toContain(enrolled.body.enrollment_id);
      await h.t.http.delete(`/api/admin/enrollment/${enrolled.body.enrollment_id}`).set('token', b.token).send({ refund: { amount: 100, reason: 'Other' } }).expect(404);
      // Without a refund, removing works as before.
      await h.t.http.delete(`/api/admin/enrollment/${enrolled.body.enrollment_id}`).set('token', a.token).expect(204);
      expect(SCHEDULING_MESSAGES.studentRemoved).toBe('Student removed');
    });
  });

  it('50 concurrent partial refunds on two API replicas never exceed the captured amount', async () => {
    const paid = await order(a, 3000);
    // A second replica of the API on the same database and provider: the in-process queue of one
    // replica cannot serialise the other's refunds; only the order row lock does.
    const replica: CreatedApp = await createApp(h.t.config);
    try {
      const http2 = request(replica.app.getHttpServer());
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? http2 : h.t.http).post(`/api/admin/order/${paid.id}/refund`).set('token', a.token).send({ amount: 100 })),
      );
      const ok = results.filter((r) => r.status === 200).length;
      expect(results.every((r) => r.status === 200 || r.status === 400 || r.status === 409)).toBe(true);
      expect(ok).toBe(30);
      const after = await h.t.http.get(`/api/admin/order/${paid.id}`).set('token', a.token).expect(200);
      const ledger = after.body.refunds.reduce((sum: number, r: { amount: number }) => sum + r.amount, 0);
      expect(after.body).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
      expect(ledger).toBe(3000);
      expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 3000, count: 30 });
    } finally {
      await replica.close();
    }
  });
});


describe('refunds: demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SEED_DEMO: 'true', PUBLIC_APP_URL: 'http://studio.test', MEDIA_DIR: `/tmp/studio-media-refunds-seed-${process.pid}` });
  });
  afterAll(() => t.close());

  it('the demo studio has a payment method on file, receipts and a partly refunded order; Another Studio has no payment method', async () => {
    expect(t.created.seeded).toBe(true);
    const demo = await t.login(t.config.DEMO_EMAIL, t.config.DEMO_PASSWORD);
    const methods = await t.http.get('/api/admin/payment-methods').set('token', demo).expect(200);
    expect(methods.body.payment_methods).toHaveLength(1);
    const partial = await t.http.get('/api/admin/orders?status=partial_refund&limit=100').set('token', demo).expect(200);
    const details = await Promise.all(
      partial.body.orders.map((o: { order_id: string }) => t.http.get(`/api/admin/order/${o.order_id}`).set('token', demo).expect(200)),
    );
    const refunded = details.map((d) => d.body).find((o) => o.refunds.length > 0);
    expect(refunded).toMatchObject({ source: 'workbench', refunds: [expect.objectContaining({ actor: 'Dana Owner', reason: 'Requested by customer' })] });
    expect(refunded.paymentIntent.charges.receipt_url).toMatch(/^http:\/\/studio\.test\/api\/pay\/demo\/receipt\//);
    // What is left of it can be refunded from the drawer.
    await t.http.post(`/api/admin/order/${refunded.order_id}/refund`).set('token', demo).send({ amount: 1, reason: 'Demo' }).expect(200);

    // The bought seats of the soonest session were charged: Remove student can refund them.
    const { activities } = (await t.http.get('/api/admin/activities').set('token', demo).expect(200)).body;
    let quoted = 0;
    for (const activity of activities) {
      const { sessions } = (await t.http.get(`/api/admin/activities/${activity.activity_id}/sessions?include_past=false&limit=10000`).set('token', demo).expect(200)).body;
      for (const session of sessions) {
        const { enrollments } = (await t.http.get(`/api/admin/enrollment/event/${session.event_id}`).set('token', demo).expect(200)).body;
        for (const e of enrollments) {
          const quote = (await t.http.get(`/api/admin/enrollment/${e.enrollment_id}/refund-quote`).set('token', demo).expect(200)).body;
          if (quote.refundable > 0 && quote.refusal === null) quoted += 1;
        }
      }
    }
    expect(quoted).toBeGreaterThan(0);

    const other = await t.login('owner@another.studio', t.config.DEMO_PASSWORD);
    expect((await t.http.get('/api/admin/payment-methods').set('token', other).expect(200)).body.payment_methods).toEqual([]);
  });
});
