import { CHECKOUT_MESSAGES as M, DISCOUNT_CASE_BASE } from '@studio/contracts';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

/**
 * The store's checkout of a session (issue 21), through the public API as a buyer's browser calls
 * it, with the demo payment provider: the party priced on the server with a discount code, its
 * seats held while the buyer pays, paid or abandoned, the confirmation mail, the order's page for
 * whoever holds its token, and a rush of buyers on the last seats.
 */
describe('store checkout (demo provider)', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let slug: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-checkout-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Checkout Ceramics');
    token = owner.token;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    course = await schedulableCourse(t, token, 10, {
      name: 'Raku firing',
      auto_email: 'Wear closed shoes and bring a towel.',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const buyer = () => ({
    first_name: 'Rosa',
    last_name: `Buyer${++serial}`,
    email: `Rosa.Buyer${serial}.${Date.now()}@Example.test`,
  });
  const quote = (body: object) => t.http.post(`/api/public/${slug}/checkout/quote`).send(body);
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const code = async (patch: object) =>
    t.http
      .post('/api/admin/promo-code')
      .set('token', token)
      .send({
        ...DISCOUNT_CASE_BASE,
        code: `STORE${++serial}`,
        start_date: null,
        expiration_date: null,
        ...patch,
      })
      .expect(201)
      .then((res) => res.body.code as string);
  const pagePath = (url: string) => new URL(url).pathname;
  const orderPage = (url: string) => {
    const u = new URL(url);
    return t.http.get(
      `/api/public/${slug}/orders/${u.searchParams.get('order')}?token=${u.searchParams.get('token')}`,
    );
  };
  const seatsLeft = async (eventId: string) =>
    (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200)).body.sessions.find(
      (s: { event_id: string }) => s.event_id === eventId,
    ).seats_left as number;

  it('prices a party on the server with a discount code, and says why a code gives nothing', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 6, price: 4000 });
    const plain = await quote({ event_id: eventId, party_size: 3 }).expect(200);
    expect(plain.body).toMatchObject({
      subtotal_cents: 12000,
      discount_cents: 0,
      total_cents: 12000,
      discount_code: null,
      seats_left: 6,
    });

    const each = await code({ type: 'dollar', value: 500, apply_logic: 'each' });
    const priced = await quote({
      event_id: eventId,
      party_size: 3,
      discount_code: each.toLowerCase(),
    }).expect(200);
    expect(priced.body).toMatchObject({
      subtotal_cents: 12000,
      discount_cents: 1500,
      total_cents: 10500,
      discount_code: each,
    });

    const expired = await code({
      start_date: '2020-01-01T00:00:00.000Z',
      expiration_date: '2020-02-01T00:00:00.000Z',
    });
    const later = await code({
      start_date: '2099-01-01T00:00:00.000Z',
      expiration_date: '2099-02-01T00:00:00.000Z',
    });
    const other = await schedulableCourse(t, token, 4);
    const elsewhere = await code({ activity_id: other.activity_id });
    for (const [typed, message] of [
      ['NO-SUCH-CODE', M.codeUnknown],
      [expired, M.codeExpired],
      [later, M.codeNotYet],
      [elsewhere, M.codeOtherCourse],
    ]) {
      const res = await quote({ event_id: eventId, discount_code: typed }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message, errors: { discount_code: message } });
    }
    const big = await quote({ event_id: eventId, party_size: 21 }).expect(400);
    expect(big.body.errors).toEqual({ party_size: M.partySize });
  });

  it('holds the party’s seats while the buyer pays; paid, it books them with guests and mails the confirmation', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 5, price: 4500, daysFromNow: 10 });
    const who = buyer();
    const discount = await code({ type: 'percentage', value: 10, apply_logic: 'once' });
    const res = await checkout({ event_id: eventId, party_size: 2, discount_code: discount, ...who }).expect(
      201,
    );
    expect(res.body).toMatchObject({
      status: 'pending',
      total_cents: 8100,
      payment_url: expect.stringMatching(/\/api\/pay\/demo\/dcs_/),
    });
    expect(res.body.confirmation_url).toMatch(
      new RegExp(
        `^http://studio\\.test/s/${slug}/checkout/complete\\?order=[0-9a-f-]{36}&token=[A-Za-z0-9_-]{43}$`,
      ),
    );
    expect(await seatsLeft(eventId)).toBe(3);

    // The order's page: pending, for the token's holder only.
    expect((await orderPage(res.body.confirmation_url).expect(200)).body).toMatchObject({
      status: 'pending',
      total_cents: 8100,
      discount_cents: 900,
    });
    const wrong = new URL(res.body.confirmation_url);
    wrong.searchParams.set('token', 'A'.repeat(43));
    expect((await orderPage(wrong.href).expect(404)).body).toEqual({
      statusCode: 404,
      message: M.orderNotFound,
    });

    await t.http
      .post(`${pagePath(res.body.payment_url)}/pay`)
      .type('form')
      .send('')
      .expect(200);
    const page = (await orderPage(res.body.confirmation_url).expect(200)).body;
    expect(page).toMatchObject({
      status: 'paid',
      // The buyer as typed for this order (issue 31), its email's case too.
      buyer: { first_name: 'Rosa', email: who.email },
      lines: [{ quantity: 2, unit_price_cents: 4500, discount_cents: 900 }],
      session: { party_size: 2, timezone: 'America/New_York', location_name: 'Main studio' },
    });

    // The admin sees the student with one guest, linked to the store order (source workbench).
    const enrollments = (
      await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)
    ).body.enrollments;
    expect(enrollments).toHaveLength(1);
    expect(enrollments[0]).toMatchObject({
      guestCount: 1,
      Student: { email: who.email.toLowerCase() },
      Order: { order_id: res.body.order_id },
    });
    const order = (await t.http.get(`/api/admin/order/${res.body.order_id}`).set('token', token).expect(200))
      .body;
    expect(order).toMatchObject({ status: 'paid', source: 'workbench', total: 8100 });
    expect(await seatsLeft(eventId)).toBe(3);

    // The confirmation: the course's own text, the time in the location's zone, a calendar file.
    const [mail] = await eventually(
      () => smtp.to(who.email.toLowerCase()),
      (m) => m.length === 1,
    );
    expect(mail.subject).toBe("You're booked: Raku firing");
    expect(mail.text).toContain('Wear closed shoes and bring a towel.');
    expect(mail.text).toMatch(/When: .* 6:00 PM E[SD]T/);
    expect(mail.text).toContain('2 seats');
    const ics = mail.attachments.find((a) => a.filename === 'booking.ics');
    expect(ics?.contentType).toContain('text/calendar');
    expect(ics?.content.toString()).toMatch(/BEGIN:VEVENT[\s\S]*SUMMARY:Raku firing[\s\S]*END:VEVENT/);
  });

  it('frees an abandoned checkout’s seats, and a replayed payment changes nothing', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 3, price: 2000, daysFromNow: 11 });
    const res = await checkout({ event_id: eventId, party_size: 3, ...buyer() }).expect(201);
    expect(await seatsLeft(eventId)).toBe(0);
    expect((await checkout({ event_id: eventId, ...buyer() }).expect(409)).body).toMatchObject({
      message: M.soldOut,
    });
    await t.http
      .post(`${pagePath(res.body.payment_url)}/cancel`)
      .type('form')
      .send('')
      .expect(200);
    expect(await seatsLeft(eventId)).toBe(3);
    expect((await orderPage(res.body.confirmation_url).expect(200)).body.status).toBe('failed');
    // A late Pay on the cancelled page books nothing.
    await t.http
      .post(`${pagePath(res.body.payment_url)}/pay`)
      .type('form')
      .send('');
    expect(await seatsLeft(eventId)).toBe(3);
  });

  it('refunds at once a payment that completes after its hold ran out and the seats were taken; no confirmation', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 2, price: 2500, daysFromNow: 15 });
    const late = buyer();
    const res = await checkout({ event_id: eventId, party_size: 2, ...late }).expect(201);
    await t.withEm((em) =>
      em.getConnection().execute(`update seat_hold set expires_at = ? where order_id = ?`, [new Date(Date.now() - 1000), res.body.order_id]),
    );
    await checkout({ event_id: eventId, party_size: 2, ...buyer() }).expect(201);
    await t.http.post(`${pagePath(res.body.payment_url)}/pay`).type('form').send('').expect(200);
    const order = (await t.http.get(`/api/admin/order/${res.body.order_id}`).set('token', token).expect(200)).body;
    expect(order).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    expect((await orderPage(res.body.confirmation_url).expect(200)).body.status).toBe('refunded');
    expect(await seatsLeft(eventId)).toBe(0);
    const enrollments = (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments;
    expect(enrollments.map((e: { Student: { email: string } }) => e.Student.email)).not.toContain(late.email.toLowerCase());
    // No confirmation; the buyer is told the payment is being refunded (issue 31: every money movement mails).
    const [refundMail] = await eventually(() => smtp.to(late.email.toLowerCase()), (m) => m.length >= 1);
    expect(refundMail.subject).toBe('Your payment for Raku firing is being refunded');
    expect(smtp.to(late.email.toLowerCase()).map((m) => m.subject)).toEqual([refundMail.subject]);
  });

  it('books a free session at once, with no payment', async () => {
    const free = await schedulableCourse(t, token, 4, { name: 'Open studio', priceType: 'free', price: 0 });
    const eventId = await scheduleSession(t, token, free, { capacity: 4, daysFromNow: 5 });
    const who = buyer();
    const res = await checkout({ event_id: eventId, party_size: 2, ...who }).expect(201);
    expect(res.body).toMatchObject({
      status: 'paid',
      total_cents: 0,
      payment_url: null,
      hold_expires_at: null,
    });
    const enrollments = (
      await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)
    ).body.enrollments;
    expect(enrollments).toEqual([expect.objectContaining({ guestCount: 1 })]);
    await eventually(
      () => smtp.to(who.email.toLowerCase()),
      (m) => m.length === 1,
    );
  });

  it('answers a rush on the last seats with Sold out or Only N seats left, never overbooking', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 5, price: 1500, daysFromNow: 12 });
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => checkout({ event_id: eventId, party_size: 2, ...buyer() })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect([M.soldOut, M.onlyLeft(1)]).toContain(refused.body.message);
    expect(await seatsLeft(eventId)).toBe(1);
  });

  it('keeps an idempotent checkout: the same key and body answer the first answer; another body 422', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 8, price: 1000, daysFromNow: 13 });
    const body = { event_id: eventId, party_size: 1, ...buyer() };
    const first = await checkout(body).set('Idempotency-Key', `store-${serial}`).expect(201);
    const again = await checkout(body).set('Idempotency-Key', `store-${serial}`).expect(201);
    expect(again.body).toEqual(first.body);
    expect(await seatsLeft(eventId)).toBe(7);
    await checkout({ ...body, party_size: 2 })
      .set('Idempotency-Key', `store-${serial}`)
      .expect(422);
  });

  it('refuses another organization’s session under this store, and an unknown store', async () => {
    const other = await t.organizationWithUser('owner', 'Elsewhere Glass');
    const theirs = await schedulableCourse(t, other.token);
    const theirEvent = await scheduleSession(t, other.token, theirs);
    const res = await checkout({ event_id: theirEvent, ...buyer() }).expect(404);
    expect(res.body).toEqual({ statusCode: 404, message: M.sessionNotFound });
    await t.http
      .post('/api/public/no-such-store-xyz/checkout')
      .send({ event_id: theirEvent, ...buyer() })
      .expect(404);
  });
});
