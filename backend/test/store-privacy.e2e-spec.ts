import {
  CHECKOUT_MESSAGES as M,
  formatCents,
  STORE_REFUSALS,
  STORE_WAIVER_MESSAGES as W,
  WAITLIST_MESSAGES as WL,
} from '@studio/contracts';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

/**
 * The public store tells strangers nothing about people (issue 31, item 4). Anonymous calls with
 * another student's email (Felix's, stored as "Felix Stored") are compared with the same calls for
 * an email nobody has: the order page and its mails show the name typed for that order, the
 * student's stored name is never shown nor changed; the waiver call answers alike and creates no
 * student; a pending payment, a seat or a waitlist entry of the email changes no answer where the
 * seats decide, and no answer speaks of the student.
 */
describe('store privacy: the same answers whatever the email', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let slug: string;
  let organizationId: string;
  let plain: Awaited<ReturnType<typeof schedulableCourse>>;
  let waivered: Awaited<ReturnType<typeof schedulableCourse>>;
  let days = 3;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-store-privacy-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Privacy Pottery');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    plain = await schedulableCourse(t, token, 10, { name: 'Open studio' });
    const waiver = await t.http
      .post('/api/admin/waiver')
      .set('token', token)
      .send({ name: 'Studio waiver', body: 'I will follow the studio rules.' })
      .expect(201);
    waivered = await schedulableCourse(t, token, 10, { name: 'Raku night', selected_waiver: waiver.body.template_id });
  }, 120000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** A student of the studio with a stored name, as the admin added them. */
  const felix = async () => {
    const email = `felix.${++serial}.${Date.now()}@example.test`;
    const id = await addStudent(t, token, { first_name: 'Felix', last_name: 'Stored', email });
    return { id, email };
  };
  const fresh = () => `nobody.${++serial}.${Date.now()}@example.test`;
  const session = (course = plain, options: { capacity?: number; price?: number } = {}) =>
    scheduleSession(t, token, course, { capacity: 10, price: 3000, daysFromNow: days++, ...options });
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const pay = (paymentUrl: string) => t.http.post(`${new URL(paymentUrl).pathname}/pay`).type('form').send('').expect(200);
  const orderPage = async (confirmationUrl: string) => {
    const u = new URL(confirmationUrl);
    return (
      await t.http
        .get(`/api/public/${slug}/orders/${u.searchParams.get('order')}?token=${u.searchParams.get('token')}`)
        .expect(200)
    ).body;
  };
  const startWaiver = (body: object) => t.http.post(`/api/public/${slug}/waiver`).send(body).expect(200);
  const sign = (signingUrl: string, name: string) =>
    t.http.post(new URL(signingUrl).pathname).set('accept', 'text/html').type('form').send({ signer_name: name }).expect(200);
  const students = (email: string) =>
    t.withEm((em) =>
      em.getConnection().execute<{ first_name: string; last_name: string }[]>(
        `select first_name, last_name from student where organization_id = ? and email = ?`,
        [organizationId, email.toLowerCase()],
      ),
    );
  const studentCount = async () =>
    Number(
      (
        await t.withEm((em) =>
          em.getConnection().execute<{ n: string }[]>(`select count(*) as n from student where organization_id = ?`, [organizationId]),
        )
      )[0].n,
    );
  /** An answer with its one-off parts (a signing page's id, a token) named, to compare two answers. */
  const shape = (body: { signed: boolean; signing_url: string | null; waiver_token: string }) => ({
    ...body,
    signing_url: body.signing_url?.replace(/dsub_[0-9a-f]{32}$/, 'dsub_<id>') ?? null,
    waiver_token: /^[A-Za-z0-9_-]{43}$/.test(body.waiver_token) ? '<token>' : body.waiver_token,
  });

  it("two anonymous checkouts with a student's email: each order page and confirmation shows the name typed for it; the stored name is never shown nor changed", async () => {
    const { email } = await felix();
    const mallory = await checkout({ event_id: await session(), first_name: 'Mallory', last_name: 'Typed', email }).expect(201);
    const trudy = await checkout({ event_id: await session(), first_name: 'Trudy', last_name: 'Other', email: email.toUpperCase() }).expect(201);

    expect((await orderPage(mallory.body.confirmation_url)).buyer).toEqual({ first_name: 'Mallory', email });
    expect((await orderPage(trudy.body.confirmation_url)).buyer).toEqual({ first_name: 'Trudy', email: email.toUpperCase() });
    // Paid, the confirmation (mailed to the email's owner) greets the name typed for that order.
    await pay(mallory.body.payment_url);
    const [booked] = await eventually(() => smtp.to(email), (m) => m.some((x) => x.subject?.startsWith("You're booked")));
    expect(booked.text).toContain('Hello Mallory,');
    expect(booked.text).not.toContain('Felix');
    expect((await orderPage(mallory.body.confirmation_url)).buyer.first_name).toBe('Mallory');
    expect(await students(email)).toEqual([{ first_name: 'Felix', last_name: 'Stored' }]);
  });

  it("a gift card bought with a student's email: the recipient is told the name typed, not the stored one", async () => {
    const { email } = await felix();
    const product = (
      await t.http
        .post('/api/admin/products')
        .set('token', token)
        .send({ productName: 'Gift card $20', productDescription: 'A card.', priceType: 'oneTime', amount: 2000, grant: 'giftCard' })
        .expect(201)
    ).body.product_id as string;
    const own = fresh();
    const bought = await checkout({
      product_id: product,
      first_name: 'Mallory',
      last_name: 'Typed',
      email,
      recipient_name: 'Mallory Inbox',
      recipient_email: own,
    }).expect(201);
    expect((await orderPage(bought.body.confirmation_url)).buyer.first_name).toBe('Mallory');
    await pay(bought.body.payment_url);
    const [card] = await eventually(() => smtp.to(own), (m) => m.length >= 1);
    expect(card.subject).toBe(`Mallory Typed sent you a ${formatCents(2000)} gift card`);
    expect(card.text).not.toContain('Felix');
    expect(await students(email)).toEqual([{ first_name: 'Felix', last_name: 'Stored' }]);
  });

  it('the waiver call answers alike for an email that signed and one that never did, and creates no student', async () => {
    // Felix signed the waiver in his own checkout, and is booked.
    const { email } = await felix();
    const first = await session(waivered);
    const his = (await startWaiver({ event_id: first, first_name: 'Felix', last_name: 'Stored', email })).body;
    await sign(his.signing_url, 'Felix Stored');
    const booked = await checkout({ event_id: first, first_name: 'Felix', last_name: 'Stored', email, waiver_token: his.waiver_token }).expect(201);
    await pay(booked.body.payment_url);

    const eventId = await session(waivered);
    const before = await studentCount();
    const nobody = fresh();
    const forFelix = (await startWaiver({ event_id: eventId, first_name: 'Mallory', last_name: 'Typed', email })).body;
    const forNobody = (await startWaiver({ event_id: eventId, first_name: 'Mallory', last_name: 'Typed', email: nobody })).body;
    expect(shape(forFelix)).toEqual(shape(forNobody));
    expect(shape(forFelix)).toEqual({ signed: false, signing_url: 'http://studio.test/api/sign/demo/dsub_<id>', waiver_token: '<token>' });
    // No student was made for the new email; the signed student was not told apart.
    expect(await students(nobody)).toEqual([]);
    expect(await studentCount()).toBe(before);
    // Nor does the checkout skip the signature for the email that signed: the same refusal as for anyone.
    const felixUnsigned = await checkout({ event_id: eventId, first_name: 'Mallory', last_name: 'Typed', email }).expect(400);
    const nobodyUnsigned = await checkout({ event_id: eventId, first_name: 'Mallory', last_name: 'Typed', email: nobody }).expect(400);
    expect(felixUnsigned.body).toEqual(nobodyUnsigned.body);
    expect(felixUnsigned.body).toMatchObject({ message: W.notSigned, errors: { waiver_token: W.notSigned } });
    // A token started for one email does not book another.
    await sign(forNobody.signing_url, 'Mallory Typed');
    const other = await checkout({ event_id: eventId, first_name: 'Mallory', last_name: 'Typed', email, waiver_token: forNobody.waiver_token }).expect(400);
    expect(other.body.message).toBe(W.tokenInvalid);
    expect(await students(nobody)).toEqual([]);
  });

  it("a pending payment or a seat of the email: the checkout answers as for a new email where the seats decide, never in words about the student", async () => {
    const { id, email } = await felix();
    const eventId = await session(plain, { capacity: 3 });
    // The studio sent Felix a payment link: a seat waits for his payment.
    await t.http.post(`/api/admin/orders/invoice/${id}`).set('token', token).send({ event_id: eventId }).expect(201);
    const buyer = { first_name: 'Mallory', last_name: 'Typed' };

    // Seats left: the store refuses to hold more for that email, in words that name nobody.
    const pending = await checkout({ event_id: eventId, ...buyer, email }).expect(409);
    const neutral = STORE_REFUSALS.seatsNotHeld;
    expect(pending.body).toEqual({ statusCode: 409, message: neutral.message, errors: { [neutral.field]: neutral.message } });
    expect(JSON.stringify(pending.body)).not.toMatch(/student|payment link|waiting|enrolled/i);
    // A seat of the email (paid) answers the very same.
    const ana = fresh();
    const anas = await checkout({ event_id: eventId, ...buyer, email: ana }).expect(201);
    await pay(anas.body.payment_url);
    expect((await checkout({ event_id: eventId, ...buyer, email: ana }).expect(409)).body).toEqual(pending.body);

    // Sold out: the email with a pending payment is told what a new email is told.
    await checkout({ event_id: eventId, ...buyer, email: fresh() }).expect(201);
    const felixFull = await checkout({ event_id: eventId, ...buyer, email }).expect(409);
    const nobodyFull = await checkout({ event_id: eventId, ...buyer, email: fresh() }).expect(409);
    expect(felixFull.body).toEqual(nobodyFull.body);
    expect(felixFull.body).toEqual({ statusCode: 409, message: M.soldOut, errors: { party_size: M.soldOut } });
    expect(await students(email)).toEqual([{ first_name: 'Felix', last_name: 'Stored' }]);
  });

  it('the waitlist join answers the same for an email already waiting and a new one, and keeps the entry as it was', async () => {
    const { email } = await felix();
    const eventId = await session(plain, { capacity: 1 });
    await t.http.post(`/api/admin/orders/enroll/${await addStudent(t, token)}`).set('token', token).send({ event_id: eventId }).expect(201);
    const join = (body: object) => t.http.post(`/api/public/${slug}/sessions/${eventId}/waitlist`).send(body).expect(200);
    await join({ name: 'Felix Stored', email, party_size: 1 });

    const nobody = fresh();
    const again = (await join({ name: 'Mallory Typed', email: email.toUpperCase(), party_size: 1 })).body;
    const first = (await join({ name: 'Mallory Typed', email: nobody, party_size: 1 })).body;
    expect(again).toEqual(first);
    expect(again).toEqual({ status: 'joined', message: WL.joined, party_size: 1 });
    const entries = (await t.http.get(`/api/admin/events/${eventId}/waitlist`).set('token', token).expect(200)).body.entries;
    expect(entries.map((e: { name: string; email: string }) => [e.name, e.email])).toEqual([
      ['Felix Stored', email],
      ['Mallory Typed', nobody],
    ]);
    // The entry's owner, not the asker, learns that their email asked again.
    const mails = await eventually(() => smtp.to(email), (m) => m.some((x) => x.subject?.startsWith("You're already on the waitlist")));
    expect(mails.find((m) => m.subject?.startsWith("You're already on the waitlist"))!.text).toContain('your place is kept');
  });
});
