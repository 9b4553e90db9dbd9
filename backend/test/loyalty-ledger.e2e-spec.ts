import { LOYALTY_BALANCE_MESSAGES, MAX_POINTS_BALANCE } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { LoyaltyLedgerService } from '../src/modules/loyalty/loyalty-ledger.service';
import { Order } from '../src/modules/orders/entities/order.entity';
import { PaymentEvents } from '../src/modules/payments/payment-events';
import { demoPageOrder, paidOnDemoPage } from './support/checkout-fixtures';
import { addStudent } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Entry = {
  entry_id: string;
  balance: number;
  points: number;
  reason: string;
  order_id: string | null;
  actor: string | null;
  created_at: string;
};

/** The points ledger (issue 10): loyalty-balance/set, earning once per paid order, reversal by a full refund, tenancy. */
describe('loyalty points ledger', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };
  let ada: string;
  let olga: string;
  let ledger: LoyaltyLedgerService;

  beforeAll(async () => {
    t = await startTestApp();
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
    ada = await addStudent(t, a.token, { first_name: 'Ada', last_name: 'Lovelace' });
    olga = await addStudent(t, b.token, { first_name: 'Olga', last_name: 'Other' });
    ledger = t.created.app.get(LoyaltyLedgerService);
    // A refund needs a payment method on file (the refunds rule): Alpha Ceramics has one.
    await saveCard(a.token);
  }, 120000);
  afterAll(() => t.close());

  /**
   * An order of the student paid on the demo payment page (the real path: the provider's payment,
   * the orders module's order.paid). Its line earns no points, so the listener credits nothing and
   * what the test asks of the ledger is all there is for this order.
   */
  const paidOrder = (studentId: string, cents = 5000) =>
    paidOnDemoPage(t, a.organizationId, { studentId, lines: [{ kind: 'product', description: 'Clay bag', unitPriceCents: cents }] });
  /** A refund of part of a paid order made from the order drawer: its row in the order's refunds ledger. */
  const partialRefund = async (orderId: string, amount = 100) => {
    const res = await t.http.post(`/api/admin/order/${orderId}/refund`).set('token', a.token).send({ amount, reason: 'Goodwill' }).expect(200);
    return (res.body.refunds as { refund_id: string }[]).at(-1)!.refund_id;
  };

  const set = (student: string, body: unknown, token = a.token) =>
    t.http
      .post(`/api/admin/student/${student}/loyalty-balance/set`)
      .set('token', token)
      .send(body as object);
  const student = async (id: string, token = a.token) =>
    (await t.http.get(`/api/admin/student/${id}`).set('token', token).expect(200)).body;
  const entries = async (id: string, token = a.token) => (await student(id, token)).LoyaltyBalance as Entry[];

  it("is refused with 'Loyalty program is not active' while the programme is disabled, and writes nothing", async () => {
    const res = await set(ada, { amount: 1250 }).expect(409);
    expect(res.body.message).toBe(LOYALTY_BALANCE_MESSAGES.notActive);
    expect(await entries(ada)).toEqual([]);
    expect((await student(ada)).Organization.LoyaltyProgram).toEqual([{ status: 'disabled' }]);
  });

  it('sets the balance once the programme is active; an entry records the difference and who made it', async () => {
    await t.http
      .put('/api/admin/loyalty-program')
      .set('token', a.token)
      .send({ status: 'active' })
      .expect(200);
    const res = await set(ada, { amount: 1250 }).expect(200);
    expect(res.body.LoyaltyBalance[0]).toMatchObject({
      balance: 1250,
      points: 1250,
      reason: 'adjusted',
      order_id: null,
    });
    expect(res.body.LoyaltyBalance[0].actor).toEqual(expect.any(String));
    await set(ada, { amount: 1000 }).expect(200);
    const after = await entries(ada);
    expect(after.map((e) => [e.balance, e.points])).toEqual([
      [1000, -250],
      [1250, 1250],
    ]);
    const detail = await student(ada);
    expect(detail.Organization).toMatchObject({
      timezone: expect.any(String),
      LoyaltyProgram: [{ status: 'active' }],
    });
  });

  it('setting the balance it already has adds no entry', async () => {
    await set(ada, { amount: 1000 }).expect(200);
    expect(await entries(ada)).toHaveLength(2);
  });

  it.each([
    [{ amount: -1 }, LOYALTY_BALANCE_MESSAGES.amountInvalid],
    [{ amount: 12.5 }, LOYALTY_BALANCE_MESSAGES.amountInvalid],
    [{ amount: '12' }, LOYALTY_BALANCE_MESSAGES.amountInvalid],
    [{ amount: MAX_POINTS_BALANCE + 1 }, LOYALTY_BALANCE_MESSAGES.amountTooLarge],
    [{}, LOYALTY_BALANCE_MESSAGES.amountInvalid],
  ])('refuses %j with a 400 and changes nothing', async (body, message) => {
    const res = await set(ada, body).expect(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect((await entries(ada))[0].balance).toBe(1000);
  });

  it("another organization's student, an unknown id and a non-uuid answer 404", async () => {
    await set(olga, { amount: 5 }).expect(404);
    await set(randomUUID(), { amount: 5 }).expect(404);
    await set('nope', { amount: 5 }).expect(404);
    await t.http.get(`/api/admin/student/${ada}`).set('token', b.token).expect(404);
  });

  it('a paid order earns its points exactly once, however often the payment is announced', async () => {
    const orderId = await paidOrder(ada);
    const results = await Promise.all(
      [1, 2, 3].map(() => ledger.earnForOrder(a.organizationId, ada, orderId, 300)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const [top] = await entries(ada);
    expect(top).toMatchObject({
      balance: 1300,
      points: 300,
      reason: 'earned',
      order_id: orderId,
      actor: null,
    });
  });

  it('a full refund takes back what the order earned, once, and never below 0', async () => {
    const orderId = await paidOrder(ada);
    await ledger.earnForOrder(a.organizationId, ada, orderId, 500);
    await set(ada, { amount: 200 }).expect(200);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId)).toBe(true);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId)).toBe(false);
    const [top] = await entries(ada);
    expect(top).toMatchObject({ balance: 0, points: -200, reason: 'refund_reversal', order_id: orderId });
    // An order that earned nothing has nothing taken back.
    expect(await ledger.reverseForOrder(a.organizationId, ada, await paidOrder(ada))).toBe(false);
  });

  it('a failed refund gives back what its reversal took, once however often it is announced; the next full refund takes it again', async () => {
    await set(ada, { amount: 100 }).expect(200);
    const orderId = await paidOrder(ada);
    // Three rows of the order's refunds ledger, made from the drawer (partial: the listener leaves
    // the points alone); the ledger is told which one took, gave back and took again.
    const [firstRefund, failedRefund, secondRefund] = [await partialRefund(orderId), await partialRefund(orderId), await partialRefund(orderId)];
    // Nothing taken back yet: nothing to give back.
    expect(await ledger.restoreForOrder(a.organizationId, ada, orderId, failedRefund)).toBe(false);
    await ledger.earnForOrder(a.organizationId, ada, orderId, 500);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId, firstRefund)).toBe(true);
    expect((await entries(ada))[0]).toMatchObject({ balance: 100, points: -500 });
    const restored = await Promise.all([1, 2, 3].map(() => ledger.restoreForOrder(a.organizationId, ada, orderId, failedRefund)));
    expect(restored.filter(Boolean)).toHaveLength(1);
    expect(await ledger.restoreForOrder(a.organizationId, ada, orderId, failedRefund)).toBe(false);
    expect((await entries(ada))[0]).toMatchObject({ balance: 600, points: 500, reason: 'refund_failed', order_id: orderId, actor: null });
    // The first refund announced again changes nothing; the order refunded again loses its points again.
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId, firstRefund)).toBe(false);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId, secondRefund)).toBe(true);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId, secondRefund)).toBe(false);
    // The first failure announced again (late) does not give them back.
    expect(await ledger.restoreForOrder(a.organizationId, ada, orderId, failedRefund)).toBe(false);
    expect((await entries(ada)).filter((e) => e.order_id === orderId).map((e) => [e.reason, e.points, e.balance])).toEqual([
      ['refund_reversal', -500, 100],
      ['refund_failed', 500, 600],
      ['refund_reversal', -500, 100],
      ['earned', 500, 600],
    ]);
  });

  it('concurrent changes to one balance never lose one another (the per-student lock)', async () => {
    await set(ada, { amount: 0 }).expect(200);
    const orders: string[] = [];
    for (let i = 0; i < 25; i++) orders.push(await paidOrder(ada, 1000));
    await Promise.all(orders.map((orderId) => ledger.earnForOrder(a.organizationId, ada, orderId, 10)));
    const [top] = await entries(ada);
    expect(top.balance).toBe(250);
  });

  /**
   * A pending order of a glaze kit ×2 earning 150 points each, sent as a payment link: its checkout
   * is made by the demo provider (the real port), so paying it on the demo page is the real path
   * (the provider's payment.succeeded, the orders module's order.paid, the loyalty listener).
   */
  const pointsOrderLink = (studentId: string) =>
    demoPageOrder(t, a.organizationId, {
      studentId,
      lines: [{ kind: 'product', description: 'Glaze kit', unitPriceCents: 2500, quantity: 2, loyaltyPoints: 150 }],
    });

  async function saveCard(token: string) {
    const res = await t.http.post('/api/admin/payment-methods/setup').set('token', token).expect(200);
    await t.http.post(`${new URL(res.body.url).pathname}/pay`).type('form').send('').expect(200);
  }

  it('listens to the orders module: a paid order paid twice earns once; its full refund takes the points back; a partial one does not', async () => {
    await t.http.put('/api/admin/loyalty-program').set('token', a.token).send({ status: 'active' }).expect(200);
    await set(ada, { amount: 0 }).expect(200);
    const link = await pointsOrderLink(ada);
    await Promise.all([link.pay(), link.pay()]);
    await link.pay();
    expect((await entries(ada))[0]).toMatchObject({ balance: 300, points: 300, reason: 'earned', order_id: link.orderId });

    const refund = (amount?: number) =>
      t.http.post(`/api/admin/order/${link.orderId}/refund`).set('token', a.token).send(amount === undefined ? {} : { amount });
    await refund(100).expect(200);
    expect((await entries(ada))[0].balance).toBe(300);
    await refund().expect(200);
    expect((await entries(ada))[0]).toMatchObject({ balance: 0, points: -300, reason: 'refund_reversal', order_id: link.orderId });
  });

  it('a paid order earns nothing while the programme is disabled', async () => {
    await set(ada, { amount: 0 }).expect(200);
    const link = await pointsOrderLink(ada);
    await t.http.put('/api/admin/loyalty-program').set('token', a.token).send({ status: 'disabled' }).expect(200);
    const before = (await entries(ada)).length;
    await link.pay();
    expect((await t.http.get(`/api/admin/order/${link.orderId}`).set('token', a.token).expect(200)).body.status).toBe('paid');
    expect(await entries(ada)).toHaveLength(before);
    await t.http.put('/api/admin/loyalty-program').set('token', a.token).send({ status: 'active' }).expect(200);
  });

  it('a payment the provider announces again (a repeated webhook) earns nothing more', async () => {
    await set(ada, { amount: 0 }).expect(200);
    const link = await pointsOrderLink(ada);
    await link.pay();
    const order = await t.withEm((em) => em.findOneOrFail(Order, { id: link.orderId }));
    await t.redeliver(t.created.app.get(PaymentEvents), {
      type: 'payment.succeeded',
      provider: 'demo',
      sessionId: order.checkoutSessionId!,
      orderId: order.id,
      organizationId: a.organizationId,
      paymentIntentId: order.paymentIntentId!,
      amountCents: 5000,
    });
    const earned = (await entries(ada)).filter((e) => e.order_id === order.id);
    expect(earned).toEqual([expect.objectContaining({ points: 300, balance: 300, reason: 'earned' })]);
    expect((await t.http.get(`/api/admin/order/${order.id}`).set('token', a.token).expect(200)).body.status).toBe('paid');
  });
});
