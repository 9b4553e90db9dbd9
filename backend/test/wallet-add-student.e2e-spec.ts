import {
  addDaysToDate,
  localDateOf,
  UNLIMITED_BOOKINGS,
  WALLET_BOOKING_MESSAGES,
  WALLET_MESSAGES,
  wallClockToInstant,
  type Wallet,
  type WalletCovering,
} from '@studio/contracts';
import { UsersService } from '../src/modules/identity/users.service';
import { WalletService, type WalletGrant } from '../src/modules/wallet/wallet.service';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { addStudent, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TEST_PASSWORD, TestApp } from './test-app';

const ZONE = 'America/New_York'; // the fixtures' location
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY = 86_400_000;

/**
 * Add student on a membership or a class pack (issue 24): the covering read, the booking of a
 * session or an appointment with its use in the ledger (naming the booking), every refusal with
 * the wallet's message and nothing written, tenancy, and the grid showing how the seat was paid.
 */
describe('Add student on a membership or pack', () => {
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let staffToken: string;
  let other: { token: string; organizationId: string; student: string };
  let refs: Awaited<ReturnType<typeof courseRefs>>;
  /** A session course of category 4 (Ceramics, the fixtures'), and one of category 2 (Leather). */
  let yoga: string;
  let pottery: string;
  let wallet: WalletService;

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await t.organizationWithUser('owner', 'Lotus Studio');
    token = owner.token;
    organizationId = owner.organization.id;
    refs = await courseRefs(t, token);
    yoga = (await t.http.post('/api/admin/activities').set('token', token).send({ ...validCourse(refs), name: 'Flow yoga', capacity: 10 }).expect(201)).body.activity_id;
    pottery = (await t.http.post('/api/admin/activities').set('token', token).send({ ...validCourse(refs), name: 'Leather belts', material: 'Leather', capacity: 10 }).expect(201)).body.activity_id;
    wallet = t.created.app.get(WalletService);
    const second = await t.organizationWithUser('owner', 'Other Studio');
    other = { token: second.token, organizationId: second.organization.id, student: await addStudent(t, second.token) };
    const staff = await t.withEm(() =>
      t.created.app.get(UsersService).create({
        email: `staff.wallet-add.${Date.now()}@example.test`,
        password: TEST_PASSWORD,
        role: 'staff',
        organizationId,
        firstName: 'Sam',
        lastName: 'Staff',
      }),
    );
    staffToken = await t.login(staff.email);
  }, 120_000);
  afterAll(() => t?.close());

  const grant = (studentId: string, g: Partial<WalletGrant> & Pick<WalletGrant, 'kind' | 'amount'>, org = organizationId) =>
    wallet.grant({ organizationId: org, studentId, label: g.kind === 'pack' ? `${g.amount}-class pack` : 'Gold membership', ...g });
  const session = (course = yoga) => scheduleSession(t, token, { ...refs, activity_id: course });
  const enroll = (studentId: string, body: Record<string, unknown>, as = token) =>
    t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', as).send(body);
  const walletOf = async (studentId: string): Promise<Wallet> =>
    (await t.http.get(`/api/admin/student/${studentId}/wallet`).set('token', token).expect(200)).body;
  const balanceOf = async (studentId: string, holdingId: string) => (await walletOf(studentId)).holdings.find((h) => h.holding_id === holdingId)!.balance;
  const covering = (studentId: string, activityId: string, as = token) =>
    t.http.get(`/api/admin/student/${studentId}/wallet/covering`).query({ activity_id: activityId }).set('token', as);
  const grid = async (eventId: string) =>
    (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments as { student_id: string; paid_with: string | null }[];
  const seatsOf = async (eventId: string) => (await grid(eventId)).length;

  it('answers the holdings that can book a course: memberships first, then packs soonest to expire; not an empty, expired or other course\'s', async () => {
    const ada = await addStudent(t, token);
    const later = await grant(ada, { kind: 'pack', amount: 10, label: 'Ten pack', expiresAt: new Date(Date.now() + 90 * DAY) });
    const sooner = await grant(ada, { kind: 'pack', amount: 5, label: 'Five pack', expiresAt: new Date(Date.now() + 30 * DAY) });
    const member = await grant(ada, { kind: 'membership', amount: UNLIMITED_BOOKINGS, unlimited: true, label: 'Unlimited' });
    const potteryOnly = await grant(ada, { kind: 'pack', amount: 3, label: 'Pottery pack', coversCategoryIds: [2] });
    const empty = await grant(ada, { kind: 'pack', amount: 1, label: 'Empty pack' });
    await wallet.adjust({ organizationId, userId: '' } as never, ada, empty.holdingId, { amount: -1, reason: 'used up' });
    await grant(ada, { kind: 'store_credit', amount: 2500, label: 'Store credit' });

    const forYoga = (await covering(ada, yoga).expect(200)).body as WalletCovering;
    expect(forYoga.holdings.map((h) => h.holding_id)).toEqual([member.holdingId, sooner.holdingId, later.holdingId]);
    expect(forYoga.holdings[1]).toMatchObject({ kind: 'pack', label: 'Five pack', unit: 'credits', balance: 5, unlimited: false });
    const forPottery = (await covering(ada, pottery).expect(200)).body as WalletCovering;
    expect(forPottery.holdings.map((h) => h.holding_id)).toEqual([member.holdingId, sooner.holdingId, later.holdingId, potteryOnly.holdingId]);
    // Staff read it as Add student does.
    await covering(ada, yoga, staffToken).expect(200);
  });

  it('the covering read: another organization\'s student or course answers 404, a missing or bad activity_id 400', async () => {
    const ada = await addStudent(t, token);
    await covering(other.student, yoga).expect(404);
    const otherCourse = (await t.http.post('/api/admin/activities').set('token', other.token).send(validCourse(await courseRefs(t, other.token))).expect(201)).body.activity_id;
    await covering(ada, otherCourse).expect(404);
    await covering(ada, yoga, other.token).expect(404);
    await t.http.get(`/api/admin/student/${ada}/wallet/covering`).set('token', token).expect(400);
    await covering(ada, 'nope').expect(400);
  });

  it('books a session on a pack: one credit used, the ledger row names the enrollment and its $0 order, the grid shows the pack', async () => {
    const ada = await addStudent(t, token);
    const pack = await grant(ada, { kind: 'pack', amount: 10, label: '10-class pack' });
    const eventId = await session();
    const res = await enroll(ada, { event_id: eventId, holding_id: pack.holdingId }).expect(201);
    expect(res.body).toMatchObject({ total: 0, source: 'workbench' });
    const w = await walletOf(ada);
    expect(w.holdings[0].balance).toBe(9);
    expect(w.entries[0]).toMatchObject({
      reason: 'use',
      amount: -1,
      balance_after: 9,
      enrollment_id: res.body.enrollment_id,
      order_id: res.body.order_id,
      actor: expect.any(String),
    });
    const order = (await t.http.get(`/api/admin/order/${res.body.order_id}`).set('token', token).expect(200)).body;
    expect(order).toMatchObject({ status: 'paid', total: 0 });
    expect(await grid(eventId)).toEqual([expect.objectContaining({ student_id: ada, paid_with: '10-class pack' })]);
  });

  it('the same booking retried uses once: the second is refused as already enrolled and the balance stays', async () => {
    const ada = await addStudent(t, token);
    const pack = await grant(ada, { kind: 'pack', amount: 3 });
    const eventId = await session();
    await enroll(ada, { event_id: eventId, holding_id: pack.holdingId }).expect(201);
    await enroll(ada, { event_id: eventId, holding_id: pack.holdingId }).expect(409);
    expect(await balanceOf(ada, pack.holdingId)).toBe(2);
    expect((await walletOf(ada)).entries.filter((e) => e.reason === 'use')).toHaveLength(1);
  });

  it('books on a membership (staff may, as Add student): one booking used, the grid shows the membership', async () => {
    const ada = await addStudent(t, token);
    const member = await grant(ada, { kind: 'membership', amount: 8, label: '8 classes a month' });
    const eventId = await session();
    await enroll(ada, { event_id: eventId, holding_id: member.holdingId }, staffToken).expect(201);
    expect(await balanceOf(ada, member.holdingId)).toBe(7);
    expect((await grid(eventId))[0].paid_with).toBe('8 classes a month');
  });

  it('refuses an empty, expired or not-covering holding with the wallet\'s message (409), writing no seat and no use', async () => {
    const ada = await addStudent(t, token);
    const eventId = await session();
    const empty = await grant(ada, { kind: 'pack', amount: 1 });
    await wallet.adjust({ organizationId, userId: '' } as never, ada, empty.holdingId, { amount: -1, reason: 'used up' });
    const expired = await grant(ada, { kind: 'pack', amount: 5, expiresAt: new Date(Date.now() + 60_000) });
    await wallet.expire({ organizationId, holdingId: expired.holdingId, now: new Date(Date.now() + 120_000) });
    const dueNow = await grant(ada, { kind: 'pack', amount: 5, expiresAt: new Date(Date.now() + 1_000) });
    const potteryOnly = await grant(ada, { kind: 'pack', amount: 5, coversActivityIds: [pottery] });
    const credit = await grant(ada, { kind: 'store_credit', amount: 5000, label: 'Store credit' });
    await new Promise((r) => setTimeout(r, 1_100));

    const refused = async (holdingId: string) => (await enroll(ada, { event_id: eventId, holding_id: holdingId }).expect(409)).body.message;
    expect(await refused(empty.holdingId)).toBe(WALLET_MESSAGES.notEnough.credits);
    expect(await refused(expired.holdingId)).toBe(WALLET_MESSAGES.expired);
    expect(await refused(dueNow.holdingId)).toBe(WALLET_MESSAGES.expired);
    expect(await refused(potteryOnly.holdingId)).toBe(WALLET_BOOKING_MESSAGES.notCovering);
    expect(await refused(credit.holdingId)).toBe(WALLET_BOOKING_MESSAGES.notBookable);
    expect(await seatsOf(eventId)).toBe(0);
    expect((await walletOf(ada)).entries.filter((e) => e.reason === 'use')).toEqual([]);
    // A pack that covers the course by its category books it.
    const byCategory = await grant(ada, { kind: 'pack', amount: 2, coversCategoryIds: [2] });
    await enroll(ada, { event_id: await session(pottery), holding_id: byCategory.holdingId }).expect(201);
    expect(await balanceOf(ada, byCategory.holdingId)).toBe(1);
  });

  it("another student's holding, or another organization's, answers 404 and writes nothing", async () => {
    const ada = await addStudent(t, token);
    const ben = await addStudent(t, token);
    const bens = await grant(ben, { kind: 'pack', amount: 5 });
    const olgas = await grant(other.student, { kind: 'pack', amount: 5 }, other.organizationId);
    const eventId = await session();
    expect((await enroll(ada, { event_id: eventId, holding_id: bens.holdingId }).expect(404)).body.message).toBe(WALLET_MESSAGES.holdingNotFound);
    expect((await enroll(ada, { event_id: eventId, holding_id: olgas.holdingId }).expect(404)).body.message).toBe(WALLET_MESSAGES.holdingNotFound);
    // Another organization's admin cannot book this organization's student on their holding.
    await enroll(ada, { event_id: eventId, holding_id: bens.holdingId }, other.token).expect(404);
    expect(await seatsOf(eventId)).toBe(0);
    expect(await balanceOf(ben, bens.holdingId)).toBe(5);
    expect(await wallet.balance(other.organizationId, olgas.holdingId)).toBe(5);
    await enroll(ada, { event_id: eventId, holding_id: 'not-a-uuid' }).expect(400);
  });

  describe('appointments', () => {
    let course: string;
    const date = addDaysToDate(localDateOf(new Date(), ZONE), 3);
    let minute = 0;
    /** A held appointment of the course for the student, at a new time each call. */
    const hold = async (studentId: string, guests = 0) => {
      const time = `${String(9 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      minute += 60;
      const res = await t.http
        .post(`/api/admin/activities/${course}/appointments`)
        .set('token', token)
        .send({ student_id: studentId, starts_at: wallClockToInstant(date, time, ZONE)!.toISOString(), guest_count: guests })
        .expect(201);
      return res.body.id as string;
    };

    beforeAll(async () => {
      const everyDay = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '08:00', end: '20:00' }]]));
      await t.http.put(`/api/admin/instructor/${refs.instructor_id}/availability`).set('token', token).send({ weekly: everyDay }).expect(200);
      course = (
        await t.http
          .post('/api/admin/activities')
          .set('token', token)
          .send({ ...validCourse(refs), name: 'Private lesson', activity_type: 'appointment', single_party: true, capacity: 3, duration_mins: 45, start_time_increments_mins: 60 })
          .expect(201)
      ).body.activity_id;
    });

    it('a party of 2 on a pack uses 2 credits; the use names the appointment and the card shows the pack', async () => {
      const ada = await addStudent(t, token);
      const pack = await grant(ada, { kind: 'pack', amount: 5, label: '5-class pack' });
      const appointmentId = await hold(ada, 1);
      const res = await enroll(ada, { appointment_id: appointmentId, holding_id: pack.holdingId }).expect(201);
      expect(res.body).toMatchObject({ appointment_id: appointmentId, total: 0 });
      const w = await walletOf(ada);
      expect(w.holdings[0].balance).toBe(3);
      expect(w.entries[0]).toMatchObject({ reason: 'use', amount: -2, appointment_id: appointmentId, order_id: res.body.order_id });
      const card = (await t.http.get(`/api/admin/appointments/${appointmentId}`).set('token', token).expect(200)).body;
      expect(card).toMatchObject({ status: 'booked', paid_with: '5-class pack' });
      // Retried: the appointment has its order; nothing more is used.
      await enroll(ada, { appointment_id: appointmentId, holding_id: pack.holdingId }).expect(409);
      expect(await balanceOf(ada, pack.holdingId)).toBe(3);
    });

    it('a membership books its member only, not a party; a pack with too few credits for the party is refused and the time stays held', async () => {
      const ada = await addStudent(t, token);
      const member = await grant(ada, { kind: 'membership', amount: 4, label: 'Four a month' });
      const pack = await grant(ada, { kind: 'pack', amount: 1 });
      const party = await hold(ada, 1);
      expect((await enroll(ada, { appointment_id: party, holding_id: pack.holdingId }).expect(409)).body.message).toBe(WALLET_MESSAGES.notEnough.credits);
      const card = (await t.http.get(`/api/admin/appointments/${party}`).set('token', token).expect(200)).body;
      expect(card).toMatchObject({ status: 'held', order: null, paid_with: null });
      expect((await enroll(ada, { appointment_id: party, holding_id: member.holdingId }).expect(409)).body.message).toBe(
        WALLET_BOOKING_MESSAGES.membershipOwnSeat,
      );
      expect(await balanceOf(ada, member.holdingId)).toBe(4);
      expect(await balanceOf(ada, pack.holdingId)).toBe(1);
    });
  });
});
