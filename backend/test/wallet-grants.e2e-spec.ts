import { formatCents, PRODUCT_MESSAGES, planWalletPayment, UNLIMITED_BOOKINGS, GIFT_CARD_MESSAGES, type Wallet } from '@studio/contracts';
import { OrderEvents } from '../src/modules/orders/order-events';
import { SubscriptionsService } from '../src/modules/orders/subscriptions.service';
import { hashGiftCardCode } from '../src/modules/wallet/gift-card-code';
import { EXPIRE_DUE_JOB, WALLET_QUEUE } from '../src/modules/wallet/wallet-grants.service';
import { WalletService } from '../src/modules/wallet/wallet.service';
import { JOB_QUEUE, type JobQueue } from '../src/queue/job-queue';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

/**
 * What a product grants once paid (issue 24), through the store's public checkout and the demo
 * payment provider: a class pack's credits (once, however often store_order.paid comes), a
 * membership that follows its subscription (start, renewal, lapse), a gift card granted to its
 * recipient with its code mailed, the expiry sweep, and tenancy.
 */
describe('wallet grants', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let slug: string;
  let organizationId: string;
  let wallet: WalletService;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let courseId: string;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-wallet-grants-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Grant Pottery');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    wallet = t.created.app.get(WalletService);
    course = await schedulableCourse(t, token);
    courseId = course.activity_id;
  }, 120000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const createProduct = (patch: object, as = token) =>
    t.http
      .post('/api/admin/products')
      .set('token', as)
      .send({ productName: `Product ${++serial}`, productDescription: 'A thing.', priceType: 'oneTime', amount: 2500, ...patch });
  const product = async (patch: object, as = token) => (await createProduct(patch, as).expect(201)).body.product_id as string;
  const buyer = () => ({ first_name: 'Ines', last_name: `Buyer${++serial}`, email: `ines.buyer${serial}.${Date.now()}@example.test` });
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const pay = (paymentUrl: string) => t.http.post(`${new URL(paymentUrl).pathname}/pay`).type('form').send('').expect(200);
  const admin = (path: string) => t.http.get(path).set('token', token).expect(200).then((r) => r.body);
  const walletOf = (studentId: string): Promise<Wallet> => admin(`/api/admin/student/${studentId}/wallet`);
  const buy = async (productId: string, extra: object = {}) => {
    const who = buyer();
    const res = await checkout({ product_id: productId, ...who, ...extra }).expect(201);
    await pay(res.body.payment_url);
    const order = await admin(`/api/admin/order/${res.body.order_id}`);
    return { who, orderId: res.body.order_id as string, studentId: order.Student.student_id as string };
  };
  const plan = async (studentId: string, at = new Date()) =>
    planWalletPayment({
      holdings: await wallet.covering(organizationId, studentId),
      course: { activity_id: courseId, category_id: null },
      party_size: 1,
      total_cents: 3000,
      now: at,
    });

  it('a product says what it grants in its answers; a change of grant is a new price row', async () => {
    const id = await product({ productName: 'Ten classes', grant: 'pack', packCredits: 10, packExpiresAfterQuantity: 6, packExpiresAfterUnit: 'months' });
    const read = await admin(`/api/admin/products/${id}`);
    expect(read.MainVariant.current_price).toMatchObject({
      grant: 'pack',
      pack_credits: 10,
      pack_expires_after_quantity: 6,
      pack_expires_after_unit: 'months',
      membership_bookings: null,
      membership_unlimited: false,
      covers_activity_ids: null,
      covers_category_ids: null,
    });
    const list = await admin('/api/admin/products?search=Ten%20classes');
    expect(list.products[0]).toMatchObject({ grant: 'pack', pack_credits: 10 });
    const store = await t.http.get(`/api/public/${slug}`).expect(200);
    expect(store.body.products.find((p: { product_id: string }) => p.product_id === id)).toMatchObject({
      grant: 'pack',
      grant_text: '10 classes, valid 6 months',
    });

    const edited = await t.http
      .put(`/api/admin/products/${id}`)
      .set('token', token)
      .send({ productName: 'Ten classes', priceType: 'oneTime', amount: 2500, grant: 'pack', packCredits: 12 })
      .expect(200);
    expect(edited.body.MainVariant.current_price).toMatchObject({ pack_credits: 12, pack_expires_after_quantity: null });
    expect(edited.body.MainVariant.current_price.price_id).not.toBe(read.MainVariant.current_price.price_id);
  });

  it('refuses a grant that does not fit, with the message, and writes nothing', async () => {
    const bad = await createProduct({ grant: 'membership', membershipBookings: 8 }).expect(400);
    expect(bad.body.errors).toEqual({ grant: PRODUCT_MESSAGES.grantMembershipNeedsSubscription });
    const noCredits = await createProduct({ grant: 'pack' }).expect(400);
    expect(noCredits.body.errors).toEqual({ packCredits: PRODUCT_MESSAGES.packCredits });
    const list = await admin('/api/admin/products');
    expect(list.products.filter((p: { grant: string }) => p.grant === 'membership')).toHaveLength(0);
  });

  it("tenancy: another studio's product is 404, and a coverage names only the studio's own courses", async () => {
    const other = await t.organizationWithUser('owner', 'Elsewhere Yoga');
    const theirs = await product({}, other.token);
    await t.http
      .put(`/api/admin/products/${theirs}`)
      .set('token', token)
      .send({ productName: 'Mine now', priceType: 'oneTime', amount: 100, grant: 'giftCard' })
      .expect(404);
    const theirCourse = (await schedulableCourse(t, other.token)).activity_id;
    const res = await createProduct({ grant: 'pack', packCredits: 5, coversActivityIds: [theirCourse] }).expect(400);
    expect(res.body.errors).toEqual({ coversActivityIds: PRODUCT_MESSAGES.coversCourseUnknown });
  });

  it('a paid pack order grants credits × quantity once, however often store_order.paid comes, valid for the pack’s time', async () => {
    const id = await product({ productName: 'Five classes', grant: 'pack', packCredits: 5, packExpiresAfterQuantity: 30, packExpiresAfterUnit: 'days', coversActivityIds: [courseId] });
    const before = Date.now();
    const { orderId, studentId } = await buy(id);
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'store_order.paid', organizationId, orderId });
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'store_order.paid', organizationId, orderId });
    const w = await walletOf(studentId);
    expect(w.holdings).toHaveLength(1);
    const [pack] = w.holdings;
    expect(pack).toMatchObject({ kind: 'pack', label: 'Five classes', balance: 5, status: 'active', order_id: orderId, product_id: id, covers_activity_ids: [courseId] });
    const days = (Date.parse(pack.expires_at!) - before) / 86400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect(w.entries.filter((e) => e.reason === 'grant')).toHaveLength(1);
    expect((await plan(studentId)).booking).toEqual({ holding_id: pack.holding_id, kind: 'pack', amount: 1 });
  });

  it('a membership starts with its subscription, renews (the leftover expires, the new period granted), and a cancel ends it', async () => {
    const id = await product({
      productName: 'Eight a month',
      priceType: 'subscription',
      amount: 8900,
      renewalIntervalUnits: 'months',
      renewalIntervalQuantity: 1,
      grant: 'membership',
      membershipBookings: 8,
    });
    const { orderId, studentId } = await buy(id);
    const order = await eventually(() => admin(`/api/admin/order/${orderId}`), (o) => o.Subscription?.length === 1);
    const subscriptionId = order.Subscription[0].subscription_id as string;
    const first = await eventually(() => walletOf(studentId), (w) => w.holdings.length === 1);
    const sub = await admin(`/api/admin/subscription/${subscriptionId}`);
    expect(first.holdings[0]).toMatchObject({ kind: 'membership', balance: 8, status: 'active', expires_at: sub.current_period_end, unlimited: false });
    const membership = first.holdings[0].holding_id;
    // A class booked on it the way Add student books one on a membership: one booking used.
    const booked = await t.http
      .post(`/api/admin/orders/enroll/${studentId}`)
      .set('token', token)
      .send({ event_id: await scheduleSession(t, token, course), holding_id: membership })
      .expect(201);
    const enrollmentId = booked.body.enrollment_id as string;

    // The demo renewal at the period's end (twice: once).
    const renew = (now: Date) =>
      t.withEm(() => t.created.app.get(SubscriptionsService).renewDemo({ organizationId, subscriptionId, dueAt: sub.current_period_end }, now));
    const at = new Date(Date.parse(sub.current_period_end) + 1000);
    await renew(at);
    await renew(at);
    const renewed = await admin(`/api/admin/subscription/${subscriptionId}`);
    const w = await walletOf(studentId);
    expect(w.holdings).toHaveLength(1);
    expect(w.holdings[0]).toMatchObject({ holding_id: membership, balance: 8, status: 'active', expires_at: renewed.current_period_end });
    const ended = w.entries.find((e) => e.reason === 'expire');
    expect(ended).toMatchObject({ amount: -7, balance_after: 0, note: 'The period ended' });
    expect(w.entries.filter((e) => e.reason === 'grant')).toHaveLength(2);
    expect((await plan(studentId)).booking?.holding_id).toBe(membership);

    await t.http.delete(`/api/admin/subscription/${subscriptionId}`).set('token', token).expect(200);
    const lapsed = await walletOf(studentId);
    expect(lapsed.holdings[0]).toMatchObject({ status: 'expired', balance: 0 });
    expect(lapsed.entries[0]).toMatchObject({ reason: 'expire', amount: -8, note: 'The membership ended' });
    expect((await plan(studentId)).booking).toBeNull();
    // The booking it paid for stays used.
    expect(lapsed.entries.some((e) => e.reason === 'use' && e.enrollment_id === enrollmentId)).toBe(true);
  });

  it('an unlimited membership reads Unlimited; a failed renewal (the provider ends it) stops it covering', async () => {
    const id = await product({
      productName: 'Unlimited',
      priceType: 'subscription',
      amount: 15000,
      renewalIntervalUnits: 'months',
      renewalIntervalQuantity: 1,
      grant: 'membership',
      membershipUnlimited: true,
    });
    const { orderId, studentId } = await buy(id);
    const order = await eventually(() => admin(`/api/admin/order/${orderId}`), (o) => o.Subscription?.length === 1);
    const sub = await admin(`/api/admin/subscription/${order.Subscription[0].subscription_id}`);
    const w = await eventually(() => walletOf(studentId), (x) => x.holdings.length === 1);
    expect(w.holdings[0]).toMatchObject({ kind: 'membership', unlimited: true, balance: UNLIMITED_BOOKINGS });
    expect((await plan(studentId)).booking?.kind).toBe('membership');

    await t.withEm(() =>
      t.created.app.get(SubscriptionsService).applyChange({
        type: 'subscription.changed',
        provider: 'demo',
        providerSubscriptionId: sub.provider_subscription_id,
        reference: { organizationId, orderId, studentId, productId: id, productPriceId: null },
        status: 'expired',
        planName: null,
        amountCents: 15000,
        currency: 'usd',
        intervalUnit: 'months',
        intervalCount: 1,
        currentPeriodEnd: new Date(sub.current_period_end),
        cancelledAt: null,
        startedAt: new Date(sub.created_at),
        occurredAt: Date.now(),
      }),
    );
    const lapsed = await walletOf(studentId);
    expect(lapsed.holdings[0]).toMatchObject({ status: 'expired', balance: 0 });
    expect((await plan(studentId)).booking).toBeNull();
  });

  it('a gift card order grants its amount to the recipient and mails the code; the code’s hash finds the card', async () => {
    const id = await product({ productName: 'Gift card $50', amount: 5000, grant: 'giftCard' });
    const store = await t.http.get(`/api/public/${slug}`).expect(200);
    expect(store.body.products.find((p: { product_id: string }) => p.product_id === id)).toMatchObject({ grant: 'giftCard', grant_text: 'Gift card worth $50.00' });

    const missing = await checkout({ product_id: id, ...buyer() }).expect(400);
    expect(missing.body.errors).toEqual({ recipient_name: GIFT_CARD_MESSAGES.recipientNameRequired, recipient_email: GIFT_CARD_MESSAGES.recipientEmail });

    const friend = `Friend.${Date.now()}@Example.test`;
    const { who, orderId, studentId: buyerId } = await buy(id, { recipient_name: 'Flora Friend', recipient_email: friend, gift_message: 'Happy birthday!\nSee you at the wheel.' });
    await t.redeliver(t.created.app.get(OrderEvents), { type: 'store_order.paid', organizationId, orderId });

    const [mail] = await eventually(() => smtp.to(friend.toLowerCase()), (m) => m.length >= 1);
    expect(mail.subject).toBe(`Ines ${who.last_name} sent you a ${formatCents(5000)} gift card`);
    expect(mail.text).toContain('Happy birthday!');
    expect(mail.text).toContain('Balance: $50.00');
    const code = /Your code: ([A-Z0-9-]+)/.exec(mail.text ?? '')![1];
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    const [confirmation] = await eventually(() => smtp.to(who.email), (m) => m.length >= 1);
    expect(confirmation.text).toContain(`Your gift card was sent to ${friend.toLowerCase()}.`);

    const found = await wallet.giftCardByCodeHash(organizationId, hashGiftCardCode(code.toLowerCase().replace(/-/g, ' '))!);
    expect(found).toMatchObject({ balance: 5000, status: 'active' });
    const recipient = await t.withEm((em) =>
      em.getConnection().execute<{ id: string; first_name: string; last_name: string }[]>(
        `select id, first_name, last_name from student where organization_id = ? and email = ?`,
        [organizationId, friend.toLowerCase()],
      ),
    );
    expect(recipient[0]).toMatchObject({ id: found!.studentId, first_name: 'Flora', last_name: 'Friend' });
    const w = await walletOf(found!.studentId);
    expect(w.holdings).toEqual([expect.objectContaining({ kind: 'gift_card', balance: 5000, label: `Gift card from Ines ${who.last_name}` })]);
    expect(w.entries.filter((e) => e.reason === 'grant')).toHaveLength(1);
    expect((await walletOf(buyerId)).holdings).toHaveLength(0);
    // Mailed once, however often the order's payment was announced.
    await t.settle();
    expect(smtp.to(friend.toLowerCase())).toHaveLength(1);
    expect(await wallet.giftCardByCodeHash(organizationId, hashGiftCardCode('2222-2222-2222-2222')!)).toBeNull();
  });

  it('the expiry sweep (the queue job) expires a pack that is due', async () => {
    const id = await product({ productName: 'Two classes', grant: 'pack', packCredits: 2, packExpiresAfterQuantity: 1, packExpiresAfterUnit: 'days' });
    const { studentId } = await buy(id);
    const [pack] = (await walletOf(studentId)).holdings;
    expect(pack).toMatchObject({ balance: 2, status: 'active' });
    await t.withEm((em) => em.getConnection().execute(`update wallet_holding set expires_at = now() - interval '1 minute' where id = ?`, [pack.holding_id]));
    await t.created.app.get<JobQueue>(JOB_QUEUE).add(WALLET_QUEUE, EXPIRE_DUE_JOB, {}, { jobId: `test-sweep-${Date.now()}` });
    const after = await eventually(() => walletOf(studentId), (w) => w.holdings[0].status === 'expired');
    expect(after.holdings[0].balance).toBe(0);
    expect(after.entries[0]).toMatchObject({ reason: 'expire', amount: -2 });
  });
});
