import Stripe from 'stripe';
import { RequestContext } from '../src/common/request-context';
import { Subscription } from '../src/modules/orders/entities/subscription.entity';
import { OrdersService } from '../src/modules/orders/orders.service';
import { SubscriptionsService } from '../src/modules/orders/subscriptions.service';
import { DemoPaymentsAdapter } from '../src/modules/payments/demo/demo-payments.adapter';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { StripeWebhookEvent } from '../src/modules/payments/stripe/stripe-webhook-event.entity';
import { stripeClient } from '../src/modules/payments/stripe/stripe-payments.adapter';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

const SECRET = 'whsec_subscriptions_e2e';
const UNKNOWN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

async function eventually(check: () => Promise<boolean>, timeoutMs = 30000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('subscriptions through Stripe (the fake)', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let stripe: Stripe;
  let a: Awaited<ReturnType<TestApp['organizationWithUser']>>;
  let b: Awaited<ReturnType<TestApp['organizationWithUser']>>;
  let ctx: RequestContext;

  beforeAll(async () => {
    fake = await startFakeStripe('sk_test_subscriptions');
    t = await startTestApp({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: SECRET, RUN_WORKER: 'true' });
    stripe = stripeClient(fake.secretKey, fake.url);
    a = await t.organizationWithUser('owner');
    b = await t.organizationWithUser('owner');
    ctx = { organizationId: a.organization.id, userId: a.user.id, role: 'owner', sessionId: 'test' };
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const get = (id: string, token = a.token) => t.http.get(`/api/admin/subscription/${id}`).set('token', token);
  const cancel = (id: string, token = a.token) => t.http.delete(`/api/admin/subscription/${id}`).set('token', token);

  /** A monthly membership bought with an order, renewed once (two paid invoices), its webhooks delivered and handled. */
  async function subscribed() {
    const studentId = await addStudent(t, a.token, { first_name: 'Maya', last_name: 'Lin' });
    const order = await t.withEm(() =>
      t.created.app.get(OrdersService).recordOrder(ctx, {
        studentId,
        status: 'paid',
        source: 'workbench',
        lines: [{ kind: 'product', description: 'Open Studio Membership', unitPriceCents: 4500 }],
      }),
    );
    const from = fake.events.length;
    const customer = await stripe.customers.create({ email: 'maya@example.test' });
    const price = await stripe.prices.create({ unit_amount: 4500, currency: 'usd', recurring: { interval: 'month' }, product_data: { name: 'Membership' } });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      metadata: { organization_id: a.organization.id, student_id: studentId, order_id: order.id, plan_name: 'Open Studio Membership' },
    });
    fake.renewSubscription(sub.id);
    const events = fake.events.slice(from);
    for (const event of events) {
      const { payload, header } = fake.signWebhook(event, SECRET);
      await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload).expect(200);
    }
    const ids = events.map((e) => e.id);
    await eventually(() => t.withEm(async (em) => (await em.count(StripeWebhookEvent, { id: { $in: ids }, processedAt: { $ne: null } })) === ids.length));
    const row = await t.withEm((em) => em.findOneOrFail(Subscription, { providerSubscriptionId: sub.id }));
    return { id: row.id, providerId: sub.id, order, studentId };
  }

  it('GET answers spec 001 §3: id, status, created_at, Student, subscription_invoices, with the plan and its audit', async () => {
    const s = await subscribed();
    const res = await get(s.id).expect(200);
    const truth = fake.subscriptions.get(s.providerId)!;
    const periodEnd = (truth.items as { data: { current_period_end: number }[] }).data[0].current_period_end;
    expect(res.body).toEqual({
      subscription_id: s.id,
      status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      current_period_end: new Date(periodEnd * 1000).toISOString(),
      cancelled_at: null,
      order_id: s.order.id,
      provider: 'stripe',
      provider_subscription_id: s.providerId,
      plan: { name: 'Open Studio Membership', product_id: null, amount: 4500, currency: 'usd', interval_unit: 'months', interval_count: 1 },
      Student: { student_id: s.studentId, first_name: 'Maya', last_name: 'Lin', email: expect.any(String), phone: null },
      subscription_invoices: [expect.any(Object), expect.any(Object)],
      activity: [],
    });
    for (const invoice of res.body.subscription_invoices) {
      expect(invoice).toEqual({
        invoice_id: expect.any(String),
        provider_invoice_id: expect.stringMatching(/^in_/),
        amount: 4500,
        currency: 'usd',
        paid_at: expect.any(String),
        receipt_url: fake.invoices.get(invoice.provider_invoice_id)!.hosted_invoice_url,
      });
    }
    // The order drawer lists it.
    const order = await t.http.get(`/api/admin/order/${s.order.id}`).set('token', a.token).expect(200);
    expect(order.body.Subscription).toEqual([{ subscription_id: s.id, status: 'active', created_at: res.body.created_at, plan_name: 'Open Studio Membership' }]);
  });

  it('DELETE cancels now through Stripe, records who did it, and a second cancel is refused', async () => {
    const s = await subscribed();
    const requestsBefore = fake.requests.length;
    const res = await cancel(s.id).expect(200);
    expect(res.body.status).toBe('cancelled');
    expect(Date.parse(res.body.cancelled_at)).toBeGreaterThan(Date.now() - 60_000);
    // Now, not at period end: Stripe's subscription has ended.
    const truth = fake.subscriptions.get(s.providerId)!;
    expect(truth.status).toBe('canceled');
    expect(truth.ended_at).not.toBeNull();
    expect(truth.cancel_at_period_end).toBe(false);
    expect(fake.requests.slice(requestsBefore)).toEqual([expect.objectContaining({ method: 'DELETE', path: `/v1/subscriptions/${s.providerId}` })]);
    expect(res.body.activity).toEqual([
      expect.objectContaining({ action: 'subscription_cancelled', actor: 'Test owner', amount: null, detail: 'Open Studio Membership: cancelled now, no further payments' }),
    ]);

    const again = await cancel(s.id).expect(409);
    expect(again.body).toEqual({ statusCode: 409, message: 'Subscription already cancelled' });
    expect(fake.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    // Stripe's customer.subscription.deleted arriving later changes nothing and records nothing more.
    const deleted = fake.events.filter((e) => e.type === 'customer.subscription.deleted').at(-1)!;
    const { payload, header } = fake.signWebhook(deleted, SECRET);
    await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload).expect(200);
    await eventually(() => t.withEm(async (em) => (await em.count(StripeWebhookEvent, { id: deleted.id, processedAt: { $ne: null } })) === 1));
    const after = await get(s.id).expect(200);
    expect(after.body.activity).toHaveLength(1);
    expect(after.body.status).toBe('cancelled');
  });

  it('three cancels at once cancel once: one answers 200, the others 409 (being cancelled, or already cancelled)', async () => {
    const s = await subscribed();
    const deletesBefore = fake.requests.filter((r) => r.method === 'DELETE').length;
    const answers = await Promise.all([cancel(s.id), cancel(s.id), cancel(s.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(fake.requests.filter((r) => r.method === 'DELETE').length - deletesBefore).toBe(1);
    const audit = await t.withEm((em) => em.getConnection().execute(`select 1 from order_activity where subscription_id = ?`, [s.id]));
    expect(audit).toHaveLength(1);
  });

  it('a cancel waiting on Stripe refuses another (409), and one left by a request that died is taken over later and asks Stripe again', async () => {
    const s = await subscribed();
    // A cancel under way (its intent recorded, Stripe not answered yet): another one is refused, nothing asked.
    const intent = (at: Date) =>
      t.withEm((em) => em.nativeUpdate(Subscription, { id: s.id }, { cancelRequestedAt: at, cancelRequestedBy: a.user.id }));
    await intent(new Date());
    const deletesBefore = fake.requests.filter((r) => r.method === 'DELETE').length;
    expect((await cancel(s.id).expect(409)).body).toEqual({ statusCode: 409, message: 'Subscription is being cancelled' });
    expect(fake.requests.filter((r) => r.method === 'DELETE').length).toBe(deletesBefore);
    expect((await get(s.id).expect(200)).body.status).toBe('active');
    // The request died (its intent is older than any call to Stripe lasts): a new cancel goes through once.
    await intent(new Date(Date.now() - 10 * 60_000));
    const res = await cancel(s.id).expect(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.activity).toEqual([expect.objectContaining({ action: 'subscription_cancelled', actor: 'Test owner' })]);
    expect(fake.requests.filter((r) => r.method === 'DELETE').length - deletesBefore).toBe(1);
    const row = await t.withEm((em) => em.findOneOrFail(Subscription, { id: s.id }, { refresh: true }));
    expect([row.cancelRequestedAt, row.cancelRequestedBy]).toEqual([null, null]);
  });

  it("Stripe's announcement of an admin's cancel whose answer was never recorded names that admin, once", async () => {
    const s = await subscribed();
    // The admin's cancel reached Stripe, then its process died before recording the answer.
    await t.withEm((em) => em.nativeUpdate(Subscription, { id: s.id }, { cancelRequestedAt: new Date(), cancelRequestedBy: a.user.id }));
    const from = fake.events.length;
    await stripe.subscriptions.cancel(s.providerId);
    const deleted = fake.events.slice(from).find((e) => e.type === 'customer.subscription.deleted')!;
    const { payload, header } = fake.signWebhook(deleted, SECRET);
    await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload).expect(200);
    await eventually(() => t.withEm(async (em) => (await em.count(StripeWebhookEvent, { id: deleted.id, processedAt: { $ne: null } })) === 1));
    const after = await get(s.id).expect(200);
    expect(after.body.status).toBe('cancelled');
    expect(after.body.activity).toEqual([
      expect.objectContaining({ action: 'subscription_cancelled', actor: 'Test owner', detail: 'Open Studio Membership: cancelled now, no further payments' }),
    ]);
    expect((await cancel(s.id).expect(409)).body.message).toBe('Subscription already cancelled');
  });

  it('an expired subscription cannot be cancelled', async () => {
    const s = await subscribed();
    await t.withEm((em) => em.nativeUpdate(Subscription, { id: s.id }, { status: 'expired' }));
    const res = await cancel(s.id).expect(409);
    expect(res.body.message).toBe('Subscription already cancelled');
    expect(fake.subscriptions.get(s.providerId)!.status).toBe('active');
  });

  it('one Stripe already ended is marked cancelled from what Stripe says', async () => {
    const s = await subscribed();
    await stripe.subscriptions.cancel(s.providerId);
    const res = await cancel(s.id).expect(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.cancelled_at).toBe(new Date((fake.subscriptions.get(s.providerId)!.canceled_at as number) * 1000).toISOString());
  });

  it("another organization's subscription, or an unknown id, answers 404 and cancels nothing", async () => {
    const s = await subscribed();
    for (const res of [await get(s.id, b.token), await cancel(s.id, b.token), await get(UNKNOWN), await cancel(UNKNOWN)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Subscription not found' });
    }
    expect(fake.subscriptions.get(s.providerId)!.status).toBe('active');
    await t.http.get('/api/admin/subscription/not-an-id').set('token', a.token).expect(404);
    await t.http.delete(`/api/admin/subscription/${s.id}`).expect(401);
  });
});

describe('subscriptions on the built-in demo provider', () => {
  let t: TestApp;
  let a: Awaited<ReturnType<TestApp['organizationWithUser']>>;
  let ctx: RequestContext;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_APP_URL: 'http://studio.test' });
    a = await t.organizationWithUser('owner');
    ctx = { organizationId: a.organization.id, userId: a.user.id, role: 'owner', sessionId: 'test' };
  });
  afterAll(() => t.close());

  it('cancels in the demo ledger, now, and refuses a second cancel', async () => {
    const demo = t.created.app.get(PaymentsPort);
    expect(demo).toBeInstanceOf(DemoPaymentsAdapter);
    const ledger = demo as DemoPaymentsAdapter;
    const studentId = await addStudent(t, a.token);
    const providerId = await ledger.openSubscription(ctx.organizationId, 2500);
    const sub = await t.withEm(() =>
      t.created.app.get(SubscriptionsService).open(ctx, {
        studentId,
        planName: 'Glaze club',
        amountCents: 2500,
        intervalUnit: 'weeks',
        intervalCount: 2,
        provider: 'demo',
        providerSubscriptionId: providerId,
        currentPeriodEnd: new Date(Date.now() + 14 * 86400_000),
      }),
    );
    const before = await t.http.get(`/api/admin/subscription/${sub.id}`).set('token', a.token).expect(200);
    expect(before.body).toMatchObject({ status: 'active', provider: 'demo', plan: { name: 'Glaze club', amount: 2500, interval_unit: 'weeks', interval_count: 2 } });

    const res = await t.http.delete(`/api/admin/subscription/${sub.id}`).set('token', a.token).expect(200);
    expect(res.body.status).toBe('cancelled');
    expect((await ledger.findSubscription(providerId))?.status).toBe('canceled');
    expect(res.body.activity).toEqual([expect.objectContaining({ action: 'subscription_cancelled', actor: 'Test owner' })]);
    const again = await t.http.delete(`/api/admin/subscription/${sub.id}`).set('token', a.token).expect(409);
    expect(again.body.message).toBe('Subscription already cancelled');
  });

  it('a cancel the provider refuses answers 502 and leaves the subscription active, to be cancelled again at once', async () => {
    const ledger = t.created.app.get(PaymentsPort) as DemoPaymentsAdapter;
    const studentId = await addStudent(t, a.token);
    const sub = await t.withEm(() =>
      t.created.app.get(SubscriptionsService).open(ctx, {
        studentId,
        planName: 'Kiln club',
        amountCents: 1500,
        intervalUnit: 'months',
        intervalCount: 1,
        provider: 'demo',
        providerSubscriptionId: 'dsub_unknown_to_the_ledger',
        currentPeriodEnd: new Date(Date.now() + 30 * 86400_000),
      }),
    );
    const refused = await t.http.delete(`/api/admin/subscription/${sub.id}`).set('token', a.token).expect(502);
    expect(refused.body.message).toBe('Failed to cancel subscription: the payment provider does not know it');
    const still = await t.http.get(`/api/admin/subscription/${sub.id}`).set('token', a.token).expect(200);
    expect(still.body).toMatchObject({ status: 'active', cancelled_at: null, activity: [] });
    // The ledger knows it now: the next cancel goes through, no "being cancelled" left behind.
    const providerId = await ledger.openSubscription(ctx.organizationId, 1500);
    await t.withEm((em) => em.nativeUpdate(Subscription, { id: sub.id }, { providerSubscriptionId: providerId }));
    const res = await t.http.delete(`/api/admin/subscription/${sub.id}`).set('token', a.token).expect(200);
    expect(res.body.status).toBe('cancelled');
    expect((await ledger.findSubscription(providerId))?.status).toBe('canceled');
  });

  it('the Stripe webhook route says it is not configured, with a 404, not a 5xx', async () => {
    const res = await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', 't=1,v1=00').send({ id: 'evt_1' }).expect(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET is not set)' });
  });
});

