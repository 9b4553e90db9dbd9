import { CHECKOUT_MESSAGES as M, GIFT_CARD_MESSAGES, UNLIMITED_BOOKINGS, WALLET_MESSAGES as W } from '@studio/contracts';
import { OrderEvents } from '../src/modules/orders/order-events';
import { PaymentLinksService } from '../src/modules/orders/payment-links.service';
import { giftCardCode, hashGiftCardCode } from '../src/modules/wallet/gift-card-code';
import { WalletService } from '../src/modules/wallet/wallet.service';
import { paidOnDemoPage } from './support/checkout-fixtures';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
type Entry = { holding_id: string; amount: number; balance_after: number; reason: string; order_id: string | null; enrollment_id: string | null };

/**
 * What a student holds paying at the store (issue 24, "At the store"), through the public API as
 * the buyer's browser calls it: the email proved by the store's one-time code shows what it holds;
 * a booking covered by a membership or a pack costs nothing more and uses one booking or its
 * credits; gift cards and store credit pay part or all of an order; each applied in the written
 * order (membership, pack, gift card, credit, card); an order that ends unpaid gives its money back.
 */
describe('store checkout: memberships, packs, gift cards and credit', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let slug: string;
  let organizationId: string;
  let other: { token: string; slug: string; organizationId: string };
  let wallet: WalletService;
  let yoga: Awaited<ReturnType<typeof schedulableCourse>>;
  let pottery: Awaited<ReturnType<typeof schedulableCourse>>;
  let serial = 0;
  let day = 2;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-store-wallet-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Wallet Yoga');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    const second = await t.organizationWithUser('owner', 'Other Studio');
    other = {
      token: second.token,
      organizationId: second.organization.id,
      slug: (await t.http.get('/api/admin/org').set('token', second.token).expect(200)).body.slug,
    };
    wallet = t.created.app.get(WalletService);
    // No loyalty programme here: the code is mailed because the student holds something.
    yoga = await schedulableCourse(t, token, 40, { name: 'Morning yoga' });
    pottery = await schedulableCourse(t, token, 40, { name: 'Pottery' });
  }, 120000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const api = (path: string, body: object, slugOf = slug) => t.http.post(`/api/public/${slugOf}/${path}`).send(body);
  const session = (price = 3000, course = yoga) => scheduleSession(t, token, course, { capacity: 4, price, daysFromNow: ++day });
  const pagePath = (url: string) => new URL(url).pathname;
  async function student() {
    const email = `holder${++serial}.${Date.now()}@example.test`;
    const buyer = { first_name: 'Hana', last_name: `Holder${serial}`, email };
    const id = await addStudent(t, token, buyer);
    return { id, buyer };
  }
  const grant = (studentId: string, kind: 'membership' | 'pack' | 'gift_card' | 'store_credit', amount: number, extra: Partial<Parameters<WalletService['grant']>[0]> = {}) =>
    wallet.grant({
      organizationId,
      studentId,
      kind,
      label: { membership: 'Monthly membership', pack: `${amount}-class pack`, gift_card: 'Gift card', store_credit: 'Store credit' }[kind],
      amount,
      ...extra,
    });
  /** The proof of the email, by the mailed code. */
  async function proof(email: string, slugOf = slug) {
    const before = smtp.to(email).length;
    await api('points/code', { email }, slugOf).expect(202);
    const mails = await eventually(() => smtp.to(email), (m) => m.length > before);
    const code = /\b(\d{6})\b/.exec(mails.at(-1)!.text ?? '')![1];
    return (await api('points/verify', { email, code }, slugOf).expect(200)).body as {
      points_token: string;
      holdings: { holding_id: string; kind: string; label: string; balance_text: string; expires_at: string | null }[];
    };
  }
  const entries = async (studentId: string) =>
    (await t.http.get(`/api/admin/student/${studentId}/wallet`).set('token', token).expect(200)).body.entries as Entry[];
  const balance = (holdingId: string) => wallet.balance(organizationId, holdingId);
  const publicOrder = async (confirmationUrl: string) => {
    const page = new URL(confirmationUrl);
    return (
      await t.http.get(`/api/public/${slug}/orders/${page.searchParams.get('order')}?token=${page.searchParams.get('token')}`).expect(200)
    ).body;
  };

  it('mails the code to a student who holds something, and the proof shows only what that email holds and can use', async () => {
    const holder = await student();
    const nobody = await student();
    await grant(holder.id, 'pack', 5, { expiresAt: new Date(Date.now() + 30 * 86400_000) });
    await grant(holder.id, 'gift_card', 2500);
    const spent = await grant(holder.id, 'store_credit', 100);
    // Spent on a paid order of the holder's (paid on the demo payment page: a real order to name).
    const bought = await paidOnDemoPage(t, organizationId, { studentId: holder.id, lines: [{ kind: 'product', description: 'Yoga mat', unitPriceCents: 100 }] });
    await wallet.use({ organizationId, studentId: holder.id, holdingId: spent.holdingId, amount: 100, orderId: bought });
    await grant(nobody.id, 'pack', 3, { expiresAt: new Date(t.clock.nowMs() + 1000) });
    // Its pack runs out: the clock moves past its end.
    t.clock.advance(1100);

    const verified = await proof(holder.buyer.email);
    expect(verified.holdings.map((h) => [h.kind, h.label, h.balance_text])).toEqual([
      ['pack', '5-class pack', '5 credits'],
      ['gift_card', 'Gift card', '$25.00'],
    ]);
    // The other student's pack expired: nothing to show, so (no points programme) no code is mailed.
    await api('points/code', { email: nobody.buyer.email }).expect(202);
    await t.idle();
    expect(smtp.to(nobody.buyer.email)).toEqual([]);
    // Another store knows nothing of it: the proof is this store's only.
    const elsewhere = await schedulableCourse(t, other.token, 10, { name: 'Elsewhere' });
    const otherSession = await scheduleSession(t, other.token, elsewhere, { capacity: 4, price: 3000, daysFromNow: 5 });
    expect(
      (await api('checkout/quote', { event_id: otherSession, points_token: verified.points_token, cover_booking: true }, other.slug).expect(400)).body.errors,
    ).toEqual({ points_token: M.pointsTokenInvalid });
  });

  it('applies holdings in the written order: a membership, then a pack, then gift cards and credit, then the card', async () => {
    const s = await student();
    const credit = await grant(s.id, 'store_credit', 1000);
    const gift = await grant(s.id, 'gift_card', 1500);
    const pack = await grant(s.id, 'pack', 5);
    const membership = await grant(s.id, 'membership', UNLIMITED_BOOKINGS, { unlimited: true, coversActivityIds: [yoga.activity_id] });
    const { points_token } = await proof(s.buyer.email);
    const yogaClass = await session(3000);
    const potteryClass = await session(4000, pottery);
    const quote = (eventId: string, extra: object) => api('checkout/quote', { event_id: eventId, points_token, ...extra }).expect(200);

    expect((await quote(yogaClass, { cover_booking: true, use_wallet_money: true })).body).toMatchObject({
      covered_by: { holding_id: membership.holdingId, kind: 'membership', label: 'Monthly membership', amount: 1 },
      wallet_money: [],
      total_cents: 0,
      due_cents: 0,
    });
    // The membership covers yoga only: pottery goes to the pack.
    expect((await quote(potteryClass, { cover_booking: true })).body).toMatchObject({
      covered_by: { holding_id: pack.holdingId, kind: 'pack', amount: 1 },
      due_cents: 0,
    });
    // A party of 2 is not a membership's: the pack covers it with 2 credits.
    expect((await quote(yogaClass, { cover_booking: true, party_size: 2 })).body.covered_by).toMatchObject({ holding_id: pack.holdingId, amount: 2 });
    // Money only: the gift card first, then the credit, then the card.
    expect((await quote(potteryClass, { use_wallet_money: true })).body).toMatchObject({
      covered_by: null,
      wallet_money: [
        { holding_id: gift.holdingId, kind: 'gift_card', cents: 1500 },
        { holding_id: credit.holdingId, kind: 'store_credit', cents: 1000 },
      ],
      total_cents: 4000,
      due_cents: 1500,
    });
    // Nothing asked: the card pays all.
    expect((await quote(potteryClass, {})).body).toMatchObject({ covered_by: null, wallet_money: [], due_cents: 4000 });
    // Holdings asked without the proof: say what is missing.
    expect((await api('checkout/quote', { event_id: yogaClass, cover_booking: true }).expect(400)).body.errors).toEqual({ cover_booking: W.needsProof });
  });

  it('books a class on a pack: nothing to pay, one credit used for the enrollment, said on the order and in the mail', async () => {
    const s = await student();
    const pack = await grant(s.id, 'pack', 5);
    const { points_token } = await proof(s.buyer.email);
    const eventId = await session(3000);
    const res = await api('checkout', { event_id: eventId, points_token, cover_booking: true, ...s.buyer }).expect(201);
    expect(res.body).toMatchObject({ status: 'paid', total_cents: 0, due_cents: 0, payment_url: null });
    expect(await balance(pack.holdingId)).toBe(4);
    const [use] = await entries(s.id);
    expect(use).toMatchObject({ reason: 'use', amount: -1, balance_after: 4, order_id: res.body.order_id, enrollment_id: expect.any(String) });
    expect(await publicOrder(res.body.confirmation_url)).toMatchObject({
      status: 'paid',
      total_cents: 0,
      card_cents: 0,
      paid_with: [{ label: '5-class pack', amount: '1 credit' }],
    });
    const [mail] = await eventually(() => smtp.to(s.buyer.email).filter((m) => /booked/i.test(m.subject ?? '')), (m) => m.length === 1);
    expect(mail.text).toContain('Paid with 5-class pack: 1 credit.');
    // The same student cannot book that session twice; the credit is untouched by the refusal.
    await api('checkout', { event_id: eventId, points_token, cover_booking: true, ...s.buyer }).expect(409);
    expect(await balance(pack.holdingId)).toBe(4);
  });

  it('refuses a cover that is not possible now: an expired pack, a lapsed membership, another course; the seat is not taken', async () => {
    const s = await student();
    await grant(s.id, 'pack', 5, { expiresAt: new Date(t.clock.nowMs() + 1500) });
    const lapsed = await grant(s.id, 'membership', 8);
    await t.withEm((em) => em.getConnection().execute(`update wallet_holding set expires_at = now() - interval '1 second' where id = ?`, [lapsed.holdingId]));
    await wallet.expire({ organizationId, holdingId: lapsed.holdingId });
    await grant(s.id, 'membership', 8, { coversActivityIds: [pottery.activity_id] });
    t.clock.advance(1600);
    const { points_token } = await proof(s.buyer.email);
    const eventId = await session(3000);
    const refused = await api('checkout', { event_id: eventId, points_token, cover_booking: true, ...s.buyer }).expect(409);
    expect(refused.body).toMatchObject({ message: W.nothingCovers, errors: { cover_booking: W.nothingCovers } });
    const seats = await t.http.get(`/api/public/${slug}/activities/${yoga.activity_id}`).expect(200);
    expect(seats.body.sessions.find((x: { event_id: string }) => x.event_id === eventId).seats_left).toBe(4);
    // Another buyer's email cannot use this proof.
    expect(
      (await api('checkout', { event_id: eventId, points_token, cover_booking: true, ...s.buyer, email: `else${Date.now()}@example.test` }).expect(400)).body.errors,
    ).toEqual({ points_token: M.pointsTokenOtherEmail });
  });

  it('a gift card pays part of an order and keeps the rest; an order that ends unpaid gives it back once', async () => {
    const s = await student();
    const gift = await grant(s.id, 'gift_card', 2000);
    const { points_token } = await proof(s.buyer.email);
    const paid = await api('checkout', { event_id: await session(1500), points_token, use_wallet_money: true, ...s.buyer }).expect(201);
    expect(paid.body).toMatchObject({ status: 'paid', total_cents: 1500, due_cents: 0, payment_url: null });
    expect(await balance(gift.holdingId)).toBe(500);

    const eventId = await session(3000);
    const pending = await api('checkout', { event_id: eventId, points_token, use_wallet_money: true, ...s.buyer }).expect(201);
    expect(pending.body).toMatchObject({ status: 'pending', total_cents: 3000, due_cents: 2500, payment_url: expect.stringMatching(/\/api\/pay\/demo\//) });
    expect(await balance(gift.holdingId)).toBe(0);
    // The payment page asks the card for what is left.
    const page = await t.http.get(pagePath(pending.body.payment_url)).expect(200);
    expect(page.text).toContain('$25.00');
    // It expires unpaid: the gift card's $5.00 comes back, once however often the failure is announced.
    const sessionId = pagePath(pending.body.payment_url).split('/').pop()!;
    await t.withEm(async (em) => {
      const past = new Date(Date.now() - 1000);
      await em.getConnection().execute(`update demo_checkout_session set expires_at = ? where id = ?`, [past, sessionId]);
      await em.getConnection().execute(`update seat_hold set expires_at = ? where order_id = ?`, [past, pending.body.order_id]);
    });
    await t.created.app.get(PaymentLinksService).reconcile({ orderId: pending.body.order_id, organizationId });
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'order.failed', organizationId, orderId: pending.body.order_id });
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'order.failed', organizationId, orderId: pending.body.order_id });
    expect(await balance(gift.holdingId)).toBe(500);
    expect((await entries(s.id)).slice(0, 2).map((e) => [e.reason, e.amount, e.balance_after])).toEqual([
      ['return', 500, 500],
      ['use', -500, 0],
    ]);

    // Paid on the card for the rest, the order is paid and says both parts.
    const again = await api('checkout', { event_id: eventId, points_token, use_wallet_money: true, ...s.buyer }).expect(201);
    expect(again.body.due_cents).toBe(2500);
    await t.http.post(`${pagePath(again.body.payment_url)}/pay`).type('form').send('').expect(200);
    expect(await publicOrder(again.body.confirmation_url)).toMatchObject({
      status: 'paid',
      total_cents: 3000,
      card_cents: 2500,
      paid_with: [{ label: 'Gift card', amount: '$5.00' }],
    });
  });

  it('a gift card code pays for whoever types it, as far as it goes; a wrong, spent or other store’s code is refused on its field', async () => {
    const friend = await student();
    const code = giftCardCode('store-wallet-test', `card:${Date.now()}`);
    const card = await grant(friend.id, 'gift_card', 2000, { codeHash: hashGiftCardCode(code)! });
    const stranger = { first_name: 'Sam', last_name: 'Stranger', email: `stranger${Date.now()}@example.test` };
    const eventId = await session(3000);
    // Typed any way (lower case, spaces): the card pays $20.00 of $30.00, no proof of any email needed.
    const typed = code.toLowerCase().replace(/-/g, ' ');
    expect((await api('checkout/quote', { event_id: eventId, gift_card_code: typed }).expect(200)).body).toMatchObject({
      wallet_money: [{ holding_id: card.holdingId, kind: 'gift_card', cents: 2000 }],
      total_cents: 3000,
      due_cents: 1000,
    });
    const res = await api('checkout', { event_id: eventId, gift_card_code: typed, ...stranger }).expect(201);
    expect(res.body).toMatchObject({ status: 'pending', total_cents: 3000, due_cents: 1000 });
    expect(await balance(card.holdingId)).toBe(0);
    // The use is on the card holder's ledger, naming the stranger's order.
    expect((await entries(friend.id))[0]).toMatchObject({ reason: 'use', amount: -2000, order_id: res.body.order_id });

    const field = async (body: object, slugOf = slug) => (await api('checkout/quote', body, slugOf).expect(400)).body.errors;
    expect(await field({ event_id: await session(), gift_card_code: code })).toEqual({ gift_card_code: W.giftCardEmpty });
    const unknown = giftCardCode('another-secret', 'nobody');
    expect(await field({ event_id: eventId, gift_card_code: unknown })).toEqual({ gift_card_code: W.giftCardUnknown });
    expect(await field({ event_id: eventId, gift_card_code: 'NOT-A-CODE' })).toEqual({ gift_card_code: GIFT_CARD_MESSAGES.codeInvalid });
    // Another store does not know the card.
    const elsewhere = await schedulableCourse(t, other.token, 10, { name: 'Elsewhere two' });
    const otherSession = await scheduleSession(t, other.token, elsewhere, { capacity: 4, price: 3000, daysFromNow: 6 });
    const fresh = giftCardCode('store-wallet-test', `card2:${Date.now()}`);
    await grant(friend.id, 'gift_card', 500, { codeHash: hashGiftCardCode(fresh)! });
    expect(await field({ event_id: otherSession, gift_card_code: fresh }, other.slug)).toEqual({ gift_card_code: W.giftCardUnknown });
  });

  it('store credit pays a product in full; a subscription and a gift card are paid by card', async () => {
    const s = await student();
    const credit = await grant(s.id, 'store_credit', 5000);
    const { points_token } = await proof(s.buyer.email);
    const product = await t.http
      .post('/api/admin/products')
      .set('token', token)
      .send({ productName: 'Yoga mat', priceType: 'oneTime', amount: 3500 })
      .expect(201);
    const productId = product.body.id ?? product.body.product_id;
    const res = await api('checkout', { product_id: productId, points_token, use_wallet_money: true, ...s.buyer }).expect(201);
    expect(res.body).toMatchObject({ status: 'paid', total_cents: 3500, due_cents: 0, payment_url: null });
    expect(await balance(credit.holdingId)).toBe(1500);
    // Points are a course's; a cover is a booking's.
    expect((await api('checkout', { product_id: productId, points_token, redeem_points: 10, ...s.buyer }).expect(400)).body.errors).toMatchObject({
      redeem_points: M.pointsCoursesOnly,
    });
    expect((await api('checkout', { product_id: productId, points_token, cover_booking: true, ...s.buyer }).expect(400)).body.errors).toMatchObject({
      cover_booking: W.coversCoursesOnly,
    });
    const plan = await t.http
      .post('/api/admin/products')
      .set('token', token)
      .send({ productName: 'Monthly plan', priceType: 'subscription', amount: 9000, renewalIntervalUnits: 'months', renewalIntervalQuantity: 1 })
      .expect(201);
    const refused = await api('checkout', { product_id: plan.body.id ?? plan.body.product_id, points_token, use_wallet_money: true, ...s.buyer }).expect(400);
    expect(refused.body.errors).toEqual({ use_wallet_money: W.subscriptionByCard });
    // Nor is a gift card bought with gift cards or credit (they would become a new card to pass on).
    const card = await t.http
      .post('/api/admin/products')
      .set('token', token)
      .send({ productName: 'Gift card $20', priceType: 'oneTime', amount: 2000, grant: 'giftCard' })
      .expect(201);
    const gift = { recipient_name: 'Rae Friend', recipient_email: 'rae@example.com' };
    const byCredit = await api('checkout', { product_id: card.body.id ?? card.body.product_id, points_token, use_wallet_money: true, ...s.buyer, ...gift }).expect(400);
    expect(byCredit.body).toMatchObject({ message: W.giftCardByCard, errors: { use_wallet_money: W.giftCardByCard } });
    expect(await balance(credit.holdingId)).toBe(1500);
  });

  it('20 bookings at once by one student holding 3 credits: exactly 3 are booked on the pack, the rest refused, and the ledger ends at 0', async () => {
    const s = await student();
    const pack = await grant(s.id, 'pack', 3);
    const { points_token } = await proof(s.buyer.email);
    const sessions: string[] = [];
    for (let i = 0; i < 20; i++) sessions.push(await session(2000));
    const answers = await Promise.all(sessions.map((eventId) => api('checkout', { event_id: eventId, points_token, cover_booking: true, ...s.buyer })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(3);
    expect(statuses.filter((x) => x === 409)).toHaveLength(17);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.message).toBe(W.nothingCovers);
    expect(await balance(pack.holdingId)).toBe(0);
    const rows = (await entries(s.id)).filter((e) => e.holding_id === pack.holdingId);
    expect(rows.reduce((sum, e) => sum + e.amount, 0)).toBe(0);
    expect(rows.filter((e) => e.reason === 'use')).toHaveLength(3);
    const booked = answers.filter((a) => a.status === 201).map((a) => a.body.order_id as string);
    expect(new Set(rows.filter((e) => e.reason === 'use').map((e) => e.order_id))).toEqual(new Set(booked));
  });
});
