import { MESSAGES, POLICY_IDS, SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { BookingLinksService } from '../src/modules/booking-links/booking-links.service';
import { WaitlistClaimTokens } from '../src/modules/waitlist/waitlist-claim-token';
import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { soakSize } from './support/soak';
import { startTestApp, TestApp } from './test-app';

/** Requests that race each other on one session or one name, against real PostgreSQL. */
describe('concurrent changes', () => {
  let t: TestApp;
  let token: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.organizationWithUser('owner')).token;
    course = await schedulableCourse(t, token);
  });
  afterAll(() => t.close());

  const seatsOf = async (eventId: string) => {
    const [row] = await t.withEm((em) =>
      em.getConnection().execute<{ capacity: number; seats: string }[]>(
        `select e.capacity, coalesce(sum(1 + n.guest_count) filter (where n.status = 'active'), 0) as seats
           from event e left join enrollment n on n.event_id = e.id
          where e.id = ? group by e.id`,
        [eventId],
      ),
    );
    return { capacity: row.capacity, seats: Number(row.seats) };
  };

  it('never overbooks a session when guest counts, enrollments and capacity cuts race (16 rounds, 40 in the soak)', async () => {
    // In 16 rounds each of the seven changes goes first at least once (the capacity cut in every even
    // round); `npm run soak` runs 40 (support/soak.ts).
    const ROUNDS = soakSize(16, 40);
    const enrolled = await Promise.all(Array.from({ length: 4 }, () => addStudent(t, token)));
    const newcomers = await Promise.all(Array.from({ length: 2 }, () => addStudent(t, token)));
    const overbooked: string[] = [];
    const statuses = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      // 4 students in a session of 12; then at once: a capacity cut to 4 (allowed only while no
      // guest has been added), 2 guests for each student (3 seats each) and 2 new students. Even
      // rounds send the capacity cut first (the order that overbooked when guests read the capacity
      // before the lock); odd rounds rotate the order, so each kind of change gets to go first.
      const eventId = await scheduleSession(t, token, course, { capacity: 12, daysFromNow: 30 + round });
      const enrollments = await Promise.all(
        enrolled.map(async (student) => {
          const res = await t.http.post(`/api/admin/orders/enroll/${student}`).set('token', token).send({ event_id: eventId }).expect(201);
          return res.body.enrollment_id as string;
        }),
      );
      const changes = [
        { what: 'capacity', send: () => t.http.put(`/api/admin/events/${eventId}`).set('token', token).send({ price: 4500, capacity: 4 }) },
        ...enrollments.map((id) => ({
          what: 'guests',
          send: () => t.http.put(`/api/admin/enrollment/${id}/guests`).set('token', token).send({ guestCount: 2 }),
        })),
        ...newcomers.map((s) => ({
          what: 'enroll',
          send: () => t.http.post(`/api/admin/orders/enroll/${s}`).set('token', token).send({ event_id: eventId }),
        })),
      ];
      const shift = round % 2 === 0 ? 0 : 1 + ((round >> 1) % (changes.length - 1));
      const ordered = [...changes.slice(shift), ...changes.slice(0, shift)];
      const results = await Promise.all(ordered.map((c) => c.send()));
      for (const [i, res] of results.entries()) {
        const what = ordered[i].what;
        statuses.set(`${what} ${res.status}`, (statuses.get(`${what} ${res.status}`) ?? 0) + 1);
        // Refusals are the seat rules' own 409s, never an error of ours.
        expect([200, 201, 409]).toContain(res.status);
      }
      const { capacity, seats } = await seatsOf(eventId);
      if (seats > capacity) overbooked.push(`round ${round + 1}: ${seats} seats taken against capacity ${capacity}`);
      // What the API reports agrees with the rows.
      const event = await t.http.get(`/api/admin/events/${eventId}`).set('token', token).expect(200);
      expect(event.body).toMatchObject({ capacity, seats_taken: seats });
    }
    console.log(
      `seat race: ${ROUNDS} rounds, ${overbooked.length} overbooked; answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(overbooked).toEqual([]);
  }, 180_000);

  it('answers 200 to 30 identical concurrent tag replacements and keeps the requested tags', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 10 });
    const names = ['Glaze', 'Throwing', 'Evening'];
    const tags: string[] = [];
    for (const name of names) tags.push((await t.http.post('/api/admin/events/tags').set('token', token).send({ name }).expect(201)).body.tag_id);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => t.http.put(`/api/admin/events/${eventId}/tags`).set('token', token).send({ tags })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    for (const res of results) expect(res.body.tags.map((x: { name: string }) => x.name)).toEqual([...names].sort());
    const read = await t.http.get(`/api/admin/events/${eventId}/tags`).set('token', token).expect(200);
    expect(read.body.tags.map((x: { tag_id: string }) => x.tag_id).sort()).toEqual([...tags].sort());
  });

  it('answers the resource’s own 409 when creations of one student or one tag race', async () => {
    const email = `race.${Date.now()}@example.test`;
    const students = await Promise.all(
      Array.from({ length: 12 }, () => t.http.post('/api/admin/student').set('token', token).send({ first_name: 'Rae', last_name: 'Race', email })),
    );
    expect(students.filter((r) => r.status === 201)).toHaveLength(1);
    for (const res of students.filter((r) => r.status !== 201)) {
      expect(res.body).toEqual({ statusCode: 409, message: MESSAGES.students.emailTaken, errors: { email: MESSAGES.students.emailTaken } });
    }
    const tags = await Promise.all(
      Array.from({ length: 12 }, () => t.http.post('/api/admin/events/tags').set('token', token).send({ name: 'Raku' })),
    );
    expect(tags.filter((r) => r.status === 201)).toHaveLength(1);
    for (const res of tags.filter((r) => r.status !== 201)) {
      expect(res.body).toEqual({ statusCode: 409, message: M.tagNameTaken, errors: { name: M.tagNameTaken } });
    }
  });

  it('seats exactly the capacity when 24 students enroll at once, refuses the rest as full, and numbers the orders without gaps', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 6, daysFromNow: 90 });
    const students = await Promise.all(Array.from({ length: 24 }, () => addStudent(t, token)));
    const answers = await Promise.all(
      students.map((s) => t.http.post(`/api/admin/orders/enroll/${s}`).set('token', token).send({ event_id: eventId })),
    );
    const seated = answers.filter((r) => r.status === 201);
    expect(seated).toHaveLength(6);
    for (const res of answers.filter((r) => r.status !== 201)) expect(res.body).toEqual({ statusCode: 409, message: M.sessionFull });
    expect(await seatsOf(eventId)).toEqual({ capacity: 6, seats: 6 });
    // The counter is taken in the last statement before commit: every seated order has its number,
    // one after the other.
    const numbers = seated.map((r) => r.body.order_number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
    for (const res of seated) {
      const order = await t.http.get(`/api/admin/order/${res.body.order_id}`).set('token', token).expect(200);
      expect(order.body).toMatchObject({ order_number: res.body.order_number, total: 0, source: 'workbench', status: 'paid' });
      expect(order.body.lines).toMatchObject([{ kind: 'seat', event_id: eventId, unit_price: 0, quantity: 1 }]);
    }
    // The quick refusal before the lock keeps the rules' order: a seated student asking again in the
    // full session hears "already enrolled", not "full".
    const again = await t.http.post(`/api/admin/orders/enroll/${students[answers.indexOf(seated[0])]}`).set('token', token).send({ event_id: eventId });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.alreadyEnrolled);
  });
  it('gives one freed seat (a student cancelling from the manage link, or removed) to exactly one of a waitlist claim, an admin enrollment and a store buyer, and never overbooks (30 rounds)', async () => {
    const ROUNDS = 30;
    const links = t.created.app.get(BookingLinksService);
    // A course whose students may cancel themselves (Firm: the sessions here are months away).
    const selfService = await schedulableCourse(t, token, 8, { cancel_policy_id: POLICY_IDS.firm, reschedule_policy_id: POLICY_IDS.agile });
    const slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug as string;
    const taken = async (eventId: string) => {
      const [row] = await t.withEm((em) =>
        em.getConnection().execute<{ capacity: number; enrolled: string; held: string }[]>(
          `select e.capacity,
                  (select coalesce(sum(1 + guest_count), 0) from enrollment where event_id = e.id and status = 'active') as enrolled,
                  (select coalesce(sum(seats), 0) from seat_hold where event_id = e.id and released_at is null and expires_at > now()) as held
             from event e where e.id = ?`,
          [eventId],
        ),
      );
      return { capacity: row.capacity, seats: Number(row.enrolled) + Number(row.held) };
    };
    // The latest offer's claim token, as its mail carries it (derived, never stored: WaitlistClaimTokens).
    const claimToken = async (eventId: string) => {
      const [row] = await t.withEm((em) =>
        em.getConnection().execute<{ id: string; offered_at: Date }[]>(
          `select w.id, w.offered_at from outbox_message m join waitlist_entry w on w.id = (m.payload->>'entryId')::uuid
            where m.type = 'waitlist.offered' and m.payload->>'eventId' = ? order by m.seq desc limit 1`,
          [eventId],
        ),
      );
      return row ? t.created.app.get(WaitlistClaimTokens).tokenFor(row.id, new Date(row.offered_at)) : undefined;
    };
    const wins = { claim: 0, enroll: 0, store: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // A session of one seat, taken; a party of one on its waitlist.
      const eventId = await scheduleSession(t, token, round % 4 === 0 ? selfService : course, { capacity: 1, price: 2000, daysFromNow: 200 + round });
      const seated = await addStudent(t, token);
      const enrollmentId = (await t.http.post(`/api/admin/orders/enroll/${seated}`).set('token', token).send({ event_id: eventId }).expect(201)).body
        .enrollment_id as string;
      const waiter = `waiter.${round}.${Date.now()}@example.test`;
      await t.http.post(`/api/public/${slug}/sessions/${eventId}/waitlist`).send({ name: 'Wait Er', email: waiter, party_size: 1 }).expect(200);
      const admin = await addStudent(t, token);
      const enroll = () => t.http.post(`/api/admin/orders/enroll/${admin}`).set('token', token).send({ event_id: eventId });
      const store = () =>
        t.http
          .post(`/api/public/${slug}/checkout`)
          .send({ event_id: eventId, party_size: 1, first_name: 'Store', last_name: 'Buyer', email: `buyer.${round}.${Date.now()}@example.test` });
      const claim = (claimTokenValue: string) =>
        t.http
          .post(`/api/public/${slug}/checkout`)
          .send({ event_id: eventId, party_size: 1, first_name: 'Wait', last_name: 'Er', email: waiter, claim_token: claimTokenValue });

      let claimed = false;
      let enrolled: boolean;
      let bought: boolean;
      if (round % 2 === 0) {
        // The seat frees (the student cancels from the manage link, or the admin removes them) while
        // the admin and a buyer ask for it: the waitlist's offer (from the removal's announcement)
        // races them for it, then the offered party claims it.
        const free =
          round % 4 === 0
            ? t.http.post(`/api/public/${slug}/bookings/${await links.tokenFor('enrollment', enrollmentId)}/cancel`).expect(200)
            : t.http.delete(`/api/admin/enrollment/${enrollmentId}`).set('token', token).expect(204);
        const [, e, b] = await Promise.all([free, enroll(), store()]);
        await t.settle();
        const offered = await claimToken(eventId);
        if (offered) claimed = (await claim(offered)).status === 201;
        enrolled = e.status === 201;
        bought = b.status === 201;
      } else {
        // The seat is offered; its hold runs out at the moment the claim, the admin and a buyer ask for it.
        await t.http.delete(`/api/admin/enrollment/${enrollmentId}`).set('token', token).expect(204);
        await t.settle();
        const offered = (await claimToken(eventId))!;
        expect(offered).toBeDefined();
        await t.withEm((em) =>
          em
            .getConnection()
            .execute(`update seat_hold set expires_at = clock_timestamp() + ? * interval '1 millisecond' where event_id = ? and order_id is null`, [
              20 + (round % 7) * 40,
              eventId,
            ]),
        );
        const [c, e, b] = await Promise.all([claim(offered), enroll(), store()]);
        claimed = c.status === 201;
        enrolled = e.status === 201;
        bought = b.status === 201;
        for (const res of [c, e, b]) expect([201, 409, 410]).toContain(res.status);
      }
      const winners = [claimed, enrolled, bought].filter(Boolean).length;
      const seats = await taken(eventId);
      if (round % 2 === 0) expect({ round, winners, ...seats }).toEqual({ round, winners: 1, capacity: 1, seats: 1 });
      else {
        // Racing the hold's own expiry, all three may lose: the admin and the buyer asked while the
        // offer still held the seat, the claim came just after it ran out. Never two, and a seat
        // nobody won is free again (the expiry offers it to the next party).
        expect(winners).toBeLessThanOrEqual(1);
        expect({ round, ...seats }).toEqual({ round, capacity: 1, seats: winners });
      }
      if (claimed) wins.claim++;
      if (enrolled) wins.enroll++;
      if (bought) wins.store++;
    }
    // Each contender won some rounds (the races are real, not decided by order).
    expect(wins.claim + wins.enroll + wins.store).toBeGreaterThanOrEqual(ROUNDS / 2);
    expect(wins.claim).toBeGreaterThan(0);
  });
});
