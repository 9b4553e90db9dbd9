import { EntityManager } from '@mikro-orm/postgresql';
import { REFUND_MESSAGES as M } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { IdempotencyStore } from '../src/common/idempotency/idempotency.store';
import { OrderActivityService } from '../src/modules/orders/order-activity.service';
import { OrderEvents } from '../src/modules/orders/order-events';
import { providerRefundKey, RefundsService } from '../src/modules/orders/refunds.service';
import { RefundLedger } from '../src/modules/orders/refund-ledger.service';
import { RefundProviderSync } from '../src/modules/orders/refund-provider-sync.service';
import { PaymentEvent, PaymentEvents } from '../src/modules/payments/payment-events';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { StripeWebhookEvent } from '../src/modules/payments/stripe/stripe-webhook-event.entity';
import { AppointmentsService } from '../src/modules/scheduling/appointments.service';
import { EnrollmentsService } from '../src/modules/scheduling/enrollments.service';
import { WalletService } from '../src/modules/wallet/wallet.service';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { paidSeatThroughLink, paidThroughCheckout } from './support/checkout-fixtures';
import { startTestApp, TestApp } from './test-app';

const SECRET = 'whsec_external_refunds';

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Org = { token: string; organizationId: string; userId: string };
type Event = Record<string, unknown> & { id: string };
type RefundLine = {
  refund_id: string;
  amount: number;
  status: string;
  provider_refund_id: string;
  origin: string;
  actor: string | null;
  reason: string;
};
type ActivityLine = { action: string; amount: number | null; detail: string; actor: string | null };
type Entry = { balance: number; points: number; reason: string; order_id: string | null };

/**
 * Refunds a studio owner makes in the Stripe dashboard (not through this back office): Stripe's
 * refund.created, refund.updated and charge.refunded webhooks record them in the order's refunds
 * ledger, once, with the order's refunded amount, status, history, and the loyalty points of a full
 * refund; the order drawer (GET /api/admin/order/{id}) shows them as made at Stripe.
 */
