import {
  addDaysToDate,
  APPOINTMENT_MESSAGES as AM,
  CHECKOUT_MESSAGES as M,
  DISCOUNT_CASE_BASE,
  MESSAGES,
  localDateOf,
  wallClockToInstant,
} from '@studio/contracts';
import { AppointmentHolds } from '../src/modules/scheduling/appointment-holds.service';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

const ZONE = 'America/New_York'; // the fixtures' location
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const everyDay = (ranges: { start: string; end: string }[]) =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, ranges]));
/** A local date (in the location's zone) n days after today's. */
const dayAhead = (n: number) => addDaysToDate(localDateOf(new Date(), ZONE), n);
const at = (date: string, time: string) => wallClockToInstant(date, time, ZONE)!.toISOString();
/** 20261201T150000Z: an instant as the calendar file writes it in UTC. */
const icsStamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * The store's checkout of an appointment course's time (issue 22), through the public API as the
 * buyer's browser calls it, with the demo payment provider: quote and checkout of a start the slot
 * engine offers, the refusals, paid → booked with the confirmation and its calendar file at the
 * right instant, abandoned → the time offered again, free → booked at once, a race of 20 buyers for
 * one time, and tenancy.
 */
describe('store checkout of appointments (demo provider)', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let slug: string;
  let refs: Awaited<ReturnType<typeof courseRefs>>;
  /** 60 minutes every 60, $50.00 a person, at most 3 people. */
  let lesson: string;
  /** The same instructor's free consult, 30 minutes every 30. */
  let consult: string;
  let scheduled: string;
  let theirs: string;
  let serial = 0;

  const createCourse = async (overrides: Record<string, unknown>, as = token, courseRefsOf = refs) =>
    (
      await t.http
        .post('/api/admin/activities')
        .set('token', as)
        .send({
          ...validCourse(courseRefsOf),
          activity_type: 'appointment',
          single_party: true,
          ...overrides,
        })
        .expect(201)
    ).body.activity_id as string;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-test-store-appointments-${process.pid}`,
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Appointment Ceramics');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    refs = await courseRefs(t, token);
    await t.http
      .put(`/api/admin/instructor/${refs.instructor_id}/availability`)
      .set('token', token)
      .send({ weekly: everyDay([{ start: '09:00', end: '17:00' }]) })
      .expect(200);
    lesson = await createCourse({
      name: 'Wheel lesson',
      price: 5000,
      capacity: 3,
      duration_mins: 60,
      start_time_increments_mins: 60,
      auto_email: 'Bring an apron.',
    });
    consult = await createCourse({
      name: 'Glaze consult',
      priceType: 'free',
      price: 0,
      capacity: 2,
      duration_mins: 30,
      start_time_increments_mins: 30,
    });
    scheduled = (
      await t.http.post('/api/admin/activities').set('token', token).send(validCourse(refs)).expect(201)
    ).body.activity_id;
    // Listed in the store: it has an upcoming session (after the instructor's hours).
    await scheduleSession(t, token, { ...refs, activity_id: scheduled }, { daysFromNow: 20 });

    const other = await t.organizationWithUser('owner', 'Elsewhere Glass');
    const otherRefs = await courseRefs(t, other.token);
    await t.http
      .put(`/api/admin/instructor/${otherRefs.instructor_id}/availability`)
      .set('token', other.token)
      .send({ weekly: everyDay([{ start: '09:00', end: '17:00' }]) })
      .expect(200);
    theirs = await createCourse({ name: 'Their lesson' }, other.token, otherRefs);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const buyer = () => ({
    first_name: 'Aiko',
    last_name: `Buyer${++serial}`,
    email: `aiko.buyer${serial}.${Date.now()}@example.test`,
  });
  const quote = (body: object) => t.http.post(`/api/public/${slug}/checkout/quote`).send(body);
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const pagePath = (url: string) => new URL(url).pathname;
  const orderPage = (url: string) => {
    const u = new URL(url);
    return t.http.get(
      `/api/public/${slug}/orders/${u.searchParams.get('order')}?token=${u.searchParams.get('token')}`,
    );
  };
  /** The store's free starts of a course on a local date. */
  const offered = async (course: string, date: string) =>
    (
      await t.http
        .get(`/api/public/${slug}/activities/${course}/slots`)
        .query({ from: at(date, '00:00'), to: at(date, '24:00') })
        .expect(200)
    ).body.slots.map((s: { starts_at: string }) => s.starts_at) as string[];

  it('prices a party at an offered time like a session, with a discount code', async () => {
    const date = dayAhead(3);
    const startsAt = at(date, '10:00');
    const plain = await quote({ activity_id: lesson, starts_at: startsAt, party_size: 2 }).expect(200);
    expect(plain.body).toMatchObject({
      lines: [{ description: 'Wheel lesson', quantity: 2, unit_price_cents: 5000, discount_cents: 0 }],
      subtotal_cents: 10000,
      total_cents: 10000,
      discount_code: null,
    });
    const code = (
      await t.http
        .post('/api/admin/promo-code')
        .set('token', token)
        .send({
          ...DISCOUNT_CASE_BASE,
          code: `APPT${Date.now()}`,
          start_date: null,
          expiration_date: null,
          type: 'dollar',
          value: 500,
          apply_logic: 'each',
        })
        .expect(201)
    ).body.code as string;
    const priced = await quote({
      activity_id: lesson,
      starts_at: startsAt,
      party_size: 2,
      discount_code: code,
    }).expect(200);
    expect(priced.body).toMatchObject({
      subtotal_cents: 10000,
      discount_cents: 1000,
      total_cents: 9000,
      discount_code: code,
    });
  });

  it('refuses a time the engine does not offer, a scheduled course, both or neither target, a party too large', async () => {
    const date = dayAhead(3);
    const V = MESSAGES.common.validationFailed; // the body's rules: each message under its field
    const refusals: [object, number, string, Record<string, string> | undefined][] = [
      // Off the course's hourly grid, after hours, in the past.
      [
        { activity_id: lesson, starts_at: at(date, '10:30') },
        409,
        AM.notOffered,
        { starts_at: AM.notOffered },
      ],
      [
        { activity_id: lesson, starts_at: at(date, '20:00') },
        409,
        AM.notOffered,
        { starts_at: AM.notOffered },
      ],
      [
        { activity_id: lesson, starts_at: at(dayAhead(-2), '10:00') },
        409,
        AM.notOffered,
        { starts_at: AM.notOffered },
      ],
      [
        { activity_id: scheduled, starts_at: at(date, '10:00') },
        400,
        AM.notAppointmentCourse,
        { activity_id: AM.notAppointmentCourse },
      ],
      [
        { event_id: scheduled, activity_id: lesson, starts_at: at(date, '10:00') },
        400,
        V,
        { event_id: M.oneBooking },
      ],
      [{ activity_id: lesson }, 400, V, { starts_at: M.appointmentStart }],
      [{ activity_id: lesson, starts_at: 'tomorrow at ten' }, 400, V, { starts_at: AM.startsAt }],
      [
        { activity_id: lesson, starts_at: at(date, '10:00'), party_size: 4 },
        400,
        M.partyCapacity(3),
        { party_size: M.partyCapacity(3) },
      ],
      [
        { activity_id: lesson, starts_at: at(date, '10:00'), party_size: 21 },
        400,
        V,
        { party_size: M.partySize },
      ],
    ];
    for (const [body, status, message, errors] of refusals) {
      for (const call of [quote(body), checkout({ ...body, ...buyer() })]) {
        const res = await call;
        expect({ body, status: res.status, message: res.body.message, errors: res.body.errors }).toEqual({
          body,
          status,
          message,
          errors,
        });
      }
    }
    expect((await quote({}).expect(400)).body.errors).toEqual({ event_id: M.bookingChosen });
    expect((await checkout(buyer()).expect(400)).body.errors).toEqual({ event_id: M.nothingChosen });
    // Nothing of that made an order.
    const [{ count }] = await t.withEm((em) =>
      em
        .getConnection()
        .execute<{ count: string }[]>(`select count(*) from customer_order where organization_id = ?`, [
          organizationId,
        ]),
    );
    expect(Number(count)).toBe(0);
  });

  it('holds the time while the buyer pays; paid, it is booked and the confirmation carries the .ics at the right instant', async () => {
    const date = dayAhead(4);
    const startsAt = at(date, '11:00');
    const who = buyer();
    // The email is a student's, stored under another name: the order shows the name typed (issue 31).
    await addStudent(t, token, { first_name: 'Stored', last_name: 'Name', email: who.email });
    const res = await checkout({ activity_id: lesson, starts_at: startsAt, party_size: 2, ...who }).expect(
      201,
    );
    expect(res.body).toMatchObject({
      status: 'pending',
      total_cents: 10000,
      payment_url: expect.stringMatching(/\/api\/pay\/demo\/dcs_/),
    });
    // Held: no longer offered, and another buyer is told it was taken.
    expect(await offered(lesson, date)).not.toContain(startsAt);
    expect((await quote({ activity_id: lesson, starts_at: startsAt }).expect(409)).body.message).toBe(
      AM.taken,
    );
    expect((await orderPage(res.body.confirmation_url).expect(200)).body.appointment).toMatchObject({
      status: 'held',
    });

    await t.http
      .post(`${pagePath(res.body.payment_url)}/pay`)
      .type('form')
      .send('')
      .expect(200);
    const page = await eventually(
      async () => (await orderPage(res.body.confirmation_url).expect(200)).body,
      (body) => body.status === 'paid',
    );
    expect(page).toMatchObject({
      status: 'paid',
      buyer: { first_name: 'Aiko', email: who.email },
      session: null,
      appointment: {
        course_name: 'Wheel lesson',
        starts_at: startsAt,
        ends_at: new Date(new Date(startsAt).getTime() + 3_600_000).toISOString(),
        timezone: ZONE,
        location_name: 'Main studio',
        address: '12 Kiln Street, Brooklyn, NY',
        online: false,
        party_size: 2,
        status: 'booked',
      },
    });
    const [mail] = await eventually(
      () => smtp.to(who.email),
      (m) => m.length === 1,
    );
    expect(mail.subject).toBe("You're booked: Wheel lesson");
    expect(mail.text).toContain('Hello Aiko,');
    expect(mail.text).toMatch(/When: .* 11:00 AM E[SD]T/);
    expect(mail.text).toContain('Where: Main studio, 12 Kiln Street, Brooklyn, NY');
    expect(mail.text).toContain('2 people');
    expect(mail.text).toContain('Bring an apron.');
    const ics = mail.attachments.find((a) => a.filename === 'booking.ics')!.content.toString();
    expect(ics).toContain(`DTSTART:${icsStamp(startsAt)}`);
    expect(ics).toContain(
      `DTEND:${icsStamp(new Date(new Date(startsAt).getTime() + 3_600_000).toISOString())}`,
    );
    expect(ics).toContain('SUMMARY:Wheel lesson');
    expect(await offered(lesson, date)).not.toContain(startsAt);
  });

  it('frees an abandoned checkout’s time: offered again, and the order says it was not completed', async () => {
    const date = dayAhead(5);
    const startsAt = at(date, '13:00');
    const res = await checkout({ activity_id: lesson, starts_at: startsAt, ...buyer() }).expect(201);
    expect(await offered(lesson, date)).not.toContain(startsAt);
    await t.http
      .post(`${pagePath(res.body.payment_url)}/cancel`)
      .type('form')
      .send('')
      .expect(200);
    const page = await eventually(
      async () => (await orderPage(res.body.confirmation_url).expect(200)).body,
      (body) => body.status === 'failed',
    );
    expect(page.appointment).toMatchObject({ status: 'cancelled' });
    expect(await offered(lesson, date)).toContain(startsAt);
    // Someone else books it now.
    await checkout({ activity_id: lesson, starts_at: startsAt, ...buyer() }).expect(201);
  });

  it('frees the time when the hold runs out unpaid; a payment after that books nothing and is refunded', async () => {
    const date = dayAhead(5);
    const startsAt = at(date, '15:00');
    const res = await checkout({ activity_id: lesson, starts_at: startsAt, ...buyer() }).expect(201);
    const orderId = res.body.order_id as string;
    // The store's hold ran out: the sweeper releases it (as its scheduled job does every minute).
    await t.withEm((em) =>
      em
        .getConnection()
        .execute(`update appointment set hold_expires_at = ? where order_id = ?`, [
          new Date(Date.now() - 1000),
          orderId,
        ]),
    );
    expect(await t.created.app.get(AppointmentHolds).releaseExpiredHolds()).toBeGreaterThanOrEqual(1);
    expect(await offered(lesson, date)).toContain(startsAt);
    // A late payment finds its time gone: nothing booked, the payment refunded in full.
    await t.http
      .post(`${pagePath(res.body.payment_url)}/pay`)
      .type('form')
      .send('')
      .expect(200);
    const order = await eventually(
      async () => (await t.http.get(`/api/admin/order/${orderId}`).set('token', token).expect(200)).body,
      (body) => body.status !== 'pending',
    );
    expect(order).toMatchObject({ status: 'refunded', refunded_amount: 5000 });
    expect(await offered(lesson, date)).toContain(startsAt);
  });

  it('books a free appointment at once, with no payment', async () => {
    const date = dayAhead(6);
    const startsAt = at(date, '09:30');
    const who = buyer();
    const res = await checkout({ activity_id: consult, starts_at: startsAt, ...who }).expect(201);
    expect(res.body).toMatchObject({
      status: 'paid',
      total_cents: 0,
      payment_url: null,
      hold_expires_at: null,
    });
    expect((await orderPage(res.body.confirmation_url).expect(200)).body.appointment).toMatchObject({
      status: 'booked',
      party_size: 1,
    });
    expect(await offered(consult, date)).not.toContain(startsAt);
    // The instructor is busy then for every course of theirs.
    expect(await offered(lesson, date)).not.toContain(at(date, '09:00'));
    const [mail] = await eventually(
      () => smtp.to(who.email),
      (m) => m.length === 1,
    );
    expect(mail.text).toContain('free');
  });

  it('gives one time to exactly one of 20 buyers at once; the others get 409 taken, no order and no payment page', async () => {
    const date = dayAhead(7);
    const startsAt = at(date, '14:00');
    const countPages = async () => {
      const [{ count }] = await t.withEm((em) =>
        em
          .getConnection()
          .execute<{ count: string }[]>(
            `select count(*) from demo_checkout_session where organization_id = ?`,
            [organizationId],
          ),
      );
      return Number(count);
    };
    const pagesBefore = await countPages();
    const buyers = Array.from({ length: 20 }, buyer);
    const answers = await Promise.all(
      buyers.map((who) => checkout({ activity_id: lesson, starts_at: startsAt, ...who })),
    );
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 201);
    expect(lost.map((a) => [a.status, a.body.message])).toEqual(
      Array.from({ length: 19 }, () => [409, AM.taken]),
    );
    expect(await countPages()).toBe(pagesBefore + 1);
    const losers = buyers.filter((_, i) => answers[i].status !== 201).map((b) => b.email);
    const [{ count }] = await t.withEm((em) =>
      em.getConnection().execute<{ count: string }[]>(
        `select count(*) from customer_order o join student s on s.id = o.student_id
            where o.organization_id = ? and s.email in (${losers.map(() => '?').join(', ')})`,
        [organizationId, ...losers],
      ),
    );
    expect(Number(count)).toBe(0);
    const [{ held }] = await t.withEm((em) =>
      em
        .getConnection()
        .execute<{ held: string }[]>(
          `select count(*) as held from appointment where activity_id = ? and starts_at = ? and status <> 'cancelled'`,
          [lesson, startsAt],
        ),
    );
    expect(Number(held)).toBe(1);
  });

  it('answers 404 for another studio’s appointment course under this store', async () => {
    const date = dayAhead(3);
    for (const call of [
      quote({ activity_id: theirs, starts_at: at(date, '10:00') }),
      checkout({ activity_id: theirs, starts_at: at(date, '10:00'), ...buyer() }),
    ]) {
      const res = await call.expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: AM.courseNotFound });
    }
  });
});
