import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config/config.schema';
import { DemoCheckoutSession, DemoPayment, DemoRefund } from '../src/modules/payments/demo/demo-ledger.entities';
import { PaymentEvent } from '../src/modules/payments/payment-events';
import { OverRefundError, PaymentNotFoundError, PaymentsPort } from '../src/modules/payments/payments.port';
import { FakeStripe, startFakeStripe } from './support/fake-stripe';
import { OutboxService } from '../src/outbox/outbox.service';
import { startTestApp, TestApp } from './test-app';

/** What differs between the adapters: how the payer acts on the provider's page, and how a link runs out. */
interface Harness {
  t: TestApp;
  port: PaymentsPort;
  /** The payer pays on the checkout page. */
  pay(sessionId: string, url: string): Promise<void>;
  /** The studio saves a card on the setup page. */
  saveCard(url: string): Promise<void>;
  expire(sessionId: string): Promise<void>;
  /** How many refunds the provider has recorded. */
  refundCount(): Promise<number>;
  close(): Promise<void>;
}

const LINES = [
  { name: 'Wheel throwing, Sat 10 am', unitAmountCents: 1200, quantity: 1 },
  { name: 'Clay bag', unitAmountCents: 150, quantity: 2 },
];
const TOTAL = 1500;

async function demoHarness(): Promise<Harness> {
  const t = await startTestApp({ PUBLIC_APP_URL: 'http://studio.test' });
  const path = (url: string) => new URL(url).pathname;
  return {
    t,
    port: t.created.app.get(PaymentsPort),
    pay: async (_id, url) => void (await t.http.post(`${path(url)}/pay`).type('form').send('').expect(200)),
    saveCard: async (url) => void (await t.http.post(`${path(url)}/pay`).type('form').send('').expect(200)),
    expire: (id) => t.withEm(async (em) => void (await em.nativeUpdate(DemoCheckoutSession, { id }, { expiresAt: new Date(Date.now() - 1000) }))),
    refundCount: () => t.withEm((em) => em.count(DemoRefund, {})),
    close: () => t.close(),
  };
}

let fake: FakeStripe | undefined;
async function stripeHarness(): Promise<Harness> {
  fake = await startFakeStripe('sk_test_studio');
  const stripe = fake;
  const t = await startTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: 'whsec_test', STRIPE_API_BASE: stripe.url });
  return {
    t,
    port: t.created.app.get(PaymentsPort),
    pay: async (id) => void stripe.completeCheckout(id),
    saveCard: async (url) => void stripe.completeCheckout(new URL(url).pathname.split('/').pop()!),
    expire: async (id) => void stripe.expireCheckout(id),
    refundCount: async () => stripe.refunds.size,
    close: async () => {
      await t.close();
      await stripe.close();
    },
  };
}