describe('refunds made in the Stripe dashboard', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let a: Org;

  async function saveCard(o: Org) {
    const res = await t.http.post('/api/admin/payment-methods/setup').set('token', o.token).expect(200);
    fake.completeCheckout(new URL(res.body.url).pathname.split('/').pop()!);
  }

  /**
   * A real Checkout payment of `cents` at the fake that no order names (its page names an order id
   * the studio never had): a sale made elsewhere with the same Stripe account.
   */
  async function charge(o: Org, cents: number): Promise<string> {
    const port = t.created.app.get(PaymentsPort);
    const created = await port.createCheckout({
      organizationId: o.organizationId,
      orderId: randomUUID(),
      lines: [{ name: 'Wheel throwing', unitAmountCents: cents, quantity: 1 }],
      customerEmail: 'ana@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt: new Date(Date.now() + 23 * 3600_000),
    });
    fake.completeCheckout(created.sessionId);
    return (await port.retrieveCheckout(created.sessionId)).paymentIntentId!;
  }

  /**
   * A paid workbench order of `totalCents` (by default what was charged), charged `cents` at the
   * fake; its lines earn `points`. Paid the real way: sent as a link (a Checkout Session naming it),
   * completed at the fake and its webhooks delivered, so the orders module's order.paid earns the
   * points through the outbox.
   */
  async function order(
    o: Org,
    cents: number,
    options: { studentId?: string; totalCents?: number; points?: number } = {},
  ) {
    const studentId = options.studentId ?? (await addStudent(t, o.token));
    const paid = await paidThroughCheckout(t, fake, deliverAll, o, { studentId, cents, totalCents: options.totalCents, points: options.points ?? 0 });
    return { ...paid, studentId };
  }

  const refund = (o: Org, orderId: string, body: object) =>
    t.http.post(`/api/admin/order/${orderId}/refund`).set('token', o.token).send(body);
  const drawer = async (o: Org, orderId: string) =>
    (await t.http.get(`/api/admin/order/${orderId}`).set('token', o.token).expect(200)).body;
  const refundLines = (body: { activity: ActivityLine[] }) =>
    body.activity.filter((l) => l.action === 'refund');
  /** The student's points, once what the calls so far announced is carried out. */
  const points = async (o: Org, studentId: string) =>
    (await t.settle(), await t.http.get(`/api/admin/student/${studentId}`).set('token', o.token).expect(200)).body
      .LoyaltyBalance as Entry[];
  const ledgerRows = (providerRefundId: string) =>
    t.withEm(async (em) =>
      Number(
        (
          await em.execute<{ n: string }[]>(
            `select count(*) as n from order_refund where provider_refund_id = ?`,
            [providerRefundId],
          )
        )[0].n,
      ),
    );

  const deliver = (event: Event) => {
    const { payload, header } = fake.signWebhook(event, SECRET);
    return t.http
      .post('/api/webhooks/stripe')
      .set('Stripe-Signature', header)
      .set('Content-Type', 'application/json')
      .send(payload);
  };
  const handled = (ids: string[]) => () =>
    t.withEm(
      async (em) =>
        (await em.count(StripeWebhookEvent, { id: { $in: ids }, processedAt: { $ne: null } })) === ids.length,
    );
  /** Delivers each event (signed as Stripe signs) and waits until the queue has handled them all. */
  async function deliverAll(...events: Event[]) {
    for (const event of events) await deliver(event).expect(200);
    await eventually(handled(events.map((e) => e.id)));
    // The refund changes they announce are handled by outbox jobs.
    await t.settle();
  }
  /** The same refund announced by another event (Stripe sends one change under several types and ids). */
  const another = (event: Event, type = event.type as string): Event => ({
    ...structuredClone(event),
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    type,
  });

  /** The refunds of another API replica: its own in-process queue, the same database. */
  const replica = () => {
    const app = t.created.app;
    const ledger = new RefundLedger(
      app.get(EntityManager),
      app.get(PaymentsPort),
      app.get(OrderActivityService),
      app.get(EnrollmentsService),
      app.get(OrderEvents),
      app.get(IdempotencyStore),
      app.get(AppointmentsService),
      app.get(WalletService),
    );
    return new RefundProviderSync(app.get(EntityManager), ledger, app.get(OrderActivityService), app.get(OrderEvents), app.get(PaymentEvents));
  };
  const refundEvent = (
    refund: Record<string, unknown>,
    paymentIntentId: string,
    orderReference: string | null,
  ): Extract<PaymentEvent, { type: 'refund.updated' }> => ({
    type: 'refund.updated',
    provider: 'stripe',
    organizationId: a.organizationId,
    providerRefundId: refund.id as string,
    paymentIntentId,
    status: refund.status as string,
    amountCents: refund.amount as number,
    failureReason: null,
    orderReference,
    reason: null,
  });

  beforeAll(async () => {
    fake = await startFakeStripe('sk_test_external_refunds');
    t = await startTestApp({
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: fake.url,
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-external-refunds-${process.pid}`,
      RUN_WORKER: 'true',
    });
    const owner = await t.organizationWithUser('owner', 'Alpha Ceramics');
    a = { token: owner.token, organizationId: owner.organization.id, userId: owner.user.id };
    await saveCard(a);
    await t.http
      .put('/api/admin/loyalty-program')
      .set('token', a.token)
      .send({ status: 'active' })
      .expect(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('a partial then a full refund in the dashboard show on the order with its status and history; the full one takes the points back', async () => {
    const paid = await order(a, 5000, { points: 300 });
    expect((await points(a, paid.studentId))[0]).toMatchObject({ balance: 300, reason: 'earned' });

    // Partial, announced by refund.created.
    const first = fake.dashboardRefund(paid.paymentIntentId, {
      amount: 1200,
      reason: 'requested_by_customer',
    });
    expect(first.refund.metadata).toEqual({});
    await deliverAll(first.created);
    const partial = await drawer(a, paid.id);
    expect(partial).toMatchObject({ status: 'partial_refund', refunded_amount: 1200 });
    expect(partial.refunds).toEqual([
      expect.objectContaining({
        amount: 1200,
        status: 'succeeded',
        provider_refund_id: first.refund.id,
        origin: 'provider',
        actor: null,
        reason: 'Requested by customer',
      }),
    ]);
    expect(refundLines(partial)).toEqual([
      expect.objectContaining({ amount: 1200, detail: 'Refunded $12.00 in Stripe', actor: null }),
    ]);
    expect(M.refundedAtProvider(1200, 'Stripe')).toBe('Refunded $12.00 in Stripe');
    // A partial refund takes no points.
    expect((await points(a, paid.studentId))[0]).toMatchObject({ balance: 300, reason: 'earned' });

    // The rest, announced only by charge.refunded (whose charge does not list its refunds: they are read from Stripe).
    const rest = fake.dashboardRefund(paid.paymentIntentId);
    expect((rest.chargeRefunded.data as { object: { refunds?: unknown } }).object.refunds).toBeUndefined();
    await deliverAll(rest.chargeRefunded);
    const full = await drawer(a, paid.id);
    expect(full).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    expect(full.refunds.map((r: RefundLine) => [r.amount, r.status, r.origin, r.provider_refund_id])).toEqual(
      [
        [1200, 'succeeded', 'provider', first.refund.id],
        [3800, 'succeeded', 'provider', rest.refund.id],
      ],
    );
    expect(refundLines(full).map((l) => l.detail)).toEqual([
      'Refunded $12.00 in Stripe',
      'Refunded $38.00 in Stripe',
    ]);
    expect((await points(a, paid.studentId))[0]).toMatchObject({
      balance: 0,
      points: -300,
      reason: 'refund_reversal',
      order_id: paid.id,
    });
  });

  it('no seat is released: a student enrolled with the order stays enrolled', async () => {
    const course = await schedulableCourse(t, a.token, 20);
    const eventId = await scheduleSession(t, a.token, course, { price: 4500, daysFromNow: 40 });
    const s = await addStudent(t, a.token);
    // The seat bought with a payment link paid at the fake.
    const seat = await paidSeatThroughLink(t, fake, deliverAll, a.token, { studentId: s, eventId });
    const { orderId, paymentIntentId } = seat;
    const enrolled = { body: { enrollment_id: seat.enrollmentId } };
    const enrolledIds = async () =>
      (
        await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', a.token).expect(200)
      ).body.enrollments.map((e: { enrollment_id: string }) => e.enrollment_id);
    expect(await enrolledIds()).toContain(enrolled.body.enrollment_id);

    await deliverAll(fake.dashboardRefund(paymentIntentId).created);
    expect(await drawer(a, orderId)).toMatchObject({
      status: 'refunded',
      refunded_amount: 4500,
      refunds: [expect.objectContaining({ origin: 'provider' })],
    });
    expect(await enrolledIds()).toContain(enrolled.body.enrollment_id);
  });

  it('the same refund delivered again, under refund.updated, or in a charge.refunded, is recorded once', async () => {
    const paid = await order(a, 4000);
    const made = fake.dashboardRefund(paid.paymentIntentId, { amount: 1500 });
    await deliverAll(made.created);
    const once = await drawer(a, paid.id);
    expect(once).toMatchObject({
      status: 'partial_refund',
      refunded_amount: 1500,
      refunds: [expect.objectContaining({ amount: 1500, origin: 'provider' })],
    });

    expect((await deliver(made.created).expect(200)).body).toEqual({ received: true, duplicate: true });
    await deliverAll(
      made.chargeRefunded,
      another(made.created),
      another(made.created, 'refund.updated'),
      another(made.chargeRefunded),
    );
    expect(await drawer(a, paid.id)).toEqual(once);
    expect(await ledgerRows(made.refund.id)).toBe(1);
  });

  it('deliveries at once, and a second API replica at once, record the refund once', async () => {
    const paid = await order(a, 6000);
    const made = fake.dashboardRefund(paid.paymentIntentId, { amount: 2500 });
    const events = [
      made.created,
      another(made.created),
      made.chargeRefunded,
      another(made.chargeRefunded),
      another(made.created, 'refund.updated'),
    ];
    await Promise.all(events.map((e) => deliver(e).expect(200)));
    await eventually(handled(events.map((e) => e.id)));
    // The refund changes they announce are handled by outbox jobs (a clean-clone CI under load read
    // the order before they ran).
    await t.settle();
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 2500 });
    expect(after.refunds).toHaveLength(1);
    expect(refundLines(after)).toHaveLength(1);

    // Two replicas of the API (each its own in-process queue): only the order's row lock and the database serialise them.
    const second = await t.withEm(async () => {
      const replicas = [t.created.app.get(RefundsService), replica()];
      const other = fake.dashboardRefund(paid.paymentIntentId, { amount: 1000 }).refund;
      const event = refundEvent(other, paid.paymentIntentId, null);
      await Promise.all([...replicas, ...replicas].map((r) => r.providerUpdate(event)));
      return other;
    });
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'partial_refund', refunded_amount: 3500 });
    expect(await ledgerRows(second.id)).toBe(1);
    // And the database refuses a second row of one provider refund recorded from the provider.
    await expect(
      t.withEm((em) =>
        em.execute(
          `insert into order_refund (id, order_id, organization_id, amount_cents, provider_refund_id, status, origin) values (?, ?, ?, 1, ?, 'succeeded', 'provider')`,
          [randomUUID(), paid.id, a.organizationId, second.id],
        ),
      ),
    ).rejects.toThrow(/order_refund_provider_once/);
  });

  it("our own refund's webhooks, also while Stripe's answer to our call is held, record it once; a dashboard refund meanwhile is recorded", async () => {
    const paid = await order(a, 3000);
    await refund(a, paid.id, { amount: 500, reason: 'Late cancel' }).expect(200);
    const [ownCreated, ownCharge] = fake.events.slice(-2) as Event[];
    expect([ownCreated.type, ownCharge.type]).toEqual(['refund.created', 'charge.refunded']);
    await deliverAll(ownCreated, ownCharge);
    expect(await drawer(a, paid.id)).toMatchObject({
      refunded_amount: 500,
      refunds: [expect.objectContaining({ amount: 500, origin: 'app', actor: 'Test owner' })],
    });

    // Stripe has made the next refund and announced it, but has not answered our API call yet.
    const hold = fake.holdNextRefund();
    const call = refund(a, paid.id, { amount: 1000, reason: 'Class moved' }).then((r) => r);
    const ours = await hold.created;
    const [created, chargeRefunded] = fake.events.slice(-2) as Event[];
    expect((created.data as { object: { id: string } }).object.id).toBe(ours.id);
    // Meanwhile the owner refunds some more in the dashboard.
    const dashboard = fake.dashboardRefund(paid.paymentIntentId, { amount: 700 });
    try {
      // Our refund names its requested ledger row (order_refund_id): the webhook records it on that row.
      await deliverAll(created, chargeRefunded, another(created, 'refund.updated'), dashboard.chargeRefunded);
      expect(await ledgerRows(ours.id)).toBe(1);
      // Another replica handling it as if it named no order finds that row.
      await t.withEm(() => replica().providerUpdate(refundEvent(ours, paid.paymentIntentId, null)));
    } finally {
      hold.release();
    }
    expect((await call).status).toBe(200);
    await deliverAll(dashboard.created);

    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 2200 });
    expect(after.refunds.map((r: RefundLine) => [r.amount, r.origin, r.actor])).toEqual([
      [500, 'app', 'Test owner'],
      [1000, 'app', 'Test owner'],
      [700, 'provider', null],
    ]);
    expect(refundLines(after).map((l) => [l.amount, l.actor])).toEqual([
      [500, 'Test owner'],
      [1000, 'Test owner'],
      [700, null],
    ]);
    expect(await ledgerRows(ours.id)).toBe(1);
  });

  it('a refund of ours whose answer was never recorded (a crash) is recorded from its webhook; one naming our order with no ledger row is recorded on it', async () => {
    const paid = await order(a, 4000, { points: 120 });
    const port = t.created.app.get(PaymentsPort);
    // Step (a) committed and Stripe made the refund; the process died before recording its answer.
    const ledgerId = randomUUID();
    await t.withEm(async (em) => {
      await em.execute(
        `insert into order_refund (id, order_id, organization_id, amount_cents, reason, actor_user_id, status, origin) values (?, ?, ?, 1000, 'Crashed', ?, 'requested', 'app')`,
        [ledgerId, paid.id, a.organizationId, a.userId],
      );
      await em.execute(`update customer_order set refunded_cents = 1000 where id = ?`, [paid.id]);
    });
    await port.refund({
      paymentIntentId: paid.paymentIntentId,
      amountCents: 1000,
      idempotencyKey: providerRefundKey(ledgerId),
      organizationId: a.organizationId,
      orderId: paid.id,
      ledgerRefundId: ledgerId,
    });
    await deliverAll(...(fake.events.slice(-2) as Event[]));
    const recorded = await drawer(a, paid.id);
    expect(recorded).toMatchObject({ status: 'partial_refund', refunded_amount: 1000 });
    expect(recorded.refunds).toEqual([
      expect.objectContaining({ refund_id: ledgerId, amount: 1000, status: 'succeeded', origin: 'app', provider_refund_id: expect.stringMatching(/^re_/) }),
    ]);

    // A refund naming our order but no ledger row (made before refunds named their row, and lost): recorded on it, once.
    await port.refund({ paymentIntentId: paid.paymentIntentId, amountCents: 3000, idempotencyKey: randomUUID(), organizationId: a.organizationId, orderId: paid.id });
    const lost = fake.events.slice(-2) as Event[];
    await deliverAll(...lost, another(lost[0], 'refund.updated'));
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'refunded', refunded_amount: 4000 });
    expect(after.refunds.map((r: RefundLine) => [r.amount, r.origin])).toEqual([
      [1000, 'app'],
      [3000, 'provider'],
    ]);
    // Full now: the points are taken back, once.
    const entries = (await points(a, paid.studentId)).filter((e) => e.order_id === paid.id);
    expect(entries.map((e) => [e.reason, e.points])).toEqual([
      ['refund_reversal', -120],
      ['earned', 120],
    ]);
  });

  it('a dashboard refund that later fails gives its amount and the points back; a late refund.created changes nothing', async () => {
    const paid = await order(a, 2500, { points: 100 });
    const made = fake.dashboardRefund(paid.paymentIntentId, { status: 'pending' });
    await deliverAll(made.created);
    expect(await drawer(a, paid.id)).toMatchObject({
      status: 'refunded',
      refunded_amount: 2500,
      refunds: [expect.objectContaining({ status: 'pending', origin: 'provider' })],
    });
    expect((await points(a, paid.studentId))[0]).toMatchObject({ balance: 0, reason: 'refund_reversal' });

    await deliverAll(
      fake.updateRefund(made.refund.id, 'failed', { failureReason: 'expired_or_canceled_card' }),
    );
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({
      status: 'paid',
      refunded_amount: 0,
      refunds: [expect.objectContaining({ status: 'failed', amount: 2500 })],
    });
    expect(after.activity.filter((l: ActivityLine) => l.action === 'refund_failed')).toEqual([
      expect.objectContaining({
        amount: 2500,
        detail: 'Refund of $25.00 failed: expired_or_canceled_card',
        actor: null,
      }),
    ]);
    expect((await points(a, paid.studentId))[0]).toMatchObject({
      balance: 100,
      points: 100,
      reason: 'refund_failed',
    });

    // Its refund.created (pending) delivered late: the refund failed, so nothing is counted again.
    await deliverAll(another(made.created), another(made.chargeRefunded));
    expect(await drawer(a, paid.id)).toEqual(after);
  });

  it('a refund failed at Stripe before it was ever recorded is not recorded; one of a payment that is no order stays ignored', async () => {
    const paid = await order(a, 2000);
    const made = fake.dashboardRefund(paid.paymentIntentId, { amount: 800, status: 'pending' });
    fake.updateRefund(made.refund.id, 'failed');
    await deliverAll(made.created);
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [] });

    // A payment of this studio that no order names (a sale made elsewhere with the same Stripe account).
    const stray = await charge(a, 1200);
    const strayRefund = fake.dashboardRefund(stray);
    await deliverAll(strayRefund.created, strayRefund.chargeRefunded);
    expect(await ledgerRows(strayRefund.refund.id)).toBe(0);

    // The contrast: the same kind of refund of an order is recorded.
    const recorded = fake.dashboardRefund(paid.paymentIntentId, { amount: 300 });
    await deliverAll(recorded.created);
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'partial_refund', refunded_amount: 300 });
  });

  it("never counts beyond the order's total: the rest is said in the history", async () => {
    // Charged 30.00 for an order of 20.00 (another sale on the same payment).
    const paid = await order(a, 3000, { totalCents: 2000 });
    const big = fake.dashboardRefund(paid.paymentIntentId, { amount: 2500 });
    await deliverAll(big.created);
    const capped = await drawer(a, paid.id);
    expect(capped).toMatchObject({
      status: 'refunded',
      refunded_amount: 2000,
      refunds: [expect.objectContaining({ amount: 2000, origin: 'provider' })],
    });
    expect(refundLines(capped)).toEqual([
      expect.objectContaining({
        amount: 2000,
        detail: "Refunded $25.00 in Stripe; $20.00 counted: the order's total is refunded",
      }),
    ]);
    // Nothing left to count: listed, counted 0, the order unchanged.
    const more = fake.dashboardRefund(paid.paymentIntentId);
    await deliverAll(more.created);
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'refunded', refunded_amount: 2000 });
    expect(after.refunds.map((r: RefundLine) => r.amount)).toEqual([2000, 0]);
    expect(refundLines(after).at(-1)).toMatchObject({
      amount: 0,
      detail: "Refunded $5.00 in Stripe; $0.00 counted: the order's total is refunded",
    });
    // Its later failure gives back nothing and leaves the order refunded.
    await deliverAll(fake.updateRefund(more.refund.id, 'failed'));
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'refunded', refunded_amount: 2000 });
  });
});
