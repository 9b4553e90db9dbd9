import { CHECKOUT_MESSAGES as M, DISCOUNT_CASE_BASE } from '@studio/contracts';
import { OrderEvents } from '../src/modules/orders/order-events';
import { PaymentLinksService } from '../src/modules/orders/payment-links.service';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
type Entry = { points: number; balance: number; reason: string; order_id: string | null };

/**
 * Loyalty points at the store's checkout (issue 21, step 6), through the public API as the buyer's
 * browser calls it: the email proved by a mailed one-time code, points redeemed on the quote and
 * the checkout (written to the ledger under the student's lock), given back once when the order
 * fails or is refunded in full; and store orders counted in their discount code's uses.
 */
describe('store checkout: loyalty points and discount uses', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let slug: string;
  let organizationId: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let serial = 0;
  let day = 3;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-points-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Points Pottery');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    await t.http.put('/api/admin/loyalty-program').set('token', token).send({ status: 'active' }).expect(200);
    course = await schedulableCourse(t, token, 10, { name: 'Wheel throwing' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const api = (path: string, body: object) => t.http.post(`/api/public/${slug}/${path}`).send(body);
  const session = (price: number) => scheduleSession(t, token, course, { capacity: 4, price, daysFromNow: ++day });
  /** A student of the store with a points balance. */
  async function member(points: number) {
    const email = `member${++serial}.${Date.now()}@example.test`;
    const id = await addStudent(t, token, { first_name: 'Mina', last_name: `Member${serial}`, email });
    await t.http.post(`/api/admin/student/${id}/loyalty-balance/set`).set('token', token).send({ amount: points }).expect(200);
    return { id, buyer: { first_name: 'Mina', last_name: `Member${serial}`, email } };
  }
  const entries = async (studentId: string) =>
    (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body.LoyaltyBalance as Entry[];
  const mailedCodes = async (email: string, count: number) =>
    (await eventually(() => smtp.to(email), (m) => m.length >= count)).map((m) => /\b(\d{6})\b/.exec(m.text ?? '')![1]);
  /** The proof token for a member's email, by the mailed code. */
  async function proof(email: string, mails = 1) {
    await api('points/code', { email }).expect(202);
    const code = (await mailedCodes(email, mails)).at(-1)!;
    return (await api('points/verify', { email, code }).expect(200)).body as { points_token: string; points: number };
  }
  const pagePath = (url: string) => new URL(url).pathname;
  const seatsLeft = async (eventId: string) =>
    (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200)).body.sessions.find(
      (s: { event_id: string }) => s.event_id === eventId,
    ).seats_left as number;

  it('mails a code only to a student’s email, answering the same for any email; a wrong code is 400 and 5 wrong tries void it', async () => {
    const { buyer } = await member(1250);
    const stranger = `nobody${Date.now()}@example.test`;
    const known = await api('points/code', { email: buyer.email.toUpperCase() }).expect(202);
    const unknown = await api('points/code', { email: stranger }).expect(202);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ message: M.pointsCodeSent });
    const [mail] = await eventually(() => smtp.to(buyer.email), (m) => m.length === 1);
    expect(mail.subject).toBe('Your points code for Points Pottery');
    expect(smtp.to(stranger)).toEqual([]);

    const [code] = await mailedCodes(buyer.email, 1);
    const wrong = code === '000000' ? '000001' : '000000';
    const refused = { statusCode: 400, message: M.pointsCodeWrong, errors: { code: M.pointsCodeWrong } };
    expect((await api('points/verify', { email: stranger, code }).expect(400)).body).toEqual(refused);
    for (let i = 0; i < 5; i++) expect((await api('points/verify', { email: buyer.email, code: wrong }).expect(400)).body).toEqual(refused);
    // Void: the right code no longer opens anything.
    expect((await api('points/verify', { email: buyer.email, code }).expect(400)).body).toEqual(refused);
    expect((await api('points/verify', { email: buyer.email, code: '12' }).expect(400)).body.errors).toEqual({ code: M.pointsCodeFormat });

    // A new code works once, and shows the balance.
    const verified = await proof(buyer.email, 2);
    expect(verified).toMatchObject({ points: 1250, value_cents: 1250, points_token: expect.stringMatching(/^[\w-]{43}$/) });
    const again = (await mailedCodes(buyer.email, 2))[1];
    await api('points/verify', { email: buyer.email, code: again }).expect(400);
  });

  it('redeems points on the quote and the checkout, written to the ledger as redeemed; a free total skips payment', async () => {
    const { id, buyer } = await member(1250);
    const { points_token } = await proof(buyer.email);
    const eventId = await session(4000);
    const quoted = await api('checkout/quote', { event_id: eventId, points_token, redeem_points: 1000 }).expect(200);
    expect(quoted.body).toMatchObject({ subtotal_cents: 4000, points_redeemed: 1000, points_cents: 1000, total_cents: 3000 });
    expect((await api('checkout/quote', { event_id: eventId, points_token, redeem_points: 1251 }).expect(409)).body).toMatchObject({
      message: M.pointsInsufficient(1250),
      errors: { redeem_points: 'You have only 1,250 points' },
    });
    expect((await api('checkout/quote', { event_id: eventId, redeem_points: 100 }).expect(400)).body.errors).toEqual({ points_token: M.pointsNeedCode });
    expect((await api('checkout/quote', { event_id: eventId, points_token: 'x'.repeat(43), redeem_points: 100 }).expect(400)).body.errors).toEqual({
      points_token: M.pointsTokenInvalid,
    });
    // Another buyer's email cannot spend them.
    const other = { ...buyer, email: `other${Date.now()}@example.test` };
    expect((await api('checkout', { event_id: eventId, points_token, redeem_points: 100, ...other }).expect(400)).body.errors).toEqual({
      points_token: M.pointsTokenOtherEmail,
    });

    const res = await api('checkout', { event_id: eventId, points_token, redeem_points: 1000, ...buyer }).expect(201);
    expect(res.body).toMatchObject({ status: 'pending', total_cents: 3000, payment_url: expect.stringMatching(/\/api\/pay\/demo\//) });
    expect((await entries(id))[0]).toEqual(expect.objectContaining({ reason: 'redeemed', points: -1000, balance: 250, order_id: res.body.order_id }));

    // More points than a total: only what the total needs is spent, and nothing is to pay.
    const rich = await member(5000);
    const richProof = await proof(rich.buyer.email);
    const cheap = await session(2500);
    const free = await api('checkout', { event_id: cheap, points_token: richProof.points_token, redeem_points: 5000, ...rich.buyer }).expect(201);
    expect(free.body).toMatchObject({ status: 'paid', total_cents: 0, payment_url: null });
    expect((await entries(rich.id))[0]).toMatchObject({ reason: 'redeemed', points: -2500, balance: 2500 });
    const page = new URL(free.body.confirmation_url);
    const order = await t.http
      .get(`/api/public/${slug}/orders/${page.searchParams.get('order')}?token=${page.searchParams.get('token')}`)
      .expect(200);
    expect(order.body).toMatchObject({ subtotal_cents: 2500, points_cents: 2500, total_cents: 0 });
  });

  it('never spends a balance twice: of two checkouts at once spending the same points, one is 409 and changes nothing', async () => {
    const { id, buyer } = await member(1000);
    const { points_token } = await proof(buyer.email);
    const [first, second] = [await session(3000), await session(3000)];
    const answers = await Promise.all(
      [first, second].map((eventId) => api('checkout', { event_id: eventId, points_token, redeem_points: 1000, ...buyer })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body).toMatchObject({ message: M.pointsInsufficient(0) });
    expect((await entries(id)).map((e) => [e.reason, e.balance])).toEqual([
      ['redeemed', 0],
      ['adjusted', 1000],
    ]);
    const refusedEvent = answers[0].status === 409 ? first : second;
    expect(await seatsLeft(refusedEvent)).toBe(4);
  });

  it('gives the points back once when the hold expires, however often the failure is announced', async () => {
    const { id, buyer } = await member(800);
    const { points_token } = await proof(buyer.email);
    const eventId = await session(3000);
    const res = await api('checkout', { event_id: eventId, points_token, redeem_points: 500, ...buyer }).expect(201);
    const sessionId = pagePath(res.body.payment_url).split('/').pop()!;
    await t.withEm(async (em) => {
      const past = new Date(Date.now() - 1000);
      await em.getConnection().execute(`update demo_checkout_session set expires_at = ? where id = ?`, [past, sessionId]);
      await em.getConnection().execute(`update seat_hold set expires_at = ? where order_id = ?`, [past, res.body.order_id]);
    });
    await t.created.app.get(PaymentLinksService).reconcile({ orderId: res.body.order_id, organizationId });
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'order.failed', organizationId, orderId: res.body.order_id });
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'order.failed', organizationId, orderId: res.body.order_id });
    expect((await entries(id)).map((e) => [e.reason, e.points, e.balance])).toEqual([
      ['redemption_returned', 500, 800],
      ['redeemed', -500, 300],
      ['adjusted', 800, 800],
    ]);
  });

  it('gives the points back on a full refund from the admin, not a partial one; a paid store order counts in its code’s uses once', async () => {
    const { id, buyer } = await member(600);
    const { points_token } = await proof(buyer.email);
    const discount = await t.http
      .post('/api/admin/promo-code')
      .set('token', token)
      .send({ ...DISCOUNT_CASE_BASE, code: `POINTS${Date.now()}`, start_date: null, expiration_date: null })
      .expect(201);
    const timesUsed = async () =>
      (await t.http.get(`/api/admin/promo-code/${discount.body.id}`).set('token', token).expect(200)).body.times_used as number;
    const eventId = await session(5000);
    const res = await api('checkout', { event_id: eventId, discount_code: discount.body.code, points_token, redeem_points: 600, ...buyer }).expect(201);
    const total = res.body.total_cents as number;
    expect(total).toBeGreaterThan(0);
    expect(await timesUsed()).toBe(0);
    await t.http.post(`${pagePath(res.body.payment_url)}/pay`).type('form').send('').expect(200);
    expect(await timesUsed()).toBe(1);
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'store_order.paid', organizationId, orderId: res.body.order_id });
    expect(await timesUsed()).toBe(1);
    // The order drawer's summary names the code and the points spent.
    const detail = await t.http.get(`/api/admin/order/${res.body.order_id}`).set('token', token).expect(200);
    expect(detail.body).toMatchObject({ discount_code: discount.body.code, points_redeemed: 600 });

    // The studio's card on file (refunds need one), saved at the demo provider.
    const setup = await t.http.post('/api/admin/payment-methods/setup').set('token', token).expect(200);
    await t.http.post(`${new URL(setup.body.url).pathname}/pay`).type('form').send('').expect(200);
    const refund = (body: object) => t.http.post(`/api/admin/order/${res.body.order_id}/refund`).set('token', token).send(body);
    await refund({ amount: 100 }).expect(200);
    expect((await entries(id))[0]).toMatchObject({ reason: 'redeemed', balance: 0 });
    await refund({}).expect(200);
    expect((await entries(id))[0]).toMatchObject({ reason: 'redemption_returned', points: 600, balance: 600 });
  });
});