describe('demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SEED_DEMO: 'true', PUBLIC_APP_URL: 'http://studio.test' });
  });
  afterAll(() => t.close());

  it('the demo studio has an active subscription with three paid invoices, bought with an order, and a cancelled one', async () => {
    const token = await t.login(t.config.DEMO_EMAIL, t.config.DEMO_PASSWORD);
    const ids = await t.withEm(async (em) => (await em.find(Subscription, {}, { orderBy: { createdAt: 'asc' } })).map((s) => s.id));
    expect(ids).toHaveLength(2);
    const [active, cancelled] = await Promise.all(ids.map(async (id) => (await t.http.get(`/api/admin/subscription/${id}`).set('token', token).expect(200)).body));
    expect(active).toMatchObject({ status: 'active', provider: 'demo', plan: { name: 'Open Studio Membership', interval_unit: 'months' } });
    expect(active.subscription_invoices).toHaveLength(3);
    const order = await t.http.get(`/api/admin/order/${active.order_id}`).set('token', token).expect(200);
    expect(order.body.Subscription).toEqual([expect.objectContaining({ subscription_id: active.subscription_id, status: 'active' })]);
    expect(cancelled).toMatchObject({ status: 'cancelled', activity: [expect.objectContaining({ action: 'subscription_cancelled', actor: 'Dana Owner' })] });
    // Cancelling the active one works on the demo provider, as a newcomer would click it.
    await t.http.delete(`/api/admin/subscription/${active.subscription_id}`).set('token', token).expect(200);
  });
});
