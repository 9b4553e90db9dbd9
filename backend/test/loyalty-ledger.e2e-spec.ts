import { LOYALTY_BALANCE_MESSAGES, MAX_POINTS_BALANCE } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { LoyaltyLedgerService } from '../src/modules/loyalty/loyalty-ledger.service';
import { OrderEvents } from '../src/modules/orders/order-events';
import { Order } from '../src/modules/orders/entities/order.entity';
import { OrdersService } from '../src/modules/orders/orders.service';
import { PaymentEvents } from '../src/modules/payments/payment-events';
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
  }, 120000);
  afterAll(() => t.close());

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
    const orderId = randomUUID();
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
    const orderId = randomUUID();
    await ledger.earnForOrder(a.organizationId, ada, orderId, 500);
    await set(ada, { amount: 200 }).expect(200);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId)).toBe(true);
    expect(await ledger.reverseForOrder(a.organizationId, ada, orderId)).toBe(false);
    const [top] = await entries(ada);
    expect(top).toMatchObject({ balance: 0, points: -200, reason: 'refund_reversal', order_id: orderId });
    expect(await ledger.reverseForOrder(a.organizationId, ada, randomUUID())).toBe(false);
  });

  it('a failed refund gives back what its reversal took, once however often it is announced; the next full refund takes it again', async () => {
    await set(ada, { amount: 100 }).expect(200);
    const orderId = randomUUID();
    const [firstRefund, failedRefund, secondRefund] = [randomUUID(), randomUUID(), randomUUID()];
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
    await Promise.all(
      Array.from({ length: 25 }, () => ledger.earnForOrder(a.organizationId, ada, randomUUID(), 10)),
    );
    const [top] = await entries(ada);
    expect(top.balance).toBe(250);
  });

  it('listens to the orders module: a paid order announced twice earns once; its full refund takes the points back; a partial one does not', async () => {
    const events = t.created.app.get(OrderEvents);
    await set(ada, { amount: 0 }).expect(200);
    const orderId = randomUUID();
    const paid = {
      type: 'order.paid' as const,
      organizationId: a.organizationId,
      orderId,
      studentId: ada,
      loyaltyPoints: 400,
    };
    await events.emit(paid);
    await events.emit(paid);
    expect((await entries(ada))[0]).toMatchObject({ balance: 400, reason: 'earned', order_id: orderId });
    const refunded = {
      type: 'order.refunded' as const,
      organizationId: a.organizationId,
      orderId,
      studentId: ada,
      amountCents: 100,
      refundId: randomUUID(),
    };
    await events.emit({ ...refunded, full: false });
    expect((await entries(ada))[0].balance).toBe(400);
    await events.emit({ ...refunded, full: true });
    expect((await entries(ada))[0]).toMatchObject({ balance: 0, points: -400, reason: 'refund_reversal' });
  });

  it('a paid order earns nothing while the programme is disabled', async () => {
    await t.http
      .put('/api/admin/loyalty-program')
      .set('token', a.token)
      .send({ status: 'disabled' })
      .expect(200);
    const before = (await entries(ada)).length;
    await t.created.app.get(OrderEvents).emit({
      type: 'order.paid',
      organizationId: a.organizationId,
      orderId: randomUUID(),
      studentId: ada,
      loyaltyPoints: 50,
    });
    expect(await entries(ada)).toHaveLength(before);
  });

  it('paying an order with points products earns its points exactly once, even when the payment is announced twice', async () => {
    await t.http
      .put('/api/admin/loyalty-program')
      .set('token', a.token)
      .send({ status: 'active' })
      .expect(200);
    await set(ada, { amount: 0 }).expect(200);
    const ctx = { organizationId: a.organizationId, userId: 'x', role: 'owner' as const, sessionId: 'test' };
    // A pending order sent as a link (its checkout session known): a glaze kit ×2 earning 150 points each, and a seat earning none.
    const order = await t.withEm(async (em) => {
      const recorded = await t.created.app.get(OrdersService).recordOrder(ctx, {
        studentId: ada,
        status: 'pending',
        source: 'workbench',
        lines: [
          {
            kind: 'product',
            description: 'Glaze kit',
            unitPriceCents: 2500,
            quantity: 2,
            loyaltyPoints: 150,
          },
        ],
      });
      await em.nativeUpdate(
        Order,
        { id: recorded.id },
        { checkoutSessionId: 'dcs_points_test', linkExpiresAt: new Date(Date.now() + 3600000) },
      );
      return recorded;
    });
    const paid = {
      type: 'payment.succeeded' as const,
      provider: 'demo',
      sessionId: 'dcs_points_test',
      orderId: order.id,
      organizationId: a.organizationId,
      paymentIntentId: 'dpi_points_test',
      amountCents: 5000,
    };
    const payments = t.created.app.get(PaymentEvents);
    await Promise.all([payments.emit(paid), payments.emit(paid)]);
    await payments.emit(paid);
    const earned = (await entries(ada)).filter((e) => e.order_id === order.id);
    expect(earned).toEqual([expect.objectContaining({ points: 300, balance: 300, reason: 'earned' })]);
    expect(
      (await t.http.get(`/api/admin/order/${order.id}`).set('token', a.token).expect(200)).body.status,
    ).toBe('paid');
  });
});
