import { CHECKOUT_MESSAGES as M } from '@studio/contracts';
import { SubscriptionsService } from '../src/modules/orders/subscriptions.service';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

/**
 * Products at the store (issue 21), through the public API as the store page calls it, with the
 * demo payment provider: a one-time product paid on the payment page (receipt, points, confirmation
 * mail), a subscription (active, and renewed by the demo provider's job: the billing history the
 * admin's subscription drawer shows), a lead magnet (the email alone: the student, the download
 * mailed, the mailing lists fed), and what the store refuses.
 */
describe('store products (demo provider)', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let slug: string;
  let organizationId: string;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-store-products-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Product Pottery');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    await t.http.put('/api/admin/loyalty-program').set('token', token).send({ status: 'active' }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const product = async (patch: object, as = token) =>
    (
      await t.http
        .post('/api/admin/products')
        .set('token', as)
        .send({ productName: `Product ${++serial}`, productDescription: 'A thing.', priceType: 'oneTime', amount: 2500, ...patch })
        .expect(201)
    ).body.product_id as string;
  const buyer = () => ({ first_name: 'Ines', last_name: `Buyer${++serial}`, email: `Ines.Buyer${serial}.${Date.now()}@Example.test` });
  const checkout = (body: object, key?: string) => {
    const req = t.http.post(`/api/public/${slug}/checkout`);
    if (key) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const pay = (paymentUrl: string) => t.http.post(`${new URL(paymentUrl).pathname}/pay`).type('form').send('').expect(200);
  const orderPage = (url: string) => {
    const u = new URL(url);
    return t.http.get(`/api/public/${slug}/orders/${u.searchParams.get('order')}?token=${u.searchParams.get('token')}`);
  };
  const admin = (path: string) => t.http.get(path).set('token', token).expect(200).then((r) => r.body);

  it('one-time: paid on the payment page, a workbench order with its receipt, the points and a confirmation mail', async () => {
    const id = await product({ productName: 'Glaze kit', amount: 3200, earnPoints: true, rewardAmount: 320 });
    const who = buyer();
    const res = await checkout({ product_id: id, ...who }).expect(201);
    expect(res.body).toMatchObject({ status: 'pending', total_cents: 3200, payment_url: expect.stringMatching(/\/api\/pay\/demo\/dcs_/) });
    expect((await orderPage(res.body.confirmation_url).expect(200)).body).toMatchObject({ status: 'pending', session: null, product: { name: 'Glaze kit', kind: 'oneTime' } });
    await pay(res.body.payment_url);

    const page = (await orderPage(res.body.confirmation_url).expect(200)).body;
    expect(page).toMatchObject({
      status: 'paid',
      total_cents: 3200,
      session: null,
      product: { name: 'Glaze kit', kind: 'oneTime' },
      lines: [{ description: 'Glaze kit', quantity: 1, unit_price_cents: 3200 }],
      receipt_url: expect.stringMatching(/\/api\/pay\/demo\/receipt\/dpi_/),
    });
    const order = await admin(`/api/admin/order/${res.body.order_id}`);
    expect(order).toMatchObject({ status: 'paid', source: 'workbench', total: 3200 });
    const [mail] = await eventually(() => smtp.to(who.email.toLowerCase()), (m) => m.length === 1);
    expect(mail.subject).toBe('Thank you for your order: Glaze kit');
    expect(mail.text).toContain(`Receipt: ${page.receipt_url}`);
    const student = await eventually(
      () => admin(`/api/admin/student/${order.Student.student_id}`),
      (s) => s.LoyaltyBalance?.[0]?.balance === 320,
    );
    expect(student).toMatchObject({ first_name: 'Ines', email: who.email.toLowerCase() });
  });

  it('subscription: active once paid, renewed by the demo job each period with a billing row the admin sees', async () => {
    const id = await product({ productName: 'Studio membership', priceType: 'subscription', amount: 8900, renewalIntervalUnits: 'months', renewalIntervalQuantity: 1 });
    const who = buyer();
    const res = await checkout({ product_id: id, ...who }).expect(201);
    await pay(res.body.payment_url);
    const order = await eventually(
      () => admin(`/api/admin/order/${res.body.order_id}`),
      (o) => o.Subscription?.length === 1,
    );
    const subscriptionId = order.Subscription[0].subscription_id as string;
    const first = await eventually(
      () => admin(`/api/admin/subscription/${subscriptionId}`),
      (s) => s.subscription_invoices.length === 1,
    );
    expect(first).toMatchObject({ status: 'active', plan: { name: 'Studio membership', amount: 8900, interval_unit: 'months', interval_count: 1 } });
    const dueAt = first.current_period_end as string;
    const days = (new Date(dueAt).getTime() - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    // The renewal job is queued for the period's end; run at that time (and run twice), it bills once.
    const job = { organizationId, subscriptionId, dueAt };
    const at = new Date(new Date(dueAt).getTime() + 1000);
    const renew = (j: typeof job, now: Date) => t.withEm(() => t.created.app.get(SubscriptionsService).renewDemo(j, now));
    await renew(job, at);
    await renew(job, at);
    const renewed = await admin(`/api/admin/subscription/${subscriptionId}`);
    expect(renewed.subscription_invoices).toHaveLength(2);
    expect(renewed.subscription_invoices[0]).toMatchObject({ amount: 8900, paid_at: new Date(dueAt).toISOString() });
    expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(new Date(dueAt).getTime() + 27 * 86400_000);
    // Not yet due: nothing billed.
    await renew({ ...job, dueAt: renewed.current_period_end }, new Date());
    expect((await admin(`/api/admin/subscription/${subscriptionId}`)).subscription_invoices).toHaveLength(2);
  });

  it('lead magnet: the email alone creates the student, mails the download and feeds the mailing lists', async () => {
    const id = await product({ productName: 'Clay guide', priceType: 'leadMagnet', amount: 0, downloadUrl: 'https://files.example.test/clay-guide.pdf' });
    const email = `Lead.${Date.now()}@Example.test`;
    const res = await checkout({ product_id: id, email }).expect(201);
    expect(res.body).toMatchObject({ status: 'paid', total_cents: 0, payment_url: null });
    const [mail] = await eventually(() => smtp.to(email.toLowerCase()), (m) => m.length === 1);
    expect(mail.subject).toBe('Your download: Clay guide');
    expect(mail.text).toContain('https://files.example.test/clay-guide.pdf');
    const order = await admin(`/api/admin/order/${res.body.order_id}`);
    expect(order).toMatchObject({ status: 'paid', total: 0, Student: { email: email.toLowerCase() } });
    const [created] = await t.withEm((em) =>
      em.getConnection().execute(`select count(*)::int as n from outbox_message where type = 'student.created' and payload->>'studentId' = ?`, [order.Student.student_id]),
    );
    expect(created.n).toBeGreaterThan(0);
    // Asked again: the same student, the mail again (a second order), no second student.
    await checkout({ product_id: id, email: email.toUpperCase() }).expect(201);
    const [students] = await t.withEm((em) =>
      em.getConnection().execute(`select count(*)::int as n from student where organization_id = ? and email = ?`, [organizationId, email.toLowerCase()]),
    );
    expect(students.n).toBe(1);
  });

  it('refuses what cannot be bought: another studio’s, unpublished, both or neither item, a code, no name for a paid product', async () => {
    const other = await t.organizationWithUser('owner', 'Elsewhere');
    const theirs = await product({}, other.token);
    const draft = await product({ status: 'draft' });
    const mine = await product({});
    for (const id of [theirs, draft, '00000000-0000-4000-8000-000000000000']) {
      expect((await checkout({ product_id: id, ...buyer() }).expect(404)).body).toEqual({ statusCode: 404, message: M.productNotFound });
    }
    const eventId = '00000000-0000-4000-8000-000000000001';
    expect((await checkout({ product_id: mine, event_id: eventId, ...buyer() }).expect(400)).body.errors).toEqual({ product_id: M.oneItem });
    expect((await checkout({ ...buyer() }).expect(400)).body.errors).toEqual({ event_id: M.nothingChosen });
    expect((await checkout({ product_id: mine, discount_code: 'SAVE10', ...buyer() }).expect(400)).body.errors).toEqual({ discount_code: M.codeCoursesOnly });
    expect((await checkout({ product_id: mine, party_size: 2, ...buyer() }).expect(400)).body.errors).toEqual({ party_size: M.productQuantity });
    const noName = await checkout({ product_id: mine, email: 'a@b.test' }).expect(400);
    expect(Object.keys(noName.body.errors)).toEqual(['first_name', 'last_name']);
  });

  it('a replay with the same Idempotency-Key answers the first checkout, with no second order', async () => {
    const id = await product({ amount: 1500 });
    const body = { product_id: id, ...buyer() };
    const first = await checkout(body, 'product-key-1').expect(201);
    const again = await checkout(body, 'product-key-1').expect(201);
    expect(again.body).toEqual(first.body);
    const [orders] = await t.withEm((em) =>
      em.getConnection().execute(`select count(*)::int as n from customer_order o join student s on s.id = o.student_id where s.email = ?`, [body.email.toLowerCase()]),
    );
    expect(orders.n).toBe(1);
  });
});