describe.each([
  ['demo provider', demoHarness],
  ['Stripe adapter against the fake', stripeHarness],
])('PaymentsPort: %s', (name, start) => {
  let h: Harness;
  let organizationId: string;

  beforeAll(async () => {
    h = await start();
    organizationId = (await h.t.organizationWithUser()).organization.id;
  });
  afterAll(() => h.close());

  const checkout = (orderId = randomUUID()) =>
    h.port.createCheckout({
      organizationId,
      orderId,
      lines: LINES,
      customerEmail: 'ana@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt: new Date(Date.now() + 24 * 3600_000 - 60_000),
    });

  it('creates a checkout that is open and unpaid', async () => {
    const orderId = randomUUID();
    const created = await checkout(orderId);
    expect(created.url).toMatch(/^https?:\/\//);
    expect(await h.port.retrieveCheckout(created.sessionId)).toEqual({
      sessionId: created.sessionId,
      status: 'open',
      paymentIntentId: null,
      amountTotalCents: TOTAL,
      orderId,
      subscriptionId: null,
    });
  });

  it('makes one page per order and expiry: asked again (a resumed checkout) it answers the same page', async () => {
    const orderId = randomUUID();
    const expiresAt = new Date(Date.now() + 24 * 3600_000 - 60_000);
    const input = { organizationId, orderId, lines: LINES, customerEmail: 'ana@example.test', successUrl: 'http://studio.test/paid', cancelUrl: 'http://studio.test/cancelled', expiresAt };
    const first = await h.port.createCheckout(input);
    expect(await h.port.createCheckout(input)).toEqual(first);
  });

  it('closes an open page (expireCheckout): expired from then on; a paid page answers paid; an unknown one is not found', async () => {
    const open = await checkout();
    expect(await h.port.expireCheckout(open.sessionId)).toBe('expired');
    expect((await h.port.retrieveCheckout(open.sessionId)).status).toBe('expired');
    expect(await h.port.expireCheckout(open.sessionId)).toBe('expired');
    const paid = await checkout();
    await h.pay(paid.sessionId, paid.url);
    expect(await h.port.expireCheckout(paid.sessionId)).toBe('paid');
    expect((await h.port.retrieveCheckout(paid.sessionId)).status).toBe('paid');
    await expect(h.port.expireCheckout(`${name.startsWith('demo') ? 'dcs' : 'cs_test'}_${'0'.repeat(32)}`)).rejects.toBeInstanceOf(PaymentNotFoundError);
  });

  it('takes the payment, gives a receipt, refunds part, refuses an over-refund and a repeated key', async () => {
    const created = await checkout();
    await h.pay(created.sessionId, created.url);
    const paid = await h.port.retrieveCheckout(created.sessionId);
    expect(paid.status).toBe('paid');
    expect(paid.paymentIntentId).toEqual(expect.any(String));
    const intent = paid.paymentIntentId!;

    const receipt = await h.port.receiptUrl(intent);
    expect(receipt).toMatch(/^https?:\/\//);

    const before = await h.refundCount();
    const key = randomUUID();
    const first = await h.port.refund({ paymentIntentId: intent, amountCents: 300, idempotencyKey: key, reason: 'Class moved' });
    expect(first).toEqual({ refundId: expect.any(String), status: 'succeeded', amountCents: 300 });
    // The same action retried (a double click, a network retry): the same refund, no second one.
    const again = await h.port.refund({ paymentIntentId: intent, amountCents: 300, idempotencyKey: key, reason: 'Class moved' });
    expect(again.refundId).toBe(first.refundId);
    expect(await h.refundCount()).toBe(before + 1);

    // 1,200 is left: 1,300 is refused and changes nothing.
    await expect(h.port.refund({ paymentIntentId: intent, amountCents: 1300, idempotencyKey: randomUUID() })).rejects.toThrow(OverRefundError);
    await expect(h.port.refund({ paymentIntentId: intent, amountCents: 1300, idempotencyKey: randomUUID() })).rejects.toThrow(
      /Refund amount \(\$13\.00\) is greater than unrefunded amount on (charge|payment) \(\$12\.00\)/,
    );
    expect(await h.refundCount()).toBe(before + 1);

    await h.port.refund({ paymentIntentId: intent, amountCents: 1200, idempotencyKey: randomUUID() });
    await expect(h.port.refund({ paymentIntentId: intent, amountCents: 1, idempotencyKey: randomUUID() })).rejects.toThrow(/has already been refunded/);
    expect(await h.refundCount()).toBe(before + 2);
  });

  it('says a link that ran out is expired, and never pays it', async () => {
    const created = await checkout();
    await h.expire(created.sessionId);
    expect((await h.port.retrieveCheckout(created.sessionId)).status).toBe('expired');
  });

  it('answers PaymentNotFoundError for a payment or session it does not know', async () => {
    const unknownIntent = name.startsWith('demo') ? 'dpi_00000000000000000000000000000000' : 'pi_unknown';
    await expect(h.port.refund({ paymentIntentId: unknownIntent, amountCents: 100, idempotencyKey: randomUUID() })).rejects.toThrow(PaymentNotFoundError);
    await expect(h.port.retrieveCheckout(name.startsWith('demo') ? 'dcs_00000000000000000000000000000000' : 'cs_test_unknown')).rejects.toThrow(PaymentNotFoundError);
  });

  it('lists no payment method until the studio saves one, then that card', async () => {
    const other = (await h.t.organizationWithUser()).organization.id;
    expect(await h.port.listPaymentMethods(organizationId)).toEqual([]);
    const { url } = await h.port.createSetup({ organizationId, successUrl: 'http://studio.test/billing', cancelUrl: 'http://studio.test/billing' });
    await h.saveCard(url);
    expect(await h.port.listPaymentMethods(organizationId)).toEqual([
      { id: expect.any(String), brand: 'visa', last4: '4242', expMonth: expect.any(Number), expYear: expect.any(Number) },
    ]);
    // Another studio's cards are its own.
    expect(await h.port.listPaymentMethods(other)).toEqual([]);
  });
});

describe('demo provider pages and events', () => {
  let t: TestApp;
  let port: PaymentsPort;
  let organizationId: string;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_APP_URL: 'http://studio.test' });
    port = t.created.app.get(PaymentsPort);
    organizationId = (await t.organizationWithUser()).organization.id;
  });
  afterAll(() => t.close());
  /** What the demo provider announced (PaymentEvents), read from the outbox. */
  const seen = async (): Promise<PaymentEvent[]> => {
    const outbox = t.created.app.get(OutboxService);
    const all = await Promise.all((['payment.succeeded', 'checkout.cancelled', 'checkout.expired'] as const).map((type) => outbox.announced<PaymentEvent>(type)));
    return all.flat();
  };

  const checkout = (orderId: string, lines = LINES) =>
    port.createCheckout({
      organizationId,
      orderId,
      lines,
      customerEmail: 'ana@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt: new Date(Date.now() + 3600_000),
    });

  it('serves the payment link as a plain page labelled as a demo, with Pay and Cancel and no script', async () => {
    const { url } = await checkout(randomUUID());
    expect(url).toMatch(/^http:\/\/studio\.test\/api\/pay\/demo\/dcs_[a-f0-9]{32}$/);
    const path = new URL(url).pathname;
    const res = await t.http.get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('Demo payment, no card is charged');
    expect(res.text).toMatch(new RegExp(`<form method="post" action="${path}/pay"><button[^>]*>Pay</button>`));
    expect(res.text).toMatch(new RegExp(`<form method="post" action="${path}/cancel"><button[^>]*>Cancel</button>`));
    expect(res.text).toContain('$15.00');
    expect(res.text).not.toMatch(/<script|onclick=|javascript:/i);
    // The app's CSP still applies: no inline script, forms post only to this origin.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$| )/);
    expect(csp).toContain("script-src-attr 'none'");
    expect(csp).toContain("form-action 'self'");
    // The store's checkout in the overlay (issue 21) goes to this page inside its iframe: any site
    // may frame it.
    expect(csp).toContain('frame-ancestors *');
    expect(res.headers['x-frame-options']).toBeUndefined();
  });

  it('shows line names as text, never as markup', async () => {
    const { url } = await checkout(randomUUID(), [{ name: '<img src=x onerror=alert(1)>', unitAmountCents: 500, quantity: 1 }]);
    const res = await t.http.get(new URL(url).pathname).expect(200);
    expect(res.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(res.text).not.toContain('<img');
  });

  it('Pay records the payment once, announces it, and sends the payer to the success page and a receipt', async () => {
    const orderId = randomUUID();
    const { url, sessionId } = await checkout(orderId);
    const path = new URL(url).pathname;
    const paid = await t.http.post(`${path}/pay`).type('form').send('').expect(200);
    expect(paid.text).toContain('This payment is complete.');
    expect(paid.text).toContain('<a href="http://studio.test/paid">Continue</a>');
    // A second click (back button, double submit) shows the same outcome and pays nothing more.
    const second = await t.http.post(`${path}/pay`).type('form').send('').expect(200);
    expect(second.text).toContain('This payment is complete.');
    expect(await t.withEm((em) => em.count(DemoPayment, { sessionId }))).toBe(1);

    const state = await port.retrieveCheckout(sessionId);
    expect(state.status).toBe('paid');
    const succeeded = (await seen()).filter((e) => e.type === 'payment.succeeded' && e.sessionId === sessionId);
    expect(succeeded).toEqual([
      { type: 'payment.succeeded', provider: 'demo', sessionId, orderId, organizationId, paymentIntentId: state.paymentIntentId, amountCents: TOTAL },
    ]);

    const page = await t.http.get(path).expect(200);
    expect(page.text).toContain('This payment is complete.');
    expect(page.text).not.toContain('>Pay</button>');

    const receiptUrl = await port.receiptUrl(state.paymentIntentId!);
    expect(receiptUrl).toBe(`http://studio.test/api/pay/demo/receipt/${state.paymentIntentId}`);
    await port.refund({ paymentIntentId: state.paymentIntentId!, amountCents: 250, idempotencyKey: randomUUID() });
    const receipt = await t.http.get(new URL(receiptUrl!).pathname).expect(200);
    expect(receipt.text).toContain('Demo payment, no card is charged');
    expect(receipt.text).toContain('Wheel throwing, Sat 10 am');
    expect(receipt.text).toContain('$15.00');
    expect(receipt.text).toContain('−$2.50');
  });

  it('Cancel marks the link cancelled, announces it, and Pay afterwards takes nothing', async () => {
    const orderId = randomUUID();
    const { url, sessionId } = await checkout(orderId);
    const path = new URL(url).pathname;
    const res = await t.http.post(`${path}/cancel`).type('form').send('').expect(200);
    expect(res.text).toContain('This payment was cancelled.');
    expect(res.text).toContain('<a href="http://studio.test/cancelled">Continue</a>');
    expect((await t.http.post(`${path}/pay`).type('form').send('').expect(200)).text).toContain('This payment was cancelled.');
    expect(await port.retrieveCheckout(sessionId)).toMatchObject({ status: 'cancelled', paymentIntentId: null });
    expect((await seen()).filter((e) => 'sessionId' in e && e.sessionId === sessionId).map((e) => e.type)).toEqual(['checkout.cancelled']);
    expect((await t.http.get(path).expect(200)).text).toContain('This payment was cancelled.');
  });

  it('an expired link says so, is announced once, and cannot be paid', async () => {
    const orderId = randomUUID();
    const { url, sessionId } = await checkout(orderId);
    await t.withEm((em) => em.nativeUpdate(DemoCheckoutSession, { id: sessionId }, { expiresAt: new Date(Date.now() - 1000) }));
    const path = new URL(url).pathname;
    expect((await t.http.get(path).expect(200)).text).toContain('This payment link has expired.');
    await t.http.post(`${path}/pay`).type('form').send('').expect(200);
    expect(await port.retrieveCheckout(sessionId)).toMatchObject({ status: 'expired', paymentIntentId: null });
    expect((await seen()).filter((e) => 'sessionId' in e && e.sessionId === sessionId).map((e) => e.type)).toEqual(['checkout.expired']);
  });

  it('answers 404 pages for unknown or malformed links and receipts', async () => {
    for (const path of ['/api/pay/demo/dcs_00000000000000000000000000000000', '/api/pay/demo/nope', '/api/pay/demo/receipt/dpi_x']) {
      // A browser gets a page, any other client the API's error body.
      const page = await t.http.get(path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(404);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('Payment not found');
      expect((await t.http.get(path).expect(404)).body).toEqual({ statusCode: 404, message: 'Payment not found' });
    }
    await t.http.post('/api/pay/demo/dcs_00000000000000000000000000000000/pay').type('form').send('').expect(404);
  });

  it('concurrent partial refunds never pass the amount paid', async () => {
    const { url, sessionId } = await checkout(randomUUID());
    await t.http.post(`${new URL(url).pathname}/pay`).type('form').send('').expect(200);
    const intent = (await port.retrieveCheckout(sessionId)).paymentIntentId!;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => port.refund({ paymentIntentId: intent, amountCents: 100, idempotencyKey: randomUUID() })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(15);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(5);
    expect(refused.every((r) => r.reason instanceof OverRefundError)).toBe(true);
  });
});

