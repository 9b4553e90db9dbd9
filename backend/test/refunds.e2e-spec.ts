import { ORDER_MESSAGES, REFUND_MESSAGES as M, SCHEDULING_MESSAGES } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp, CreatedApp } from '../src/app.factory';
import { IDEMPOTENCY_MESSAGES } from '../src/common/idempotency/idempotency.interceptor';
import { Order } from '../src/modules/orders/entities/order.entity';
import { RefundReconciler } from '../src/modules/orders/refund-reconciler';
import { providerRefundKey } from '../src/modules/orders/refunds.service';
import { OrdersService } from '../src/modules/orders/orders.service';
import { IdempotencyStore, requestHash } from '../src/common/idempotency/idempotency.store';
import { DemoPayment, DemoRefund } from '../src/modules/payments/demo/demo-ledger.entities';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { StripeWebhooksService } from '../src/modules/payments/stripe/stripe-webhooks.service';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/** What differs between the adapters: the payer's click on the provider's page, and the provider's own ledger. */
interface Harness {
  t: TestApp;
  port: PaymentsPort;
  /** The payer pays the page, and what the provider announces of it reaches the app and is handled (the order settled). */
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
const WEBHOOK_SECRET = 'whsec_test';
async function stripeHarness(): Promise<Harness> {
  fake = await startFakeStripe('sk_test_refunds');
  const stripe = fake;
  const t = await startTestApp({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    PUBLIC_APP_URL: 'http://studio.test',
    MEDIA_DIR: `/tmp/studio-media-refunds-${process.pid}`,
  });
  return {
    t,
    port: t.created.app.get(PaymentsPort),
    // Paid on Stripe's page; its events delivered signed to the webhook endpoint, each handled as its queue job handles it.
    pay: async (id) => {
      const from = stripe.events.length;
      stripe.completeCheckout(id);
      for (const event of stripe.events.slice(from)) {
        const { payload, header } = stripe.signWebhook(event, WEBHOOK_SECRET);
        await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload).expect(200);
        await t.created.app.get(StripeWebhooksService).handle(event.id as string);
      }
      await t.settle();
    },
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

  /**
   * A workbench order of a glaze kit of `cents` (earning `points`), paid the real way: recorded
   * pending, its page made at the provider naming it and recorded on the order as a payment link's
   * is, and paid by the payer (h.pay): the provider's payment reaches the app, which settles the order
   * and announces order.paid. Overridden: an order that was never charged (`paymentIntentId: null`,
   * recorded in its status), or one paid and then refunded in full from the drawer (`status: 'refunded'`).
   */
  async function order(
    o: Org,
    cents: number,
    overrides: { status?: 'paid' | 'pending' | 'refunded' | 'failed'; source?: string; paymentIntentId?: null; studentId?: string; points?: number } = {},
  ) {
    const studentId = overrides.studentId ?? (o === a ? student : studentB);
    const lines = [{ kind: 'product' as const, description: 'Glaze kit', unitPriceCents: cents, loyaltyPoints: overrides.points ?? 0 }];
    const record = (status: 'paid' | 'pending' | 'refunded' | 'failed') =>
      h.t.withEm(() => h.t.created.app.get(OrdersService).recordOrder(ctx(o), { studentId, status, source: overrides.source ?? 'workbench', paymentIntentId: null, lines }));
    if (overrides.paymentIntentId === null) return { id: (await record(overrides.status ?? 'paid')).id, paymentIntentId: null };
    const pending = await record('pending');
    const expiresAt = new Date(Date.now() + 23 * 3600_000);
    const page = await h.port.createCheckout({
      organizationId: o.organizationId,
      orderId: pending.id,
      lines: [{ name: 'Glaze kit', unitAmountCents: cents, quantity: 1 }],
      customerEmail: 'ana@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt,
    });
    await h.t.withEm((em) => em.nativeUpdate(Order, { id: pending.id }, { checkoutSessionId: page.sessionId, linkExpiresAt: expiresAt }));
    await h.pay(page.sessionId, page.url);
    const paid = await h.t.withEm((em) => em.findOneOrFail(Order, { id: pending.id }, { refresh: true }));
    if (paid.status !== 'paid' || !paid.paymentIntentId) throw new Error(`order ${pending.id} is ${paid.status} after its page was paid`);
    if (overrides.status === 'refunded') await refund(o, pending.id).expect(200);
    return { id: pending.id, paymentIntentId: paid.paymentIntentId };
  }

  const refund = (o: Org, orderId: string, body?: object, key?: string) => {
    const req = h.t.http.post(`/api/admin/order/${orderId}/refund`).set('token', o.token);
    if (key) req.set('Idempotency-Key', key);
    return body === undefined ? req.send() : req.send(body);
  };

  /**
   * A refund whose step (c) never ran: its ledger row recorded as requested (amount reserved) two
   * minutes ago, and the provider's refund made with the row's key, as the refund call makes it.
   */
  async function crashedRefund(o: { id: string; paymentIntentId: string | null }, cents: number, options: { clientKey?: string; enrollmentId?: string } = {}) {
    const ledgerId = randomUUID();
    await h.t.withEm(async (em) => {
      await em.execute(
        `insert into order_refund (id, order_id, organization_id, amount_cents, reason, actor_user_id, status, idempotency_key, enrollment_id, origin, created_at)
         values (?, ?, ?, ?, 'Crashed', ?, 'requested', ?, ?, 'app', now() - interval '2 minutes')`,
        [ledgerId, o.id, a.organizationId, cents, a.userId, options.clientKey ?? null, options.enrollmentId ?? null],
      );
      await em.execute(`update customer_order set refunded_cents = refunded_cents + ? where id = ?`, [cents, o.id]);
    });
    await h.port.refund({
      paymentIntentId: o.paymentIntentId!,
      amountCents: cents,
      idempotencyKey: providerRefundKey(ledgerId),
      reason: 'Crashed',
      organizationId: a.organizationId,
      orderId: o.id,
      ledgerRefundId: ledgerId,
    });
    return ledgerId;
  }

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
    // Issue 33: an external order never charged is judged by its source first, as the order drawer says it.
    const syncedNeverCharged = await order(a, 2000, { source: 'eventbrite', paymentIntentId: null });
    const syncedPending = await order(a, 2000, { source: 'eventbrite', status: 'pending', paymentIntentId: null });
    for (const [o, message] of [
      [pending, M.notRefundable],
      [refunded, M.notRefundable],
      [failed, M.notRefundable],
      [zero, M.zeroTotal],
      [neverCharged, M.neverCharged],
      [synced, M.notWorkbench('eventbrite')],
      [syncedNeverCharged, M.notWorkbench('eventbrite')],
      [syncedPending, M.notWorkbench('eventbrite')],
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
      { refund_id: expect.any(String), amount: 1000, reason: 'Class moved', actor: 'Test owner', status: 'succeeded', provider_refund_id: expect.any(String), origin: 'app', refund_to: 'card', created_at: expect.any(String) },
    ]);
    expect(first.body.activity).toContainEqual(expect.objectContaining({ action: 'refund', amount: 1000, detail: 'Class moved', actor: 'Test owner' }));
    const rest = await refund(a, paid.id).expect(200);
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 4500 });
    expect(rest.body.refunds.map((r: { amount: number }) => r.amount)).toEqual([1000, 3500]);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 4500, count: 2 });
    expect((await refund(a, paid.id, { amount: 1 }).expect(409)).body.message).toBe(M.notRefundable);
  });

  it('an Idempotency-Key retried with the same body answers the first answer and refunds once; with another body 422 and nothing refunded', async () => {
    const paid = await order(a, 3000);
    const key = randomUUID();
    const first = await refund(a, paid.id, { amount: 700 }, key).expect(200);
    const again = await refund(a, paid.id, { amount: 700 }, key).expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.body).toMatchObject({ status: 'partial_refund', refunded_amount: 700 });
    expect(again.body.refunds).toHaveLength(1);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 700, count: 1 });
    // The same key with another amount: refused, nothing refunded (it answered 200 and refunded 700 once before).
    const other = await refund(a, paid.id, { amount: 900 }, key).expect(422);
    expect(other.body).toEqual({ statusCode: 422, message: IDEMPOTENCY_MESSAGES.mismatch });
    expect(IDEMPOTENCY_MESSAGES.mismatch).toBe('Keys for idempotent requests can only be used with the same parameters');
    // On another order too (the path is a parameter).
    const otherOrder = await order(a, 3000);
    await refund(a, otherOrder.id, { amount: 700 }, key).expect(422);
    expect(await h.refundedAtProvider(otherOrder.paymentIntentId!)).toEqual({ cents: 0, count: 0 });
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 700, count: 1 });
    // Keys are the studio's: another studio's same key is its own (and that order is not theirs).
    await refund(b, paid.id, { amount: 700 }, key).expect(404);
    // Another action (another key) is another refund.
    await refund(a, paid.id, { amount: 700 }, randomUUID()).expect(200);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 1400, count: 2 });
    // A body refused by its validation keeps no answer (the action never began): corrected, the same key runs.
    const fixKey = randomUUID();
    await refund(a, paid.id, { amount: 'seven' }, fixKey).expect(400);
    await refund(a, paid.id, { amount: 300 }, fixKey).expect(200);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 1700, count: 3 });
  });

  it('a refusal is replayed to the same key; an expired key is forgotten and runs again', async () => {
    const paid = await order(a, 2000);
    await h.port.refund({ paymentIntentId: paid.paymentIntentId!, amountCents: 1500, idempotencyKey: randomUUID() });
    const key = randomUUID();
    const refused = await refund(a, paid.id, { amount: 1000, reason: 'Late cancel' }, key).expect(409);
    expect(refused.body.message).toMatch(/greater than unrefunded amount/);
    const replayed = await refund(a, paid.id, { amount: 1000, reason: 'Late cancel' }, key).expect(409);
    expect(replayed.body).toEqual(refused.body);
    // Asked once: the replay did not ask the provider again (one refund_failed line).
    const drawer = await h.t.http.get(`/api/admin/order/${paid.id}`).set('token', a.token).expect(200);
    expect(drawer.body.activity.filter((l: { action: string }) => l.action === 'refund_failed')).toHaveLength(1);
    const smaller = await refund(a, paid.id, { amount: 500, reason: 'Late cancel' }, randomUUID()).expect(200);
    expect(smaller.body).toMatchObject({ status: 'partial_refund', refunded_amount: 500 });

    // A day later the key is forgotten: the same key with the same body is a new request.
    const later = await order(a, 2000);
    const dayKey = randomUUID();
    await refund(a, later.id, { amount: 300 }, dayKey).expect(200);
    await h.t.withEm(async (em) => {
      await em.execute(`update idempotency_key set created_at = now() - interval '25 hours' where key = ?`, [dayKey]);
      await em.execute(`update order_refund set created_at = now() - interval '25 hours' where idempotency_key = ?`, [dayKey]);
    });
    await refund(a, later.id, { amount: 300 }, dayKey).expect(200);
    expect(await h.refundedAtProvider(later.paymentIntentId!)).toEqual({ cents: 600, count: 2 });
    // And swept.
    await h.t.withEm((em) => em.execute(`update idempotency_key set created_at = now() - interval '25 hours' where key = ?`, [dayKey]));
    await h.t.created.app.get(IdempotencyStore).sweep();
    expect(await h.t.withEm(async (em) => (await em.execute(`select key from idempotency_key where key = ?`, [dayKey])).length)).toBe(0);
  });

  it('a key whose first request is still running answers 409; once its process is gone, a retry finishes that refund once', async () => {
    const paid = await order(a, 3000);
    const key = randomUUID();
    // As if a process recorded the refund as requested, the provider made it, and the process died
    // before recording the answer (and the answer to the key).
    const ledgerId = await crashedRefund(paid, 800, { clientKey: key });
    await h.t.withEm((em) =>
      em.execute(
        `insert into idempotency_key (organization_id, key, method_route, request_hash, state, locked_at)
         select ?, ?, 'POST /api/admin/order/:order_id/refund', ?, 'running', now()`,
        [a.organizationId, key, requestHash({ order_id: paid.id }, { amount: 800 })],
      ),
    );
    const busy = await refund(a, paid.id, { amount: 800 }, key).expect(409);
    expect(busy.body).toEqual({ statusCode: 409, message: IDEMPOTENCY_MESSAGES.running });
    await h.t.withEm((em) => em.execute(`update idempotency_key set locked_at = now() - interval '10 minutes' where key = ?`, [key]));
    const finished = await refund(a, paid.id, { amount: 800 }, key).expect(200);
    expect(finished.body).toMatchObject({ status: 'partial_refund', refunded_amount: 800 });
    expect(finished.body.refunds).toEqual([expect.objectContaining({ refund_id: ledgerId, amount: 800, status: 'succeeded' })]);
    expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 800, count: 1 });
    // Replayed from now on.
    expect((await refund(a, paid.id, { amount: 800 }, key).expect(200)).body).toEqual(finished.body);
  });

  it('records refund_failed and changes nothing when the provider refuses', async () => {
    const paid = await order(a, 2000);
    // Refunded at the provider behind our back: our ledger says 2,000 is left, the provider 500.
    await h.port.refund({ paymentIntentId: paid.paymentIntentId!, amountCents: 1500, idempotencyKey: randomUUID() });
    const res = await refund(a, paid.id, { amount: 1000, reason: 'Late cancel' }).expect(409);
    expect(res.body.message).toMatch(/greater than unrefunded amount/);
    const after = await h.t.http.get(`/api/admin/order/${paid.id}`).set('token', a.token).expect(200);
    // The attempt stays in the ledger as failed; its reserved amount is back on the order.
    expect(after.body).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [expect.objectContaining({ amount: 1000, status: 'failed', provider_refund_id: null })] });
    expect(after.body.activity).toContainEqual(expect.objectContaining({ action: 'refund_failed', amount: 1000, actor: 'Test owner' }));
  });

  describe('Remove student with a refund', () => {
    let eventId: string;

    /**
     * A seat of the session bought the real way: the studio sends the student a payment link (its
     * pending order holds the seat), the student pays it (h.pay), the payment settles the order and
     * the held seat becomes the enrollment. Its enrollment, order and payment; the order is `cents`.
     */
    async function paidEnrollment(o: Org, studentId: string, cents: number) {
      const link = (await h.t.http.post(`/api/admin/orders/invoice/${studentId}`).set('token', o.token).send({ event_id: eventId }).expect(201)).body;
      const sent = await h.t.withEm((em) => em.findOneOrFail(Order, { id: link.order_id }, { refresh: true }));
      await h.pay(sent.checkoutSessionId!, link.url);
      const paid = await h.t.withEm((em) => em.findOneOrFail(Order, { id: link.order_id }, { refresh: true }));
      if (paid.status !== 'paid' || paid.totalCents !== cents) throw new Error(`order ${paid.id} is ${paid.status} of ${paid.totalCents} after its link was paid`);
      const seats = (await h.t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', o.token).expect(200)).body.enrollments as { enrollment_id: string; student_id: string }[];
      const seat = seats.find((e) => e.student_id === studentId)!;
      return { enrollmentId: seat.enrollment_id, orderId: link.order_id as string, paymentIntentId: paid.paymentIntentId! };
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

    it('the removal and its refund commit together: order.refunded is announced with the seat removed; a refused one announces nothing', async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      const announced = (orderId: string) =>
        h.t.withEm(async (em) =>
          (await em.execute<{ payload: { full: boolean } }[]>(`select payload from outbox_message where type = 'order.refunded' and ordering_key = ?`, [orderId])).map(
            (r) => r.payload,
          ),
        );
      await h.t.http.delete(`/api/admin/enrollment/${e.enrollmentId}`).set('token', a.token).send({ refund: { amount: 4500, reason: 'Other' } }).expect(204);
      expect(await enrolledIds()).not.toContain(e.enrollmentId);
      expect(await announced(e.orderId)).toEqual([expect.objectContaining({ full: true, amountCents: 4500 })]);

      const s2 = await addStudent(h.t, a.token);
      const refused = await paidEnrollment(a, s2, 4500);
      await h.port.refund({ paymentIntentId: refused.paymentIntentId, amountCents: 4500, idempotencyKey: randomUUID() });
      await h.t.http.delete(`/api/admin/enrollment/${refused.enrollmentId}`).set('token', a.token).send({ refund: { amount: 4500, reason: 'Other' } }).expect(409);
      expect(await enrolledIds()).toContain(refused.enrollmentId);
      expect(await announced(refused.orderId)).toEqual([]);
    });

    it('a removal whose refund was made but never recorded (a crash) is finished by the reconciler: refunded once, the student removed', async () => {
      const s = await addStudent(h.t, a.token);
      const e = await paidEnrollment(a, s, 4500);
      const ledgerId = await crashedRefund({ id: e.orderId, paymentIntentId: e.paymentIntentId }, 1000, { enrollmentId: e.enrollmentId });
      // Until then the seat is taken and the amount reserved (another refund cannot take it).
      expect(await enrolledIds()).toContain(e.enrollmentId);
      const report = await h.t.created.app.get(RefundReconciler).run({ requestedOlderThanMs: 0 });
      expect(report.finished).toBeGreaterThanOrEqual(1);
      expect(await enrolledIds()).not.toContain(e.enrollmentId);
      expect(await h.refundedAtProvider(e.paymentIntentId)).toEqual({ cents: 1000, count: 1 });
      const o = await h.t.http.get(`/api/admin/order/${e.orderId}`).set('token', a.token).expect(200);
      expect(o.body).toMatchObject({ status: 'partial_refund', refunded_amount: 1000, refunds: [expect.objectContaining({ refund_id: ledgerId, status: 'succeeded' })] });
      // Again: nothing more.
      await h.t.created.app.get(RefundReconciler).run({ requestedOlderThanMs: 0 });
      expect(await h.refundedAtProvider(e.paymentIntentId)).toEqual({ cents: 1000, count: 1 });
      expect((await h.t.http.get(`/api/admin/order/${e.orderId}`).set('token', a.token).expect(200)).body).toEqual(o.body);
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

  describe('the refund reconciler', () => {
    type Entry = { balance: number; points: number; reason: string; order_id: string | null };
    const points = async (studentId: string) =>
      (await h.t.http.get(`/api/admin/student/${studentId}`).set('token', a.token).expect(200)).body.LoyaltyBalance as Entry[];
    const drawer = async (orderId: string) => (await h.t.http.get(`/api/admin/order/${orderId}`).set('token', a.token).expect(200)).body;
    const reconcile = (overrides = {}) => h.t.created.app.get(RefundReconciler).run({ requestedOlderThanMs: 0, ...overrides });

    it('finishes a full refund whose answer was never recorded: recorded once, the points taken back', async () => {
      await h.t.http.put('/api/admin/loyalty-program').set('token', a.token).send({ status: 'active' }).expect(200);
      const s = await addStudent(h.t, a.token);
      // Paid on the provider's page: the orders module's order.paid earns the points (the outbox).
      const paid = await order(a, 5000, { studentId: s, points: 250 });
      const paymentIntentId = paid.paymentIntentId!;
      await h.t.settle();
      expect((await points(s))[0]).toMatchObject({ balance: 250, reason: 'earned' });

      const ledgerId = await crashedRefund({ id: paid.id, paymentIntentId }, 5000);
      // Reserved meanwhile: nothing more can be refunded, and no points moved yet.
      expect((await refund(a, paid.id, { amount: 100 }).expect(409)).body.message).toBe(M.notRefundable);
      await h.t.settle();
      expect((await points(s))[0]).toMatchObject({ balance: 250 });
      // Younger than the threshold (and out of the comparison's window): left to the call that is (maybe) still running.
      await h.t.created.app.get(RefundReconciler).run({ requestedOlderThanMs: 10 * 60_000, windowMs: 0 });
      expect((await drawer(paid.id)).refunds).toEqual([expect.objectContaining({ refund_id: ledgerId, status: 'requested' })]);

      await reconcile();
      await h.t.settle();
      const after = await drawer(paid.id);
      expect(after).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
      expect(after.refunds).toEqual([expect.objectContaining({ refund_id: ledgerId, amount: 5000, status: 'succeeded', origin: 'app', provider_refund_id: expect.any(String) })]);
      expect(after.activity).toContainEqual(expect.objectContaining({ action: 'refund', amount: 5000, detail: 'Crashed', actor: 'Test owner' }));
      expect((await points(s))[0]).toMatchObject({ balance: 0, points: -250, reason: 'refund_reversal', order_id: paid.id });
      expect(await h.refundedAtProvider(paymentIntentId)).toEqual({ cents: 5000, count: 1 });

      await reconcile();
      await h.t.settle();
      expect(await drawer(paid.id)).toEqual(after);
      expect((await points(s)).filter((e) => e.order_id === paid.id)).toHaveLength(2);
    });

    it('a requested refund the provider refuses when asked again is failed and its amount given back', async () => {
      const paid = await order(a, 2000);
      // The provider refunded all of it behind our back before our requested row was ever asked.
      await h.port.refund({ paymentIntentId: paid.paymentIntentId!, amountCents: 2000, idempotencyKey: randomUUID() });
      const ledgerId = randomUUID();
      await h.t.withEm(async (em) => {
        await em.execute(
          `insert into order_refund (id, order_id, organization_id, amount_cents, reason, actor_user_id, status, origin, created_at)
           values (?, ?, ?, 600, 'Never asked', ?, 'requested', 'app', now() - interval '2 minutes')`,
          [ledgerId, paid.id, a.organizationId, a.userId],
        );
        await em.execute(`update customer_order set refunded_cents = 600 where id = ?`, [paid.id]);
      });
      await reconcile();
      const after = await drawer(paid.id);
      expect(after.refunds).toContainEqual(expect.objectContaining({ refund_id: ledgerId, amount: 600, status: 'failed' }));
      expect(after.activity).toContainEqual(expect.objectContaining({ action: 'refund_failed', amount: 600 }));
      // The provider's own refund of 2,000 in no ledger row is recorded by the comparison.
      expect(after).toMatchObject({ status: 'refunded', refunded_amount: 2000 });
      expect(after.refunds).toContainEqual(expect.objectContaining({ amount: 2000, origin: 'provider' }));
    });

    it('records a provider refund in no ledger row once (one naming its order, as a crash before the ledger left it)', async () => {
      const paid = await order(a, 3000);
      await refund(a, paid.id, { amount: 1000, reason: 'First' }).expect(200);
      await h.port.refund({ paymentIntentId: paid.paymentIntentId!, amountCents: 500, idempotencyKey: randomUUID(), organizationId: a.organizationId, orderId: paid.id });
      const report = await reconcile();
      expect(report.recorded).toBeGreaterThanOrEqual(1);
      const after = await drawer(paid.id);
      expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 1500 });
      expect(after.refunds.map((r: { amount: number; origin: string }) => [r.amount, r.origin])).toEqual([
        [1000, 'app'],
        [500, 'provider'],
      ]);
      await reconcile();
      expect(await drawer(paid.id)).toEqual(after);
      // What is left is refundable, no more.
      await refund(a, paid.id, { amount: 1501 }).expect(400);
      await refund(a, paid.id).expect(200);
      expect(await h.refundedAtProvider(paid.paymentIntentId!)).toEqual({ cents: 3000, count: 3 });
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
