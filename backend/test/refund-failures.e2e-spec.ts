import { LOYALTY_REASON_LABELS, REFUND_MESSAGES as M } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { StripeWebhookEvent } from '../src/modules/payments/stripe/stripe-webhook-event.entity';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { paidSeatThroughLink, paidThroughCheckout } from './support/checkout-fixtures';
import { startTestApp, TestApp } from './test-app';

const SECRET = 'whsec_refund_failures';

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Org = { token: string; organizationId: string; userId: string };
type Event = Record<string, unknown> & { id: string };
type RefundLine = { refund_id: string; amount: number; status: string; provider_refund_id: string };
type ActivityLine = { action: string; amount: number | null; detail: string; actor: string | null };

/**
 * A Stripe refund made pending (the bank takes days) that later fails, is canceled or succeeds: the
 * refund webhooks (refund.updated, refund.failed, charge.refund.updated) reach the order's ledger,
 * and the order drawer (GET /api/admin/order/{id}) shows what was really returned.
 */
describe('refunds that fail at Stripe after they were made', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let a: Org;
  let b: Org;
  let studentA: string;
  let studentB: string;

  async function saveCard(o: Org) {
    const res = await t.http.post('/api/admin/payment-methods/setup').set('token', o.token).expect(200);
    fake.completeCheckout(new URL(res.body.url).pathname.split('/').pop()!);
  }

  /** A paid workbench order of `cents`, paid the real way at the fake (paidThroughCheckout: a Checkout Session naming it, its webhooks delivered). */
  const order = (o: Org, cents: number) => paidThroughCheckout(t, fake, deliverAll, o, { studentId: o === a ? studentA : studentB, cents, points: 0 });

  const refund = (o: Org, orderId: string, body: object) => t.http.post(`/api/admin/order/${orderId}/refund`).set('token', o.token).send(body);
  const drawer = async (o: Org, orderId: string) => (await t.http.get(`/api/admin/order/${orderId}`).set('token', o.token).expect(200)).body;
  /** The refund the last refund call made, in the drawer's ledger (the newest line). */
  const lastRefund = (body: { refunds: RefundLine[] }) => body.refunds.at(-1)!;

  const deliver = (event: Event) => {
    const { payload, header } = fake.signWebhook(event, SECRET);
    return t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload);
  };
  const handled = (ids: string[]) => () =>
    t.withEm(async (em) => (await em.count(StripeWebhookEvent, { id: { $in: ids }, processedAt: { $ne: null } })) === ids.length);
  /** Delivers each event (signed as Stripe signs) and waits until the queue has handled them all. */
  async function deliverAll(...events: Event[]) {
    for (const event of events) await deliver(event).expect(200);
    await eventually(handled(events.map((e) => e.id)));
    // The refund changes they announce are handled by outbox jobs.
    await t.settle();
  }
  /** Another event of the same refund change, as Stripe sends one change under several types and ids. */
  const another = (event: Event, type: string): Event => ({ ...structuredClone(event), id: `evt_${randomUUID().replace(/-/g, '')}`, type });
  const failedLines = (body: { activity: ActivityLine[] }) => body.activity.filter((l) => l.action === 'refund_failed');

  /** A points-earning order paid through a Checkout Session at the fake (paidThroughCheckout). */
  const paidPointsOrder = (o: Org, studentId: string, cents: number, points: number) => paidThroughCheckout(t, fake, deliverAll, o, { studentId, cents, points });

  beforeAll(async () => {
    fake = await startFakeStripe('sk_test_refund_failures');
    t = await startTestApp({
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: fake.url,
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-refund-failures-${process.pid}`,
      RUN_WORKER: 'true',
    });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Another Studio');
    a = { token: ownerA.token, organizationId: ownerA.organization.id, userId: ownerA.user.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id, userId: ownerB.user.id };
    studentA = await addStudent(t, a.token);
    studentB = await addStudent(t, b.token);
    await saveCard(a);
    await saveCard(b);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('a pending full refund that fails gives its amount back once, with a history line; the order can be refunded again', async () => {
    const paid = await order(a, 3000);
    fake.answerNextRefund('pending');
    const made = await refund(a, paid.id, { reason: 'Class moved' }).expect(200);
    // Pending counts as refunded until Stripe says otherwise.
    expect(made.body).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
    const line = lastRefund(made.body);
    expect(line).toMatchObject({ amount: 3000, status: 'pending', provider_refund_id: expect.stringMatching(/^re_/) });
    // The refund names its studio and order at Stripe.
    expect(fake.refunds.get(line.provider_refund_id)!.metadata).toMatchObject({ organization_id: a.organizationId, order_id: paid.id });

    const failed = fake.updateRefund(line.provider_refund_id, 'failed', { failureReason: 'expired_or_canceled_card' });
    expect(failed.type).toBe('refund.failed');
    await deliverAll(failed);
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'paid', refunded_amount: 0 });
    expect(after.refunds).toEqual([expect.objectContaining({ refund_id: line.refund_id, amount: 3000, status: 'failed' })]);
    expect(failedLines(after)).toEqual([
      expect.objectContaining({ action: 'refund_failed', amount: 3000, detail: 'Refund of $30.00 failed: expired_or_canceled_card', actor: null }),
    ]);
    expect(M.providerReversed(3000, 'expired_or_canceled_card')).toBe('Refund of $30.00 failed: expired_or_canceled_card');

    // The same event again, and the same change under another event (refund.updated, charge.refund.updated): nothing more.
    const again = await deliver(failed).expect(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    await deliverAll(another(failed, 'refund.updated'), another(failed, 'charge.refund.updated'));
    const still = await drawer(a, paid.id);
    expect(still).toMatchObject({ status: 'paid', refunded_amount: 0 });
    expect(failedLines(still)).toHaveLength(1);
    // A late delivery of an older state (succeeded) does not bring a failed refund back.
    await deliverAll(another({ ...failed, data: { object: { ...(failed.data as { object: object }).object, status: 'succeeded' } } } as Event, 'refund.updated'));
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [expect.objectContaining({ status: 'failed' })] });

    // The money never left: it can be refunded again (at Stripe too).
    const retried = await refund(a, paid.id, { reason: 'Class moved' }).expect(200);
    expect(retried.body).toMatchObject({ status: 'refunded', refunded_amount: 3000 });
    expect(retried.body.refunds.map((r: RefundLine) => r.status)).toEqual(['failed', 'succeeded']);
  });

  it('a canceled pending refund of part of an order leaves the other refunds counted (partial_refund)', async () => {
    const paid = await order(a, 4500);
    await refund(a, paid.id, { amount: 1000, reason: 'First' }).expect(200);
    fake.answerNextRefund('requires_action');
    const made = await refund(a, paid.id, { amount: 2000, reason: 'Second' }).expect(200);
    expect(made.body).toMatchObject({ status: 'partial_refund', refunded_amount: 3000 });
    const line = lastRefund(made.body);
    expect(line.status).toBe('requires_action');
    // Older API versions: charge.refund.updated.
    await deliverAll(fake.updateRefund(line.provider_refund_id, 'canceled', { type: 'charge.refund.updated' }));
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 1000 });
    expect(after.refunds.map((r: RefundLine) => [r.amount, r.status])).toEqual([
      [1000, 'succeeded'],
      [2000, 'canceled'],
    ]);
    expect(failedLines(after)).toEqual([expect.objectContaining({ amount: 2000, detail: 'Refund of $20.00 failed: canceled', actor: null })]);
  });

  it('a pending refund that succeeds keeps its amount; a refund that fails after it succeeded gives it back', async () => {
    const paid = await order(a, 2000);
    fake.answerNextRefund('pending');
    const made = await refund(a, paid.id, { amount: 500 }).expect(200);
    const line = lastRefund(made.body);
    await deliverAll(fake.updateRefund(line.provider_refund_id, 'succeeded'));
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 500, refunds: [expect.objectContaining({ amount: 500, status: 'succeeded' })] });
    expect(failedLines(after)).toEqual([]);
    // Stripe: a succeeded refund can still fail (rarely, days later).
    await deliverAll(fake.updateRefund(line.provider_refund_id, 'failed', { failureReason: 'lost_or_stolen_card' }));
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [expect.objectContaining({ status: 'failed' })] });
  });

  it('an unknown refund id answers 2xx, is handled and changes nothing', async () => {
    const paid = await order(a, 2000);
    fake.answerNextRefund('pending');
    const made = await refund(a, paid.id, { amount: 800 }).expect(200);
    const failed = fake.updateRefund(lastRefund(made.body).provider_refund_id, 'failed');
    const before = await drawer(a, paid.id);
    const unknown = structuredClone(failed);
    unknown.id = `evt_${randomUUID().replace(/-/g, '')}`;
    (unknown.data as { object: { id: string } }).object.id = 're_unknown_to_this_studio';
    const res = await deliver(unknown).expect(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
    await eventually(handled([unknown.id]));
    // Also one that names no studio at all, on a payment Stripe does not know.
    const nameless = structuredClone(unknown);
    nameless.id = `evt_${randomUUID().replace(/-/g, '')}`;
    Object.assign((nameless.data as { object: object }).object, { metadata: {}, payment_intent: 'pi_unknown' });
    await deliverAll(nameless);
    expect(await drawer(a, paid.id)).toEqual(before);
    expect(before).toMatchObject({ status: 'partial_refund', refunded_amount: 800 });
  });

  it("a refund.failed that names another studio cannot touch this studio's order", async () => {
    const paid = await order(a, 2500);
    fake.answerNextRefund('pending');
    const made = await refund(a, paid.id, { amount: 2500 }).expect(200);
    const line = lastRefund(made.body);
    const failed = fake.updateRefund(line.provider_refund_id, 'failed');
    // Another studio's organization on the refund (as when its own refund webhook is mis-attributed).
    const theirs = structuredClone(failed);
    theirs.id = `evt_${randomUUID().replace(/-/g, '')}`;
    const object = (theirs.data as { object: { metadata: Record<string, string> } }).object;
    object.metadata = { ...object.metadata, organization_id: b.organizationId };
    await deliverAll(theirs);
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'refunded', refunded_amount: 2500, refunds: [expect.objectContaining({ status: 'pending' })] });
    expect(failedLines(after)).toEqual([]);
    // The other studio cannot see it either.
    await t.http.get(`/api/admin/order/${paid.id}`).set('token', b.token).expect(404);
    // The genuine event still applies.
    await deliverAll(failed);
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'paid', refunded_amount: 0 });
  });

  it('a refund without organization metadata (made before it was set) is attributed by its payment intent', async () => {
    const paid = await order(a, 1500);
    fake.answerNextRefund('pending');
    const line = lastRefund((await refund(a, paid.id, { amount: 1500 }).expect(200)).body);
    const failed = fake.updateRefund(line.provider_refund_id, 'failed', { failureReason: 'insufficient_funds' });
    (failed.data as { object: { metadata: object } }).object.metadata = {};
    await deliverAll(failed);
    expect(await drawer(a, paid.id)).toMatchObject({ status: 'paid', refunded_amount: 0 });
  });

  it('two deliveries at once, and a new refund made meanwhile, count the failed amount back once', async () => {
    const paid = await order(a, 6000);
    fake.answerNextRefund('pending');
    const line = lastRefund((await refund(a, paid.id, { amount: 2000 }).expect(200)).body);
    const failed = fake.updateRefund(line.provider_refund_id, 'failed');
    const events = [failed, another(failed, 'refund.updated'), another(failed, 'charge.refund.updated')];
    const [newRefund] = await Promise.all([refund(a, paid.id, { amount: 1000 }), ...events.map((e) => deliver(e).expect(200))]);
    expect(newRefund.status).toBe(200);
    await eventually(handled(events.map((e) => e.id)));
    await t.settle();
    const after = await drawer(a, paid.id);
    expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 1000 });
    expect(failedLines(after)).toHaveLength(1);
  });

  describe('loyalty points of a refund that then fails', () => {
    type Entry = { balance: number; points: number; reason: string; order_id: string | null };
    const points = async (o: Org, studentId: string) =>
      (await t.settle(), await t.http.get(`/api/admin/student/${studentId}`).set('token', o.token).expect(200)).body.LoyaltyBalance as Entry[];

    it('the points the full refund took back are given back once; refunded again, they are taken back again', async () => {
      await t.http.put('/api/admin/loyalty-program').set('token', a.token).send({ status: 'active' }).expect(200);
      const s = await addStudent(t, a.token);
      await t.http.post(`/api/admin/student/${s}/loyalty-balance/set`).set('token', a.token).send({ amount: 1000 }).expect(200);
      // Paid through Checkout: the kits earn 300 points.
      const paid = await paidPointsOrder(a, s, 5000, 300);
      const beforeRefund = (await points(a, s))[0].balance;
      expect(beforeRefund).toBe(1300);

      fake.answerNextRefund('pending');
      const line = lastRefund((await refund(a, paid.id, { reason: 'Class moved' }).expect(200)).body);
      expect((await points(a, s))[0]).toMatchObject({ balance: 1000, points: -300, reason: 'refund_reversal', order_id: paid.id });

      const failed = fake.updateRefund(line.provider_refund_id, 'failed', { failureReason: 'expired_or_canceled_card' });
      await deliverAll(failed);
      expect(await drawer(a, paid.id)).toMatchObject({ status: 'paid', refunded_amount: 0 });
      const restored = await points(a, s);
      expect(restored[0]).toMatchObject({ balance: beforeRefund, points: 300, reason: 'refund_failed', order_id: paid.id });
      expect(LOYALTY_REASON_LABELS.refund_failed).toBe('Restored after a failed refund');

      // The same event again, and the same change under the other event types: nothing more.
      expect((await deliver(failed).expect(200)).body).toEqual({ received: true, duplicate: true });
      await deliverAll(another(failed, 'refund.updated'), another(failed, 'charge.refund.updated'));
      expect(await points(a, s)).toEqual(restored);

      // Refunded again: the points go again, once.
      await refund(a, paid.id, { reason: 'Class moved' }).expect(200);
      const again = await points(a, s);
      expect(again[0]).toMatchObject({ balance: 1000, points: -300, reason: 'refund_reversal', order_id: paid.id });
      expect(again.filter((e) => e.order_id === paid.id).map((e) => [e.reason, e.points])).toEqual([
        ['refund_reversal', -300],
        ['refund_failed', 300],
        ['refund_reversal', -300],
        ['earned', 300],
      ]);
    });

    it('a failed part of an order refunded in parts gives back the points its full refund took; a failed partial refund gives none', async () => {
      const s = await addStudent(t, a.token);
      const paid = await paidPointsOrder(a, s, 4000, 200);
      fake.answerNextRefund('pending');
      const first = lastRefund((await refund(a, paid.id, { amount: 1000 }).expect(200)).body);
      // A partial refund took nothing, so its failure gives nothing back.
      await deliverAll(fake.updateRefund(first.provider_refund_id, 'failed'));
      expect((await points(a, s))[0]).toMatchObject({ balance: 200, reason: 'earned' });
      await refund(a, paid.id, { amount: 1500 }).expect(200);
      fake.answerNextRefund('pending');
      const last = lastRefund((await refund(a, paid.id, { amount: 2500 }).expect(200)).body);
      expect((await points(a, s))[0]).toMatchObject({ balance: 0, reason: 'refund_reversal' });
      // The refund that completed it fails: partial_refund again, and the points are back.
      await deliverAll(fake.updateRefund(last.provider_refund_id, 'failed'));
      expect(await drawer(a, paid.id)).toMatchObject({ status: 'partial_refund', refunded_amount: 1500 });
      expect((await points(a, s))[0]).toMatchObject({ balance: 200, points: 200, reason: 'refund_failed' });
    });
  });

  describe('Remove student with a refund that then fails', () => {
    it('gives the money figures back and does not enroll the student again', async () => {
      const course = await schedulableCourse(t, a.token, 20);
      const eventId = await scheduleSession(t, a.token, course, { price: 4500, daysFromNow: 40 });
      const s = await addStudent(t, a.token);
      // The seat bought with a payment link paid at the fake.
      const seat = await paidSeatThroughLink(t, fake, deliverAll, a.token, { studentId: s, eventId });
      const orderId = seat.orderId;
      const enrolled = { body: { enrollment_id: seat.enrollmentId } };
      const enrolledIds = async () =>
        (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', a.token).expect(200)).body.enrollments.map((e: { enrollment_id: string }) => e.enrollment_id);

      fake.answerNextRefund('pending');
      await t.http.delete(`/api/admin/enrollment/${enrolled.body.enrollment_id}`).set('token', a.token).send({ refund: { amount: 4500, reason: 'Schedule conflict' } }).expect(204);
      const removed = await drawer(a, orderId);
      expect(removed).toMatchObject({ status: 'refunded', refunded_amount: 4500, refunds: [expect.objectContaining({ status: 'pending' })] });
      const before = await enrolledIds();
      expect(before).not.toContain(enrolled.body.enrollment_id);

      await deliverAll(fake.updateRefund(lastRefund(removed).provider_refund_id, 'failed', { failureReason: 'expired_or_canceled_card' }));
      expect(await drawer(a, orderId)).toMatchObject({ status: 'paid', refunded_amount: 0, refunds: [expect.objectContaining({ status: 'failed' })] });
      expect(await enrolledIds()).toEqual(before);
    });
  });
});