describe('Stripe adapter specifics', () => {
  let t: TestApp;
  let stripe: FakeStripe;
  let port: PaymentsPort;

  beforeAll(async () => {
    stripe = await startFakeStripe('sk_test_specifics');
    t = await startTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.url });
    port = t.created.app.get(PaymentsPort);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('is the provider when STRIPE_SECRET_KEY is set, and the demo pages are gone', async () => {
    expect(port.provider).toBe('stripe');
    await t.http.get('/api/pay/demo/dcs_00000000000000000000000000000000').expect(404);
  });

  it("passes the order to Stripe, answers the charge's receipt_url and sends each refund's idempotency key", async () => {
    const { organization } = await t.organizationWithUser();
    const orderId = randomUUID();
    const created = await port.createCheckout({
      organizationId: organization.id,
      orderId,
      lines: LINES,
      customerEmail: 'ana@example.test',
      successUrl: 'http://studio.test/paid',
      cancelUrl: 'http://studio.test/cancelled',
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const session = stripe.sessions.get(created.sessionId)!;
    expect(session).toMatchObject({ object: 'checkout.session', mode: 'payment', client_reference_id: orderId, customer_email: 'ana@example.test', amount_total: TOTAL, currency: 'usd' });
    expect(session.metadata).toEqual({ organization_id: organization.id, order_id: orderId });
    stripe.completeCheckout(created.sessionId);
    const intent = (await port.retrieveCheckout(created.sessionId)).paymentIntentId!;
    expect(stripe.paymentIntents.get(intent)!.metadata).toEqual({ organization_id: organization.id, order_id: orderId });
    const charge = [...stripe.charges.values()].find((c) => c.payment_intent === intent)!;
    expect(await port.receiptUrl(intent)).toBe(charge.receipt_url);

    await port.refund({ paymentIntentId: intent, amountCents: 500, idempotencyKey: 'refund-action-1', reason: 'Class moved' });
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey)).toEqual(['refund-action-1']);
    expect([...stripe.refunds.values()][0]).toMatchObject({ object: 'refund', amount: 500, payment_intent: intent, metadata: { reason: 'Class moved' } });
    expect(charge.amount_refunded).toBe(500);
  });

  it('a wrong key is Stripe refusing the call, not a silent success', async () => {
    const wrong = await startTestApp({ STRIPE_SECRET_KEY: 'sk_test_wrong', STRIPE_API_BASE: stripe.url });
    try {
      await expect(wrong.created.app.get(PaymentsPort).retrieveCheckout('cs_test_x')).rejects.toThrow(/Invalid API Key/);
    } finally {
      await wrong.close();
    }
  });
});

describe('payments configuration', () => {
  it('takes Stripe keys only in their shapes', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_123' })).toThrow(/STRIPE_SECRET_KEY: expected a Stripe secret key/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toMatchObject({ STRIPE_SECRET_KEY: 'sk_test_abc' });
  });
});
