import { CREDIT_MESSAGES, POLICY_IDS, REFUND_MESSAGES, type Wallet } from '@studio/contracts';
import { BookingLinksService } from '../src/modules/booking-links/booking-links.service';
import { UsersService } from '../src/modules/identity/users.service';
import { DemoPayment, DemoRefund } from '../src/modules/payments/demo/demo-ledger.entities';
import { WalletService } from '../src/modules/wallet/wallet.service';
import { startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TEST_PASSWORD, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
const HOUR = 3600_000;

/**
 * Refunds to store credit and cancellations that give a membership or pack use back (issue 24,
 * brief R), through the admin and public APIs with the demo provider: the admin refund (full,
 * partial, a retried key once), wallet money an order used refunded first, Remove student to credit
 * and its use, the manage link inside and outside the policy, the studio's session cancel, tenancy
 * and staff. A booking covered by a pack is made with WalletService directly (the store's covered
 * checkout is another brief's).
 */
describe('refunds to store credit', () => {
  let smtp: Smtp;
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };
  let staffToken: string;
  let slug: string;
  let slugB: string;
  let wallet: WalletService;
  let links: BookingLinksService;
  let serial = 0;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let courseB: Awaited<ReturnType<typeof schedulableCourse>>;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-wallet-credit-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const ownerA = await t.organizationWithUser('owner', 'Credit Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Other Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
    slug = (await t.http.get('/api/admin/org').set('token', a.token).expect(200)).body.slug;
    slugB = (await t.http.get('/api/admin/org').set('token', b.token).expect(200)).body.slug;
    // Credit Ceramics has a payment method on file (card refunds need one); Other Glass has none.
    const setup = await t.http.post('/api/admin/payment-methods/setup').set('token', a.token).expect(200);
    await t.http.post(`${new URL(setup.body.url).pathname}/pay`).type('form').send('').expect(200);
    const staff = await t.withEm(() =>
      t.created.app.get(UsersService).create({
        email: `staff.credit.${Date.now()}@example.test`,
        password: TEST_PASSWORD,
        role: 'staff',
        organizationId: a.organizationId,
        firstName: 'Sam',
        lastName: 'Staff',
      }),
    );
    staffToken = await t.login(staff.email);
    wallet = t.created.app.get(WalletService);
    links = t.created.app.get(BookingLinksService);
    course = await schedulableCourse(t, a.token, 10, { name: 'Wheel basics', cancel_policy_id: POLICY_IDS.flexible });
    courseB = await schedulableCourse(t, b.token, 10, { name: 'Glass basics' });
  }, 120000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const buyer = () => ({ first_name: 'Rosa', last_name: `Buyer${++serial}`, email: `rosa.credit${serial}.${Date.now()}@example.test` });
  const order = async (orderId: string, token = a.token) => (await t.http.get(`/api/admin/order/${orderId}`).set('token', token).expect(200)).body;
  const walletOf = async (studentId: string, token = a.token) =>
    (await t.http.get(`/api/admin/student/${studentId}/wallet`).set('token', token).expect(200)).body as Wallet;
  const credit = async (studentId: string) => (await walletOf(studentId)).holdings.filter((h) => h.kind === 'store_credit');
  const providerRefunds = (paymentIntentId: string) =>
    t.withEm(async (em) => ({
      cents: (await em.findOneOrFail(DemoPayment, { id: paymentIntentId }, { refresh: true })).refundedCents,
      count: await em.count(DemoRefund, { paymentId: paymentIntentId }),
    }));
  const refund = (orderId: string, body: object, token = a.token, key?: string) => {
    const req = t.http.post(`/api/admin/order/${orderId}/refund`).set('token', token);
    if (key) req.set('Idempotency-Key', key);
    return req.send(body);
  };

  /** A seat bought at the store and paid on the demo page; answers the order, its student and enrollment, and its manage token. */
  async function bought(options: { price?: number; daysFromNow?: number; eventId?: string; store?: string; token?: string; course?: typeof course } = {}) {
    const token = options.token ?? a.token;
    const eventId =
      options.eventId ?? (await scheduleSession(t, token, options.course ?? course, { capacity: 6, price: options.price ?? 9000, daysFromNow: options.daysFromNow ?? 40 }));
    const who = buyer();
    const res = await t.http
      .post(`/api/public/${options.store ?? slug}/checkout`)
      .send({ event_id: eventId, party_size: 1, ...who })
      .expect(201);
    await t.http.post(`${new URL(res.body.payment_url).pathname}/pay`).type('form').send('').expect(200);
    await t.settle();
    const paid = await order(res.body.order_id, token);
    expect(paid.status).toBe('paid');
    const enrollments = (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments as {
      enrollment_id: string;
      Student: { email: string };
    }[];
    const enrollmentId = enrollments.find((e) => e.Student.email === who.email.toLowerCase())!.enrollment_id;
    return {
      eventId,
      enrollmentId,
      orderId: res.body.order_id as string,
      studentId: paid.Student.student_id as string,
      paymentIntentId: paid.stripe_payment_intent_id as string,
      total: paid.total as number,
      manage: await links.tokenFor('enrollment', enrollmentId),
    };
  }

  /** A student enrolled by the admin (a $0.00 order), the seat covered by a 5-class pack's credit (as the store's covered booking writes it). */
  async function covered(options: { daysFromNow?: number; eventId?: string } = {}) {
    const eventId = options.eventId ?? (await scheduleSession(t, a.token, course, { capacity: 6, daysFromNow: options.daysFromNow ?? 40 }));
    const studentId = await addStudent(t, a.token, buyer());
    await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', a.token).send({ event_id: eventId }).expect(201);
    const enrollments = (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', a.token).expect(200)).body.enrollments as {
      enrollment_id: string;
      Student: { student_id?: string; email: string };
    }[];
    const enrollmentId = enrollments[enrollments.length - 1].enrollment_id;
    const pack = await wallet.grant({ organizationId: a.organizationId, studentId, kind: 'pack', label: '5-class pack', amount: 5 });
    await wallet.use({ organizationId: a.organizationId, studentId, holdingId: pack.holdingId, enrollmentId });
    return { eventId, enrollmentId, studentId, holdingId: pack.holdingId, manage: await links.tokenFor('enrollment', enrollmentId) };
  }
  const packLeft = async (studentId: string, holdingId: string) => (await walletOf(studentId)).holdings.find((h) => h.holding_id === holdingId)!.balance;
  const enrollmentStatus = (enrollmentId: string) =>
    t.withEm(async (em) => (await em.getConnection().execute<{ status: string }[]>(`select status from enrollment where id = ?`, [enrollmentId]))[0].status);

  describe('the admin refund', () => {
    it('refunds the whole order to store credit at once: no provider call, the ledger says Store credit, the order is refunded', async () => {
      const seat = await bought();
      const res = await refund(seat.orderId, { refund_to: 'store_credit', reason: 'Prefers credit' }).expect(200);
      expect(res.body).toMatchObject({ status: 'refunded', refunded_amount: 9000 });
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 0, count: 0 });
      expect(res.body.refunds).toEqual([expect.objectContaining({ amount: 9000, refund_to: 'store_credit', status: 'succeeded' })]);
      const [holding] = await credit(seat.studentId);
      expect(holding).toMatchObject({ label: 'Store credit', unit: 'cents', balance: 9000, status: 'active' });
      // Loyalty follows: order.refunded was announced (a full refund).
      const events = await t.withEm((em) =>
        em
          .getConnection()
          .execute<{ event_id: string }[]>(`select distinct event_id from outbox_message where payload->>'orderId' = ? and type = 'order.refunded'`, [seat.orderId]),
      );
      expect(events).toHaveLength(1);
      // Nothing is left to refund, to either destination.
      await refund(seat.orderId, { refund_to: 'store_credit' }).expect(409);
    });

    it('partial refunds top up the one store-credit holding; a retried key refunds once', async () => {
      const seat = await bought();
      await refund(seat.orderId, { amount: 1000, refund_to: 'store_credit' }, a.token, 'credit-key-1').expect(200);
      await refund(seat.orderId, { amount: 1000, refund_to: 'store_credit' }, a.token, 'credit-key-1').expect(200);
      const after = await order(seat.orderId);
      expect(after).toMatchObject({ status: 'partial_refund', refunded_amount: 1000 });
      await refund(seat.orderId, { amount: 500, refund_to: 'store_credit' }, a.token, 'credit-key-2').expect(200);
      const holdings = await credit(seat.studentId);
      expect(holdings).toHaveLength(1);
      expect(holdings[0].balance).toBe(1500);
      // A card refund of the rest still asks the provider.
      await refund(seat.orderId, {}).expect(200);
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 7500, count: 1 });
      expect((await order(seat.orderId)).status).toBe('refunded');
    });

    it('staff refund to store credit as they refund to the card; bad destinations are 400 and change nothing', async () => {
      const seat = await bought();
      const bad = await refund(seat.orderId, { refund_to: 'cash' }).expect(400);
      expect(bad.body.errors).toEqual({ refund_to: CREDIT_MESSAGES.refundToInvalid });
      expect(await order(seat.orderId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
      await refund(seat.orderId, { amount: 700, refund_to: 'store_credit' }, staffToken).expect(200);
      expect((await credit(seat.studentId))[0].balance).toBe(700);
    });

    it('needs no payment method on file; another organization answers 404', async () => {
      const seat = await bought({ store: slugB, token: b.token, course: courseB });
      // Other Glass has no card on file: the card is refused, store credit is made.
      const refused = await refund(seat.orderId, {}, b.token).expect(409);
      expect(refused.body.message).toBe(REFUND_MESSAGES.noPaymentMethod);
      await refund(seat.orderId, { refund_to: 'store_credit' }, a.token).expect(404);
      await refund(seat.orderId, { refund_to: 'store_credit' }, b.token).expect(200);
      expect((await walletOf(seat.studentId, b.token)).holdings[0]).toMatchObject({ kind: 'store_credit', balance: 9000 });
    });

    it('gift-card money an order used comes back to the gift card when the whole order is refunded; the provider is asked for the rest', async () => {
      const seat = await bought();
      const gift = await wallet.grant({ organizationId: a.organizationId, studentId: seat.studentId, kind: 'gift_card', label: 'Gift card', amount: 5000 });
      await wallet.use({ organizationId: a.organizationId, studentId: seat.studentId, holdingId: gift.holdingId, orderId: seat.orderId, amount: 3000 });
      await refund(seat.orderId, {}).expect(200);
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 6000, count: 1 });
      const w = await walletOf(seat.studentId);
      expect(w.holdings.find((h) => h.holding_id === gift.holdingId)!.balance).toBe(5000);
      expect(w.holdings.filter((h) => h.kind === 'store_credit')).toEqual([]);
      expect(await order(seat.orderId)).toMatchObject({ status: 'refunded', refunded_amount: 9000 });
    });

    it('a partial refund of such an order gives the wallet-paid part back as store credit first', async () => {
      const seat = await bought();
      const gift = await wallet.grant({ organizationId: a.organizationId, studentId: seat.studentId, kind: 'gift_card', label: 'Gift card', amount: 5000 });
      await wallet.use({ organizationId: a.organizationId, studentId: seat.studentId, holdingId: gift.holdingId, orderId: seat.orderId, amount: 3000 });
      await refund(seat.orderId, { amount: 4000 }).expect(200);
      // $30.00 was gift-card money: store credit; $10.00 to the card.
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 1000, count: 1 });
      expect((await credit(seat.studentId))[0].balance).toBe(3000);
      expect((await walletOf(seat.studentId)).holdings.find((h) => h.holding_id === gift.holdingId)!.balance).toBe(2000);
      expect(await order(seat.orderId)).toMatchObject({ status: 'partial_refund', refunded_amount: 4000 });
    });
  });

  describe('Remove student', () => {
    it('refunds to store credit and removes the student; the quote says what goes where', async () => {
      const seat = await bought();
      const quote = (await t.http.get(`/api/admin/enrollment/${seat.enrollmentId}/refund-quote`).set('token', a.token).expect(200)).body;
      expect(quote).toMatchObject({ refundable: 9000, credit_refusal: null, wallet_paid_cents: 0, use: null });
      expect(quote.outcomes).toEqual({ card: '$90.00 back to the card.', store_credit: '$90.00 as store credit.' });
      await t.http
        .delete(`/api/admin/enrollment/${seat.enrollmentId}`)
        .set('token', a.token)
        .send({ refund: { amount: 4500, reason: 'Schedule conflict', refund_to: 'store_credit' } })
        .expect(204);
      expect(await enrollmentStatus(seat.enrollmentId)).toBe('removed');
      expect((await credit(seat.studentId))[0].balance).toBe(4500);
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 0, count: 0 });
    });

    it('gives the pack credit back by default; an owner may keep it; staff may not', async () => {
      const one = await covered();
      expect(await packLeft(one.studentId, one.holdingId)).toBe(4);
      const quote = (await t.http.get(`/api/admin/enrollment/${one.enrollmentId}/refund-quote`).set('token', a.token).expect(200)).body;
      expect(quote.use).toMatchObject({ holding_id: one.holdingId, kind: 'pack', amount: 1, returns: true, message: 'Your class credit is given back.' });
      await t.http.delete(`/api/admin/enrollment/${one.enrollmentId}`).set('token', a.token).send({}).expect(204);
      expect(await packLeft(one.studentId, one.holdingId)).toBe(5);

      const two = await covered();
      const forbidden = await t.http.delete(`/api/admin/enrollment/${two.enrollmentId}`).set('token', staffToken).send({ keep_use: true }).expect(403);
      expect(forbidden.body.message).toBe(CREDIT_MESSAGES.keepUseOwnerOnly);
      expect(await enrollmentStatus(two.enrollmentId)).toBe('active');
      await t.http.delete(`/api/admin/enrollment/${two.enrollmentId}`).set('token', a.token).send({ keep_use: true }).expect(204);
      expect(await enrollmentStatus(two.enrollmentId)).toBe('removed');
      expect(await packLeft(two.studentId, two.holdingId)).toBe(4);
    });

    it("another organization's enrollment is 404 and changes nothing", async () => {
      const seat = await bought();
      await t.http
        .delete(`/api/admin/enrollment/${seat.enrollmentId}`)
        .set('token', b.token)
        .send({ refund: { amount: 100, reason: 'Other', refund_to: 'store_credit' } })
        .expect(404);
      await t.http.get(`/api/admin/enrollment/${seat.enrollmentId}/refund-quote`).set('token', b.token).expect(404);
      expect(await enrollmentStatus(seat.enrollmentId)).toBe('active');
      expect(await credit(seat.studentId)).toEqual([]);
    });
  });

  describe('the manage link', () => {
    const page = (manage: string) => t.http.get(`/api/public/${slug}/bookings/${manage}`).expect(200);
    const cancel = (manage: string, body?: object) => {
      const req = t.http.post(`/api/public/${slug}/bookings/${manage}/cancel`);
      return body ? req.send(body) : req;
    };
    const place = (eventId: string, msFromNow: number) =>
      t.withEm((em) =>
        em
          .getConnection()
          .execute(`update event set starts_at = ?, ends_at = ? where id = ?`, [new Date(Date.now() + msFromNow), new Date(Date.now() + msFromNow + 2 * HOUR), eventId]),
      );

    it('inside the policy, the student refunds to store credit', async () => {
      const seat = await bought();
      const res = await cancel(seat.manage, { refund_to: 'store_credit' }).expect(200);
      expect(res.body).toMatchObject({ status: 'cancelled', refunded_cents: 9000, refund_status: 'made' });
      expect((await credit(seat.studentId))[0].balance).toBe(9000);
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 0, count: 0 });
      // Again: nothing more.
      await cancel(seat.manage, { refund_to: 'store_credit' }).expect(200);
      expect((await credit(seat.studentId))[0].balance).toBe(9000);
    });

    it('without a choice the money goes back to the card, as before', async () => {
      const seat = await bought();
      await cancel(seat.manage).expect(200);
      expect(await providerRefunds(seat.paymentIntentId)).toEqual({ cents: 9000, count: 1 });
      expect(await credit(seat.studentId)).toEqual([]);
    });

    it('inside the full-refund window, the pack credit is given back', async () => {
      const seat = await covered();
      const before = (await page(seat.manage)).body;
      expect(before.use).toMatchObject({ kind: 'pack', returns: true, message: 'Your class credit is given back.' });
      await cancel(seat.manage).expect(200);
      expect(await packLeft(seat.studentId, seat.holdingId)).toBe(5);
      const after = (await page(seat.manage)).body;
      expect(after).toMatchObject({ status: 'cancelled' });
      expect(after.use).toMatchObject({ returned: true, message: 'Your class credit was given back.' });
      // A second cancel gives nothing more back.
      await cancel(seat.manage).expect(200);
      expect(await packLeft(seat.studentId, seat.holdingId)).toBe(5);
    });

    it('after it, the pack credit is forfeited and the page says so', async () => {
      const seat = await covered();
      await place(seat.eventId, 12 * HOUR);
      const before = (await page(seat.manage)).body;
      expect(before.cancel.allowed).toBe(true);
      expect(before.use).toMatchObject({ returns: false, message: 'Your class credit is not given back after 1 day before start.' });
      await cancel(seat.manage).expect(200);
      expect(await enrollmentStatus(seat.enrollmentId)).toBe('removed');
      expect(await packLeft(seat.studentId, seat.holdingId)).toBe(4);
    });

    it('a refund_to that is not a destination is 400', async () => {
      const seat = await bought({ daysFromNow: 44 });
      await cancel(seat.manage, { refund_to: 'bank' }).expect(400);
      expect(await enrollmentStatus(seat.enrollmentId)).toBe('active');
    });
  });

  describe("the studio's session cancel", () => {
    it('refunds everyone to store credit and gives every pack credit back', async () => {
      const eventId = await scheduleSession(t, a.token, course, { capacity: 6, price: 9000, daysFromNow: 41 });
      const paid = await bought({ eventId });
      const coveredSeat = await covered({ eventId });
      const res = await t.http
        .post(`/api/admin/events/${eventId}/cancel`)
        .set('token', a.token)
        .send({ refund: 'full', refund_to: 'store_credit', reason: 'The kiln broke down' })
        .expect(200);
      expect(res.body).toMatchObject({ refund: 'full', refund_to: 'store_credit', total: 2 });
      await t.settle();
      const done = (await t.http.get(`/api/admin/events/${eventId}/cancellation`).set('token', a.token).expect(200)).body;
      expect(done).toMatchObject({ processed: 2, refunded_cents: 9000 });
      expect(done.students.find((s: { enrollment_id: string }) => s.enrollment_id === paid.enrollmentId)).toMatchObject({ outcome: 'credited', refund_cents: 9000 });
      expect((await credit(paid.studentId))[0].balance).toBe(9000);
      expect(await providerRefunds(paid.paymentIntentId)).toEqual({ cents: 0, count: 0 });
      expect(await packLeft(coveredSeat.studentId, coveredSeat.holdingId)).toBe(5);
    });

    it('store credit goes with a full refund only', async () => {
      const eventId = await scheduleSession(t, a.token, course, { capacity: 6, price: 9000, daysFromNow: 42 });
      await bought({ eventId });
      const res = await t.http
        .post(`/api/admin/events/${eventId}/cancel`)
        .set('token', a.token)
        .send({ refund: 'none', refund_to: 'store_credit', reason: 'Rain' })
        .expect(400);
      expect(res.body.message).toBe(CREDIT_MESSAGES.refundToNeedsRefund);
    });

    it('with no refund, the pack credit still comes back', async () => {
      const seat = await covered({ daysFromNow: 43 });
      await t.http.post(`/api/admin/events/${seat.eventId}/cancel`).set('token', a.token).send({ refund: 'none', reason: 'Rain' }).expect(200);
      await t.settle();
      expect(await packLeft(seat.studentId, seat.holdingId)).toBe(5);
    });
  });
});
