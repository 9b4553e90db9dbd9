import Stripe from 'stripe';
import { RequestContext } from '../src/common/request-context';
import { SubscriptionInvoice } from '../src/modules/orders/entities/subscription-invoice.entity';
import { Subscription } from '../src/modules/orders/entities/subscription.entity';
import { OrdersService } from '../src/modules/orders/orders.service';
import { PaymentEvent } from '../src/modules/payments/payment-events';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { StripeWebhookEvent } from '../src/modules/payments/stripe/stripe-webhook-event.entity';
import { stripeClient } from '../src/modules/payments/stripe/stripe-payments.adapter';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { addStudent } from './support/scheduling-fixtures';
import { OutboxService } from '../src/outbox/outbox.service';
import { startTestApp, TestApp } from './test-app';

const SECRET = 'whsec_webhooks_e2e';

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 30000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A seeded shuffle (mulberry32), so a failing order can be replayed from the seed in the test name. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('POST /api/webhooks/stripe', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let stripe: Stripe;
  let ctx: RequestContext;
  let token: string;
  /** What the webhooks announced (PaymentEvents), read from the outbox. */
  const emitted = async (): Promise<PaymentEvent[]> => {
    const outbox = t.created.app.get(OutboxService);
    return [
      ...(await outbox.announced<PaymentEvent>('payment.succeeded')),
      ...(await outbox.announced<PaymentEvent>('checkout.expired')),
    ];
  };

  beforeAll(async () => {
    fake = await startFakeStripe('sk_test_webhooks');
    t = await startTestApp({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_BASE: fake.url, STRIPE_WEBHOOK_SECRET: SECRET, RUN_WORKER: 'true' });
    stripe = stripeClient(fake.secretKey, fake.url);
    const a = await t.organizationWithUser();
    token = a.token;
    ctx = { organizationId: a.organization.id, userId: a.user.id, role: 'owner', sessionId: 'test' };
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const deliver = (event: Stripe.Event | Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) => {
    const { payload, header } = fake.signWebhook(event as never, options.secret ?? SECRET, options.timestamp);
    return t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(payload);
  };
  const stored = (id: string) => t.withEm((em) => em.count(StripeWebhookEvent, { id }));
  const allHandled = (ids: string[]) => () => t.withEm(async (em) => (await em.count(StripeWebhookEvent, { id: { $in: ids }, processedAt: { $ne: null } })) === ids.length);

  /** An order paid through Checkout, then a monthly subscription bought with it: renewed twice (3 paid invoices), then cancelled. */
  async function scenario() {
    const from = fake.events.length;
    const studentId = await addStudent(t, token);
    const order = await t.withEm(() =>
      t.created.app.get(OrdersService).recordOrder(ctx, {
        studentId,
        status: 'pending',
        source: 'workbench',
        lines: [{ kind: 'product', description: 'Open Studio Membership', unitPriceCents: 4500 }],
      }),
    );
    const checkout = await t.created.app.get(PaymentsPort).createCheckout({
      organizationId: ctx.organizationId,
      orderId: order.id,
      lines: [{ name: 'Open Studio Membership', unitAmountCents: 4500, quantity: 1 }],
      customerEmail: 'member@example.test',
      successUrl: 'http://studio.test/ok',
      cancelUrl: 'http://studio.test/cancel',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    fake.completeCheckout(checkout.sessionId);
    const customer = await stripe.customers.create({ email: 'member@example.test' });
    const price = await stripe.prices.create({ unit_amount: 4500, currency: 'usd', recurring: { interval: 'month' }, product_data: { name: 'Open Studio Membership' } });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      metadata: { organization_id: ctx.organizationId, student_id: studentId, order_id: order.id, plan_name: 'Open Studio Membership' },
    });
    fake.renewSubscription(sub.id);
    fake.renewSubscription(sub.id);
    await stripe.subscriptions.cancel(sub.id);
    const events = fake.events.slice(from) as unknown as Stripe.Event[];
    return { order, sub, sessionId: checkout.sessionId, events };
  }

  /** What the studio's books say about a scenario, with its own ids replaced by what the fake says they should be. */
  async function outcome(s: Awaited<ReturnType<typeof scenario>>) {
    const truth = fake.subscriptions.get(s.sub.id)!;
    const item = (truth.items as { data: { current_period_end: number }[] }).data[0];
    return t.withEm(async (em) => {
      const rows = await em.find(Subscription, { providerSubscriptionId: s.sub.id });
      const invoices = await em.find(SubscriptionInvoice, { providerSubscriptionId: s.sub.id }, { orderBy: { paidAt: 'asc' } });
      const audit = await em.getConnection().execute<{ action: string; actor_user_id: string | null }[]>(
        `select action, actor_user_id from order_activity where subscription_id = ?`,
        [rows[0]?.id ?? '00000000-0000-0000-0000-000000000000'],
      );
      const sub = rows[0];
      return {
        rows: rows.length,
        status: sub?.status,
        orderIsTheOrder: sub?.orderId === s.order.id,
        planName: sub?.planName,
        amount: sub?.amountCents,
        interval: `${sub?.intervalCount} ${sub?.intervalUnit}`,
        periodEndIsStripes: sub?.currentPeriodEnd?.getTime() === item.current_period_end * 1000,
        cancelledAtIsStripes: sub?.cancelledAt?.getTime() === (truth.canceled_at as number) * 1000,
        invoices: invoices.map((i) => ({ amount: i.amountCents, known: fake.invoices.has(i.providerInvoiceId), url: i.hostedInvoiceUrl?.startsWith(fake.url) })),
        audit: audit.map((a) => `${a.action} by ${a.actor_user_id ?? 'the provider'}`),
        paid: (await emitted()).filter((e) => e.type === 'payment.succeeded' && e.sessionId === s.sessionId).length,
        stored: await em.count(StripeWebhookEvent, { id: { $in: s.events.map((e) => e.id) } }),
      };
    });
  }

  let inOrder: Awaited<ReturnType<typeof outcome>>;

  it('one in-order delivery of a realistic sequence makes the subscription, its billing history and the paid order', async () => {
    const s = await scenario();
    expect(s.events.map((e) => e.type)).toEqual([
      'payment_intent.succeeded',
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
      'invoice.paid',
      'customer.subscription.updated',
      'invoice.paid',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    for (const event of s.events) {
      const res = await deliver(event).expect(200);
      expect(res.body).toEqual({ received: true, duplicate: false });
    }
    await eventually(allHandled(s.events.map((e) => e.id)));
    inOrder = await outcome(s);
    expect(inOrder).toEqual({
      rows: 1,
      status: 'cancelled',
      orderIsTheOrder: true,
      planName: 'Open Studio Membership',
      amount: 4500,
      interval: '1 months',
      periodEndIsStripes: true,
      cancelledAtIsStripes: true,
      invoices: [1, 2, 3].map(() => ({ amount: 4500, known: true, url: true })),
      audit: ['subscription_cancelled by the provider'],
      paid: 1,
      stored: s.events.length,
    });
    // checkout.session.completed is translated for the orders module: the order and the studio it belongs to.
    const paid = (await emitted()).find((e) => e.type === 'payment.succeeded' && e.sessionId === s.sessionId);
    expect(paid).toMatchObject({ provider: 'stripe', orderId: s.order.id, organizationId: ctx.organizationId, amountCents: 4500 });
    expect(paid && 'paymentIntentId' in paid && paid.paymentIntentId).toMatch(/^pi_/);
  });

  it.each([1, 7, 42])('each event delivered 3 times, shuffled (seed %i), ends in the same state as one in-order delivery', async (seed) => {
    const s = await scenario();
    const deliveries = shuffled([...s.events, ...s.events, ...s.events], seed);
    const answers: boolean[] = [];
    // Four at a time, as Stripe retries overlap.
    for (let i = 0; i < deliveries.length; i += 4) {
      const batch = await Promise.all(deliveries.slice(i, i + 4).map((e) => deliver(e).expect(200)));
      answers.push(...batch.map((r) => r.body.duplicate as boolean));
    }
    expect(answers.filter((duplicate) => !duplicate)).toHaveLength(s.events.length);
    await eventually(allHandled(s.events.map((e) => e.id)));
    expect(await outcome(s)).toEqual(inOrder);
  });

  it('a signature 301 seconds old is refused and nothing is stored; 300 seconds old is accepted', async () => {
    const customer = await stripe.customers.create({});
    const price = await stripe.prices.create({ unit_amount: 900, currency: 'usd', recurring: { interval: 'week' }, product_data: { name: 'Weekly' } });
    await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], metadata: { organization_id: ctx.organizationId } });
    const [late, onTime] = fake.events.slice(-2);
    // The app's clock moved to the start of a second, so the age cannot tick over while the request travels.
    t.clock.advance(1000 - (t.clock.nowMs() % 1000) + 5);
    const nowSeconds = Math.floor(t.clock.nowMs() / 1000);
    const refused = await deliver(late, { timestamp: nowSeconds - 301 }).expect(400);
    expect(refused.body).toEqual({ statusCode: 400, message: 'Invalid Stripe signature' });
    expect(await stored(late.id)).toBe(0);
    await deliver(onTime, { timestamp: nowSeconds - 300 }).expect(200);
    expect(await stored(onTime.id)).toBe(1);
  });

  it('a bad signature, a tampered body or no signature is a 400 and stores nothing', async () => {
    const customer = await stripe.customers.create({});
    const price = await stripe.prices.create({ unit_amount: 900, currency: 'usd', recurring: { interval: 'year' }, product_data: { name: 'Yearly' } });
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], metadata: { organization_id: ctx.organizationId } });
    const event = fake.events.find((e) => e.type === 'customer.subscription.created' && (e.data as { object: { id: string } }).object.id === sub.id)!;

    const wrongSecret = await deliver(event, { secret: 'whsec_someone_else' }).expect(400);
    expect(wrongSecret.body.message).toBe('Invalid Stripe signature');

    const { payload, header } = fake.signWebhook(event, SECRET);
    const tampered = payload.replace(ctx.organizationId, '00000000-0000-4000-8000-000000000000');
    await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', header).set('Content-Type', 'application/json').send(tampered).expect(400);

    const unsigned = await t.http.post('/api/webhooks/stripe').set('Content-Type', 'application/json').send(payload).expect(400);
    expect(unsigned.body.message).toBe('Missing Stripe-Signature header');
    // A correctly signed body that is not an event.
    const notAnEvent = fake.signWebhook({ id: 'x' } as never, SECRET);
    await t.http.post('/api/webhooks/stripe').set('Stripe-Signature', notAnEvent.header).set('Content-Type', 'text/plain').send(notAnEvent.payload).expect(400);
    expect(await stored(event.id)).toBe(0);
    expect(await t.withEm((em) => em.count(Subscription, { providerSubscriptionId: sub.id }))).toBe(0);
  });

  it('an expired Checkout Session is announced as checkout.expired for its order', async () => {
    const orderId = '4b1d3c0e-1111-4222-8333-944455556666';
    const checkout = await t.created.app.get(PaymentsPort).createCheckout({
      organizationId: ctx.organizationId,
      orderId,
      lines: [{ name: 'Seat', unitAmountCents: 1000, quantity: 1 }],
      customerEmail: 'late@example.test',
      successUrl: 'http://studio.test/ok',
      cancelUrl: 'http://studio.test/cancel',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    fake.expireCheckout(checkout.sessionId);
    const event = fake.events.at(-1)!;
    expect(event.type).toBe('checkout.session.expired');
    await deliver(event).expect(200);
    await deliver(event).expect(200);
    await eventually(allHandled([event.id]));
    const expired = (await emitted()).filter((e) => e.type === 'checkout.expired' && e.sessionId === checkout.sessionId);
    expect(expired).toEqual([{ type: 'checkout.expired', provider: 'stripe', sessionId: checkout.sessionId, orderId, organizationId: ctx.organizationId }]);
  });

  it('a card saved through Checkout in setup mode is handled and listed', async () => {
    const port = t.created.app.get(PaymentsPort);
    const { url } = await port.createSetup({ organizationId: ctx.organizationId, successUrl: 'http://studio.test/ok', cancelUrl: 'http://studio.test/cancel' });
    const from = fake.events.length;
    fake.completeCheckout(new URL(url).pathname.split('/').pop()!);
    const events = fake.events.slice(from);
    expect(events.map((e) => e.type)).toEqual(['setup_intent.succeeded', 'checkout.session.completed']);
    for (const event of events) await deliver(event).expect(200);
    await eventually(allHandled(events.map((e) => e.id)));
    const methods = await port.listPaymentMethods(ctx.organizationId);
    expect(methods).toHaveLength(1);
  });
});
