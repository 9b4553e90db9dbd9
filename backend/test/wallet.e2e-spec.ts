import { addDaysToDate, INPUT_MESSAGES, localDateOf, WALLET_MESSAGES, wallClockToInstant, type Wallet } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { DomainError, refusalStatus } from '../src/common/domain-error';
import { UsersService } from '../src/modules/identity/users.service';
import { WalletService } from '../src/modules/wallet/wallet.service';
import { validCourse } from './support/catalog-fixtures';
import { paidOnDemoPage } from './support/checkout-fixtures';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TEST_PASSWORD, TestApp } from './test-app';

const ZONE = 'America/New_York'; // the fixtures' location
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** What a refused service call answered: its status and message. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (error) {
    const status = refusalStatus(error);
    if (status !== null) return { status, message: (error as Error).message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The wallet (issue 24): one ledger per student of what they hold; each rule, the admin API, tenancy. */
describe('wallet ledger', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };
  let staffToken: string;
  let ada: string;
  let ben: string;
  let olga: string;
  let wallet: WalletService;
  /** Each organization's course to book seats of, and the sessions made so far (one per seat a student books). */
  let seats: Record<'a' | 'b', { token: string; course: Awaited<ReturnType<typeof schedulableCourse>>; sessions: string[] }>;
  /** Alpha Yoga's appointment course (private lessons), its instructor free every day. */
  let lesson: string;

  beforeAll(async () => {
    t = await startTestApp();
    const ownerA = await t.organizationWithUser('owner', 'Alpha Yoga');
    const ownerB = await t.organizationWithUser('owner', 'Beta Pilates');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
    ada = await addStudent(t, a.token, { first_name: 'Ada', last_name: 'Lovelace' });
    ben = await addStudent(t, a.token, { first_name: 'Ben', last_name: 'Brook' });
    olga = await addStudent(t, b.token, { first_name: 'Olga', last_name: 'Other' });
    wallet = t.created.app.get(WalletService);
    const staff = await t.withEm(() =>
      t.created.app.get(UsersService).create({
        email: `staff.wallet.${Date.now()}@example.test`,
        password: TEST_PASSWORD,
        role: 'staff',
        organizationId: a.organizationId,
        firstName: 'Sam',
        lastName: 'Staff',
      }),
    );
    staffToken = await t.login(staff.email);
    seats = {
      a: { token: a.token, course: await schedulableCourse(t, a.token, 40), sessions: [] },
      b: { token: b.token, course: await schedulableCourse(t, b.token, 40), sessions: [] },
    };
    const everyDay = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '08:00', end: '20:00' }]]));
    await t.http.put(`/api/admin/instructor/${seats.a.course.instructor_id}/availability`).set('token', a.token).send({ weekly: everyDay }).expect(200);
    lesson = (
      await t.http
        .post('/api/admin/activities')
        .set('token', a.token)
        .send({ ...validCourse(seats.a.course), name: 'Private lesson', activity_type: 'appointment', single_party: true, capacity: 3, duration_mins: 45, start_time_increments_mins: 60 })
        .expect(201)
    ).body.activity_id;
  }, 120000);
  afterAll(() => t.close());

  /**
   * A seat booked for the student the way Add student books one (POST /api/admin/orders/enroll), in
   * the first session of the organization's course the student is not in yet: its enrollment.
   */
  const bookedSessions = new Map<string, number>();
  async function booking(student: string, org: 'a' | 'b' = 'a'): Promise<string> {
    const o = seats[org];
    const next = bookedSessions.get(student) ?? 0;
    bookedSessions.set(student, next + 1);
    o.sessions[next] ??= await scheduleSession(t, o.token, o.course, { capacity: 40, daysFromNow: 5 + next });
    const res = await t.http.post(`/api/admin/orders/enroll/${student}`).set('token', o.token).send({ event_id: o.sessions[next] }).expect(201);
    return res.body.enrollment_id as string;
  }
  /** A private lesson booked for the student as Add student books one (held, then booked): its appointment. */
  let lessonHour = 9;
  async function appointment(student: string): Promise<string> {
    const startsAt = wallClockToInstant(addDaysToDate(localDateOf(new Date(), ZONE), 3), `${String(lessonHour++).padStart(2, '0')}:00`, ZONE)!;
    const held = await t.http
      .post(`/api/admin/activities/${lesson}/appointments`)
      .set('token', a.token)
      .send({ student_id: student, starts_at: startsAt.toISOString(), guest_count: 0 })
      .expect(201);
    await t.http.post(`/api/admin/orders/enroll/${student}`).set('token', a.token).send({ appointment_id: held.body.id }).expect(201);
    return held.body.id as string;
  }
  /** An order of the student paid on the demo payment page (the real path), of `line`: its id. */
  const paidOrder = (student: string, line: { description: string; cents: number; productId?: string } = { description: 'Mat rental', cents: 1500 }) =>
    paidOnDemoPage(t, a.organizationId, {
      studentId: student,
      lines: [{ kind: 'product', productId: line.productId ?? null, description: line.description, unitPriceCents: line.cents }],
    });

  const read = async (student: string, token = a.token): Promise<Wallet> =>
    (await t.http.get(`/api/admin/student/${student}/wallet`).set('token', token).expect(200)).body as Wallet;
  const adjust = (student: string, holding: string, body: unknown, token = a.token) =>
    t.http
      .post(`/api/admin/student/${student}/wallet/${holding}/adjust`)
      .set('token', token)
      .send(body as object);
  const holdingOf = async (student: string, holdingId: string) =>
    (await read(student)).holdings.find((h) => h.holding_id === holdingId)!;
  const pack = (student: string, amount: number, extra: Partial<Parameters<WalletService['grant']>[0]> = {}) =>
    wallet.grant({ organizationId: a.organizationId, studentId: student, kind: 'pack', label: `${amount}-class pack`, amount, ...extra });

  it('a new student holds nothing', async () => {
    expect(await read(ada)).toEqual({ holdings: [], entries: [] });
  });

  it('a grant creates a holding with its balance and a grant row; a top-up adds to it', async () => {
    // The product and the paid order that bought it (a plain product: the wallet's own grant on
    // payment stays out of it; this test grants as that listener would).
    const product = await t.http.post('/api/admin/products').set('token', a.token).send({ productName: '10-class pack', priceType: 'oneTime', amount: 9000 }).expect(201);
    const productId = (product.body.id ?? product.body.product_id) as string;
    const orderId = await paidOrder(ada, { description: '10-class pack', cents: 9000, productId });
    const expiresAt = new Date(Date.now() + 180 * 86400_000);
    const first = await pack(ada, 10, { orderId, productId, expiresAt });
    expect(first).toMatchObject({ created: true, balanceAfter: 10 });
    const topUp = await pack(ada, 5, { holdingId: first.holdingId });
    expect(topUp).toMatchObject({ holdingId: first.holdingId, balanceAfter: 15 });
    const w = await read(ada);
    expect(w.holdings).toEqual([
      expect.objectContaining({
        holding_id: first.holdingId,
        kind: 'pack',
        unit: 'credits',
        label: '10-class pack',
        balance: 15,
        status: 'active',
        expires_at: expiresAt.toISOString(),
        product_id: productId,
        order_id: orderId,
      }),
    ]);
    expect(w.entries.map((e) => [e.reason, e.amount, e.balance_after])).toEqual([
      ['grant', 5, 15],
      ['grant', 10, 10],
    ]);
    expect(w.entries[1]).toMatchObject({ order_id: orderId, actor: null });
  });

  it('a grant with a key happens once however often it is retried', async () => {
    const key = `order:${randomUUID()}:line:0`;
    const results = await Promise.all([1, 2, 3].map(() =>
      wallet.grant({ organizationId: a.organizationId, studentId: ben, kind: 'store_credit', label: 'Store credit', amount: 2500, key }),
    ));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    const w = await read(ben);
    expect(w.holdings).toHaveLength(1);
    expect(w.holdings[0]).toMatchObject({ kind: 'store_credit', unit: 'cents', balance: 2500 });
  });

  it('a grant of 0, a top-up of another kind or of another student\'s holding is refused and writes nothing', async () => {
    const held = await pack(ada, 1);
    expect(await refusal(pack(ada, 0))).toEqual({ status: 400, message: WALLET_MESSAGES.grantAmountInvalid });
    expect(
      await refusal(wallet.grant({ organizationId: a.organizationId, studentId: ada, kind: 'gift_card', label: 'Gift', amount: 100, holdingId: held.holdingId })),
    ).toEqual({ status: 409, message: WALLET_MESSAGES.kindMismatch });
    expect(await refusal(pack(ben, 3, { holdingId: held.holdingId }))).toEqual({ status: 404, message: WALLET_MESSAGES.holdingNotFound });
    expect((await holdingOf(ada, held.holdingId)).balance).toBe(1);
    expect((await read(ben)).holdings).toHaveLength(1);
  });

  it('a use takes one credit for a booking; the same booking uses once', async () => {
    const held = await pack(ben, 3);
    const enrollmentId = await booking(ben);
    const use = await wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: held.holdingId, enrollmentId });
    expect(use).toMatchObject({ created: true, balanceAfter: 2 });
    const again = await wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: held.holdingId, enrollmentId });
    expect(again).toMatchObject({ created: false, entryId: use.entryId, balanceAfter: 2 });
    expect((await holdingOf(ben, held.holdingId)).balance).toBe(2);
    const [top] = (await read(ben)).entries;
    expect(top).toMatchObject({ reason: 'use', amount: -1, balance_after: 2, enrollment_id: enrollmentId, holding_id: held.holdingId });
  });

  it('a use is refused with 409 when too little is left, when expired, when not the student\'s; nothing is written', async () => {
    const held = await pack(ben, 1);
    await wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: held.holdingId, appointmentId: await appointment(ben) });
    const before = (await read(ben)).entries.length;
    expect(
      await refusal(wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: held.holdingId, enrollmentId: await booking(ben) })),
    ).toEqual({ status: 409, message: 'Not enough credits left.' });
    const card = await wallet.grant({ organizationId: a.organizationId, studentId: ben, kind: 'gift_card', label: 'Gift card', amount: 1000 });
    expect(
      await refusal(wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: card.holdingId, orderId: await paidOrder(ben), amount: 1001 })),
    ).toEqual({ status: 409, message: WALLET_MESSAGES.notEnough.cents });
    const adas = await pack(ada, 4);
    expect(
      await refusal(wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: adas.holdingId, enrollmentId: await booking(ben) })),
    ).toEqual({ status: 409, message: WALLET_MESSAGES.notStudents });
    const soon = await pack(ben, 2, { expiresAt: new Date(Date.now() + 60_000) });
    expect(
      await refusal(
        wallet.use({ organizationId: a.organizationId, studentId: ben, holdingId: soon.holdingId, enrollmentId: await booking(ben), at: new Date(Date.now() + 61_000) }),
      ),
    ).toEqual({ status: 409, message: WALLET_MESSAGES.expired });
    // Another organization's holding is not found at all.
    expect(
      await refusal(wallet.use({ organizationId: b.organizationId, studentId: olga, holdingId: soon.holdingId, enrollmentId: await booking(olga, 'b') })),
    ).toEqual({ status: 404, message: WALLET_MESSAGES.holdingNotFound });
    const after = await read(ben);
    expect(after.entries.length).toBe(before + 2); // the gift card's and the new pack's grants only
    expect((await holdingOf(ada, adas.holdingId)).balance).toBe(4);
    expect((await holdingOf(ben, card.holdingId)).balance).toBe(1000);
  });

  it('a return gives a use back once, however often it is asked', async () => {
    const held = await pack(ada, 2);
    const use = await wallet.use({ organizationId: a.organizationId, studentId: ada, holdingId: held.holdingId, enrollmentId: await booking(ada) });
    expect((await holdingOf(ada, held.holdingId)).balance).toBe(1);
    const returns = await Promise.all([1, 2, 3].map(() => wallet.returnUse({ organizationId: a.organizationId, useEntryId: use.entryId })));
    expect(returns.filter((r) => r.created)).toHaveLength(1);
    expect((await holdingOf(ada, held.holdingId)).balance).toBe(2);
    const [top] = (await read(ada)).entries;
    expect(top).toMatchObject({ reason: 'return', amount: 1, balance_after: 2, holding_id: held.holdingId });
    // A grant is not a use; another organization cannot return it.
    expect(await refusal(wallet.returnUse({ organizationId: a.organizationId, useEntryId: held.entryId }))).toEqual({
      status: 404,
      message: WALLET_MESSAGES.useNotFound,
    });
    expect(await refusal(wallet.returnUse({ organizationId: b.organizationId, useEntryId: use.entryId }))).toEqual({
      status: 404,
      message: WALLET_MESSAGES.useNotFound,
    });
  });

  it('expiry zeroes what is left at or after expires_at, once; before it, nothing', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const held = await pack(ada, 5, { expiresAt });
    await wallet.use({ organizationId: a.organizationId, studentId: ada, holdingId: held.holdingId, enrollmentId: await booking(ada) });
    expect(await wallet.expire({ organizationId: a.organizationId, holdingId: held.holdingId, now: new Date(expiresAt.getTime() - 1) })).toBe(false);
    expect((await holdingOf(ada, held.holdingId)).balance).toBe(4);
    const runs = await Promise.all([1, 2].map(() => wallet.expire({ organizationId: a.organizationId, holdingId: held.holdingId, now: expiresAt })));
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await wallet.expire({ organizationId: a.organizationId, holdingId: held.holdingId, now: new Date(expiresAt.getTime() + 86400_000) })).toBe(false);
    expect(await holdingOf(ada, held.holdingId)).toMatchObject({ balance: 0, status: 'expired' });
    const rows = (await read(ada)).entries.filter((e) => e.holding_id === held.holdingId);
    expect(rows.map((e) => [e.reason, e.amount, e.balance_after])).toEqual([
      ['expire', -4, 0],
      ['use', -1, 4],
      ['grant', 5, 5],
    ]);
    // An expired holding takes no more uses, top-ups or returns.
    expect(
      await refusal(wallet.use({ organizationId: a.organizationId, studentId: ada, holdingId: held.holdingId, enrollmentId: await booking(ada) })),
    ).toEqual({ status: 409, message: WALLET_MESSAGES.expired });
    expect(await refusal(pack(ada, 1, { holdingId: held.holdingId }))).toEqual({ status: 409, message: WALLET_MESSAGES.expired });
    // A holding without an expiry never expires.
    const forever = await pack(ada, 1);
    expect(await wallet.expire({ organizationId: a.organizationId, holdingId: forever.holdingId, now: new Date('2999-01-01') })).toBe(false);
  });

  it('the sweep expires every holding that is due, and only those', async () => {
    const past = await pack(ben, 2, { expiresAt: new Date(Date.now() + 1000) });
    const future = await pack(ben, 2, { expiresAt: new Date(Date.now() + 86400_000) });
    expect(await wallet.expireDue(new Date(Date.now() + 2000))).toBeGreaterThanOrEqual(1);
    expect(await holdingOf(ben, past.holdingId)).toMatchObject({ balance: 0, status: 'expired' });
    expect(await holdingOf(ben, future.holdingId)).toMatchObject({ balance: 2, status: 'active' });
  });

  it('an owner adjusts with a reason: the row says who, how much and why; the answer is the wallet', async () => {
    const held = await pack(ada, 3);
    const res = await adjust(ada, held.holdingId, { amount: -2, reason: '  Two classes taken before the system  ' }).expect(200);
    const body = res.body as Wallet;
    expect(body.holdings.find((h) => h.holding_id === held.holdingId)!.balance).toBe(1);
    expect(body.entries[0]).toMatchObject({
      reason: 'adjust',
      amount: -2,
      balance_after: 1,
      note: 'Two classes taken before the system',
      actor: expect.any(String),
    });
    await adjust(ada, held.holdingId, { amount: 4, reason: 'Goodwill' }).expect(200);
    expect((await holdingOf(ada, held.holdingId)).balance).toBe(5);
  });

  it.each([
    [{ amount: 2 }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 2, reason: '   ' }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 2, reason: 'x'.repeat(501) }, WALLET_MESSAGES.reasonTooLong],
    [{ amount: 2, reason: 'Bad\u0000byte' }, INPUT_MESSAGES.controlCharacters],
    [{ amount: 2, reason: 42 }, WALLET_MESSAGES.reasonRequired],
    [{ amount: 0, reason: 'Nothing' }, WALLET_MESSAGES.amountInvalid],
    [{ amount: 1.5, reason: 'Half' }, WALLET_MESSAGES.amountInvalid],
    [{ amount: '2', reason: 'Text' }, WALLET_MESSAGES.amountInvalid],
    [{ amount: 100_000_001, reason: 'Huge' }, WALLET_MESSAGES.amountTooLarge],
    [{ reason: 'No amount' }, WALLET_MESSAGES.amountInvalid],
  ])('an adjustment %j is refused with 400 and writes nothing', async (body, message) => {
    const held = await pack(ben, 2);
    const res = await adjust(ben, held.holdingId, body).expect(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect((await read(ben)).entries[0]).toMatchObject({ holding_id: held.holdingId, reason: 'grant' });
  });

  it('an adjustment never takes a balance below zero, nor changes an expired holding (409, nothing written)', async () => {
    const held = await pack(ben, 2);
    const res = await adjust(ben, held.holdingId, { amount: -3, reason: 'Too much' }).expect(409);
    expect(res.body.message).toBe(WALLET_MESSAGES.belowZero);
    expect((await holdingOf(ben, held.holdingId)).balance).toBe(2);
    await adjust(ben, held.holdingId, { amount: -2, reason: 'All of it' }).expect(200);
    expect((await holdingOf(ben, held.holdingId)).balance).toBe(0);
    const old = await pack(ben, 2, { expiresAt: new Date(t.clock.nowMs() + 500) });
    t.clock.advance(600);
    const expired = await adjust(ben, old.holdingId, { amount: 1, reason: 'Revive' }).expect(409);
    expect(expired.body.message).toBe(WALLET_MESSAGES.expired);
    expect((await holdingOf(ben, old.holdingId)).balance).toBe(2);
  });

  it('staff may read a wallet but not adjust it (403, nothing written)', async () => {
    const held = await pack(ada, 2);
    expect((await read(ada, staffToken)).holdings.some((h) => h.holding_id === held.holdingId)).toBe(true);
    await adjust(ada, held.holdingId, { amount: 5, reason: 'Staff try' }, staffToken).expect(403);
    expect((await holdingOf(ada, held.holdingId)).balance).toBe(2);
  });

  it("another organization's student or holding, another student's holding, unknown ids answer 404", async () => {
    const adas = await pack(ada, 2);
    const olgas = await wallet.grant({ organizationId: b.organizationId, studentId: olga, kind: 'pack', label: 'Pack', amount: 2 });
    await t.http.get(`/api/admin/student/${olga}/wallet`).set('token', a.token).expect(404);
    await t.http.get(`/api/admin/student/${randomUUID()}/wallet`).set('token', a.token).expect(404);
    await t.http.get(`/api/admin/student/nope/wallet`).set('token', a.token).expect(404);
    await adjust(olga, olgas.holdingId, { amount: 1, reason: 'Cross' }).expect(404);
    await adjust(ada, olgas.holdingId, { amount: 1, reason: 'Cross' }).expect(404);
    await adjust(olga, adas.holdingId, { amount: 1, reason: 'Cross' }, b.token).expect(404);
    await adjust(ben, adas.holdingId, { amount: 1, reason: 'Wrong student' }).expect(404);
    await adjust(ada, randomUUID(), { amount: 1, reason: 'Unknown' }).expect(404);
    await adjust(ada, 'nope', { amount: 1, reason: 'Unknown' }).expect(404);
    expect((await holdingOf(ada, adas.holdingId)).balance).toBe(2);
    expect((await read(olga, b.token)).holdings[0].balance).toBe(2);
  });

  it('needs a signed-in caller', async () => {
    await t.http.get(`/api/admin/student/${ada}/wallet`).expect(401);
    await t.http.post(`/api/admin/student/${ada}/wallet/${randomUUID()}/adjust`).send({ amount: 1, reason: 'x' }).expect(401);
  });

  it('20 concurrent uses by one student of a holding with 3 credits: exactly 3 succeed, the rest 409, 0 left', async () => {
    const student = await addStudent(t, a.token, { first_name: 'Cora', last_name: 'Current' });
    const held = await pack(student, 3);
    const bookings: string[] = [];
    for (let i = 0; i < 20; i++) bookings.push(await booking(student));
    const results = await Promise.allSettled(
      bookings.map((enrollmentId) => wallet.use({ organizationId: a.organizationId, studentId: student, holdingId: held.holdingId, enrollmentId })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect((r.reason as DomainError).status).toBe(409);
      expect((r.reason as DomainError).message).toBe(WALLET_MESSAGES.notEnough.credits);
    }
    const [sum] = await t.withEm((em) =>
      em.getConnection().execute<{ total: string; uses: string }[]>(
        `select sum(amount) as total, count(*) filter (where reason = 'use') as uses from wallet_entry where holding_id = ?`,
        [held.holdingId],
      ),
    );
    expect(Number(sum.total)).toBe(0);
    expect(Number(sum.uses)).toBe(3);
    expect((await holdingOf(student, held.holdingId)).balance).toBe(0);
  });
});
