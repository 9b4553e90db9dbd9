import { CHECKOUT_MESSAGES as C, WAITLIST_MESSAGES as M } from '@studio/contracts';
import { createHash } from 'node:crypto';
import { EnrollmentEvents } from '../src/modules/scheduling/enrollment-events';
import { WaitlistService } from '../src/modules/waitlist/waitlist.service';
import { eventually, startFakeSmtp } from './support/fake-smtp';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { SessionEvents } from '../src/modules/scheduling/session-events';
import { startTestApp, TestApp } from './test-app';

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;
interface Entry {
  entry_id: string;
  name: string;
  email: string;
  party_size: number;
  joined_at: string;
  status: string;
  offered_until: string | null;
}

/**
 * The waitlist of a sold-out session (issue 23), through the public and admin APIs: joining
 * (validation, idempotent, refused while seats are left), offers in order when seats free up (a
 * party too large skipped, not removed; several seats offer several parties; a capacity raise; a
 * released store hold; an event delivered twice makes one offer), the claim through the store's
 * checkout taking over the offer's hold, an unclaimed offer expiring to the next party, the admin's
 * remove, reorder and "Offer the seat", the claim time setting, and tenancy.
 */
describe('waitlist', () => {
  let smtp: Smtp;
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let slug: string;
  let other: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let serial = 0;
  let daysAhead = 3;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      RUN_WORKER: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Waitlist Pottery');
    token = owner.token;
    organizationId = owner.organization.id;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    course = await schedulableCourse(t, token, 10, { name: 'Wheel throwing' });
    other = (await t.organizationWithUser('owner', 'Other Glass')).token;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const person = (name = 'Wanda') => {
    serial += 1;
    return { name: `${name} ${serial}`, email: `${name.toLowerCase()}.${serial}.${Date.now()}@example.test` };
  };
  const join = (eventId: string, body: object) =>
    t.http.post(`/api/public/${slug}/sessions/${eventId}/waitlist`).send(body);
  const list = async (eventId: string) =>
    (await t.http.get(`/api/admin/events/${eventId}/waitlist`).set('token', token).expect(200)).body
      .entries as Entry[];
  const statuses = async (eventId: string) => (await list(eventId)).map((e) => `${e.name}:${e.status}`);
  const enroll = (studentId: string, eventId: string) =>
    t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId });
  const enrollments = async (eventId: string) =>
    (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body
      .enrollments as {
      enrollment_id: string;
      Student: { email: string };
      guestCount: number;
    }[];
  const seatsLeft = async (eventId: string) =>
    (await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200)).body.sessions.find(
      (s: { event_id: string }) => s.event_id === eventId,
    ).seats_left as number;
  /** A session of `capacity` seats, every one taken by an enrolled student. */
  const soldOut = async (capacity: number, price = 3000) => {
    const eventId = await scheduleSession(t, token, course, { capacity, price, daysFromNow: daysAhead++ });
    for (let i = 0; i < capacity; i++) await enroll(await addStudent(t, token), eventId).expect(201);
    return eventId;
  };
  const removeOne = async (eventId: string) => {
    const [first] = await enrollments(eventId);
    await t.http.delete(`/api/admin/enrollment/${first.enrollment_id}`).set('token', token).expect(204);
  };
  const offerMails = (email: string) => smtp.to(email).filter((m) => /^A seat is free/.test(m.subject ?? ''));
  /** The claim link mailed to `email` (the latest offer). */
  const claimLink = async (email: string) => {
    const mails = await eventually(
      () => offerMails(email),
      (m) => m.length > 0,
    );
    const link = /http:\/\/studio\.test\/s\/[^\s]+/.exec(mails[mails.length - 1].text ?? '')![0];
    const url = new URL(link);
    return { url, token: url.searchParams.get('claim')!, eventId: url.searchParams.get('event_id')! };
  };
  const holds = (eventId: string) =>
    t.withEm((em) =>
      em
        .getConnection()
        .execute<
          {
            id: string;
            order_id: string | null;
            waitlist_entry_id: string | null;
            seats: number;
            live: boolean;
          }[]
        >(
          `select id, order_id, waitlist_entry_id, seats, (released_at is null and expires_at > now()) as live from seat_hold where event_id = ? order by created_at`,
          [eventId],
        ),
    );
  /** The tables with a text or JSON value containing `needle` (the whole database, every row). */
  const tablesHolding = (needle: string) =>
    t.withEm(async (em) => {
      const connection = em.getConnection();
      const columns = await connection.execute<{ table_name: string; column_name: string }[]>(
        `select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb')`,
      );
      const byTable = new Map<string, string[]>();
      for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
      const holding: string[] = [];
      for (const [table, names] of byTable) {
        const text = names.map((n) => `coalesce("${n}"::text, '')`).join(` || ' ' || `);
        const found = await connection.execute(`select 1 from "${table}" where ${text} like ? limit 1`, [`%${needle}%`]);
        if (found.length) holding.push(table);
      }
      return holding;
    });
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const buyer = (who: { name: string; email: string }) => ({
    first_name: who.name.split(' ')[0],
    last_name: 'Waiter',
    email: who.email,
  });

  it('joins a sold-out session: validated, one entry per email, a confirmation mail; a session with seats takes none', async () => {
    const open = await scheduleSession(t, token, course, { capacity: 4, daysFromNow: daysAhead++ });
    const refused = await join(open, { ...person(), party_size: 1 }).expect(409);
    expect(refused.body).toEqual({ statusCode: 409, message: M.hasSeats });
    expect(await list(open)).toEqual([]);

    const eventId = await soldOut(3);
    for (const [body, field, message] of [
      [{ email: 'a@example.test' }, 'name', M.nameRequired],
      [{ name: ' ', email: 'a@example.test' }, 'name', M.nameRequired],
      [{ name: 'Ann', email: 'not-an-email' }, 'email', M.email],
      [{ name: 'Ann', email: 'a@example.test', party_size: 0 }, 'party_size', M.partySize(20)],
      [{ name: 'Ann', email: 'a@example.test', party_size: 1.5 }, 'party_size', M.partySize(20)],
      [{ name: 'Ann', email: 'a@example.test', party_size: 21 }, 'party_size', M.partySize(20)],
      [{ name: 'Ann', email: 'a@example.test', party_size: 4 }, 'party_size', M.partySize(3)],
      [{ name: 'x'.repeat(201), email: 'a@example.test' }, 'name', M.nameTooLong],
    ] as const) {
      const res = await join(eventId, body).expect(400);
      expect(res.body.errors?.[field]).toBe(message);
    }
    expect(await list(eventId)).toEqual([]);
    await join('00000000-0000-4000-8000-000000000000', { ...person(), party_size: 1 }).expect(404);
    await join('not-a-session', { ...person(), party_size: 1 }).expect(404);

    const who = person('Joan');
    const joined = await join(eventId, { ...who, party_size: 2 }).expect(200);
    expect(joined.body).toEqual({ status: 'joined', message: M.joined, party_size: 2 });
    const again = await join(eventId, {
      name: 'Joan again',
      email: who.email.toUpperCase(),
      party_size: 1,
    }).expect(200);
    // The same words as a first join (issue 31): the answer tells no one who waits; the entry is kept.
    expect(again.body).toEqual({ status: 'joined', message: M.joined, party_size: 1 });
    const entries = await list(eventId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      name: who.name,
      email: who.email,
      party_size: 2,
      status: 'waiting',
      offered_until: null,
    });

    const mails = await eventually(
      () => smtp.to(who.email),
      (m) => m.length === 2,
    );
    const mail = mails.find((m) => m.subject === "You're on the waitlist: Wheel throwing")!;
    expect(mail.text).toContain('number 1 in line');
    expect(mail.text).toContain('2 seats');
    // The owner, not the asker, learns that their email asked again: their place, kept.
    const reminder = mails.find((m) => m.subject === "You're already on the waitlist: Wheel throwing")!;
    expect(reminder.text).toContain('Nothing changed: your place is kept.');
    expect(reminder.text).toContain('number 1 in line');
    // Another store's address does not know the session.
    const otherSlug = (await t.http.get('/api/admin/org').set('token', other).expect(200)).body.slug;
    await t.http
      .post(`/api/public/${otherSlug}/sessions/${eventId}/waitlist`)
      .send({ ...person(), party_size: 1 })
      .expect(404);
  });

  it('offers a freed seat to the first party that fits, skipping a party too large; an event delivered twice makes one offer', async () => {
    const eventId = await soldOut(3);
    const big = person('Big');
    const one = person('One');
    const two = person('Two');
    await join(eventId, { ...big, party_size: 2 }).expect(200);
    await join(eventId, { ...one, party_size: 1 }).expect(200);
    await join(eventId, { ...two, party_size: 1 }).expect(200);

    await removeOne(eventId);
    expect(await statuses(eventId)).toEqual([
      `${big.name}:waiting`,
      `${one.name}:offered`,
      `${two.name}:waiting`,
    ]);
    const offered = (await list(eventId))[1];
    const hours = (Date.parse(offered.offered_until!) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    // The offer holds the seat: the store shows the session sold out, and a buyer cannot take it.
    expect(await seatsLeft(eventId)).toBe(0);
    expect(
      (await checkout({ event_id: eventId, party_size: 1, ...buyer(person('Buyer')) }).expect(409)).body
        .message,
    ).toBe(C.soldOut);
    const { token: claim, eventId: linkEvent } = await claimLink(one.email);
    expect(linkEvent).toBe(eventId);
    expect(claim).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);

    // The same announcement again (at-least-once delivery): no second offer, one hold.
    await t.withEm(() => t.created.app.get(WaitlistService).offerFreeSeats(organizationId, eventId));
    await t.settle();
    expect(await statuses(eventId)).toEqual([
      `${big.name}:waiting`,
      `${one.name}:offered`,
      `${two.name}:waiting`,
    ]);
    expect((await holds(eventId)).filter((h) => h.live)).toHaveLength(1);
    expect(offerMails(one.email)).toHaveLength(1);

    // A capacity raise by 2 offers the next parties that fit: the party of 2 first, then nobody (no seat left).
    await t.http
      .put(`/api/admin/events/${eventId}`)
      .set('token', token)
      .send({ price: 3000, capacity: 5 })
      .expect(200);
    expect(await statuses(eventId)).toEqual([
      `${big.name}:offered`,
      `${one.name}:offered`,
      `${two.name}:waiting`,
    ]);
    await claimLink(big.email);
    // And one more seat offers the last.
    await t.http
      .put(`/api/admin/events/${eventId}`)
      .set('token', token)
      .send({ price: 3000, capacity: 6 })
      .expect(200);
    expect(await statuses(eventId)).toEqual([
      `${big.name}:offered`,
      `${one.name}:offered`,
      `${two.name}:offered`,
    ]);
  });

  it('several free seats offer several parties at once', async () => {
    const eventId = await soldOut(2);
    const a = person('Ada');
    const b = person('Bea');
    const c = person('Cyd');
    for (const p of [a, b, c]) await join(eventId, { ...p, party_size: 1 }).expect(200);
    await t.http
      .put(`/api/admin/events/${eventId}`)
      .set('token', token)
      .send({ price: 3000, capacity: 4 })
      .expect(200);
    expect(await statuses(eventId)).toEqual([`${a.name}:offered`, `${b.name}:offered`, `${c.name}:waiting`]);
  });

  it('a student moved to another session (enrollment.moved) frees the seat for the waitlist, once however often it is delivered', async () => {
    const eventId = await soldOut(1);
    const target = await scheduleSession(t, token, course, {
      capacity: 3,
      price: 3000,
      daysFromNow: daysAhead++,
    });
    const m = person('Mover');
    await join(eventId, { ...m, party_size: 1 }).expect(200);
    const [seat] = await enrollments(eventId);
    const studentId = (
      await t.withEm((em) =>
        em
          .getConnection()
          .execute<{ student_id: string }[]>(`select student_id from enrollment where id = ?`, [
            seat.enrollment_id,
          ]),
      )
    )[0].student_id;
    // The move itself is the manage link's (brief A): the seat changes session, and it is announced.
    await t.withEm((em) =>
      em
        .getConnection()
        .execute(`update enrollment set event_id = ? where id = ?`, [target, seat.enrollment_id]),
    );
    const moved = {
      type: 'enrollment.moved' as const,
      organizationId,
      enrollmentId: seat.enrollment_id,
      studentId,
      fromEventId: eventId,
      toEventId: target,
    };
    await t.redeliver(t.created.app.get(EnrollmentEvents), moved);
    expect(await statuses(eventId)).toEqual([`${m.name}:offered`]);
    await t.redeliver(t.created.app.get(EnrollmentEvents), moved);
    expect((await holds(eventId)).filter((h) => h.live)).toHaveLength(1);
    await eventually(
      () => offerMails(m.email),
      (mails) => mails.length === 1,
    );
  });

  it('the studio cancels the session: every waiting or offered party is told, the waitlist closes (the offer\'s seats end), once however often it is delivered', async () => {
    const eventId = await soldOut(1);
    const a = person('Ona');
    const b = person('Ola');
    for (const p of [a, b]) await join(eventId, { ...p, party_size: 1 }).expect(200);
    await removeOne(eventId);
    expect(await statuses(eventId)).toEqual([`${a.name}:offered`, `${b.name}:waiting`]);

    await t.http
      .post(`/api/admin/events/${eventId}/cancel`)
      .set('token', token)
      .send({ refund: 'none', reason: 'The kiln is broken.' })
      .expect(200);
    await t.settle();
    expect(await statuses(eventId)).toEqual([`${a.name}:removed`, `${b.name}:removed`]);
    expect((await holds(eventId)).filter((h) => h.live)).toEqual([]);
    for (const p of [a, b]) {
      const [mail] = await eventually(
        () => smtp.to(p.email).filter((m) => /^Cancelled: /.test(m.subject ?? '')),
        (m) => m.length === 1,
      );
      expect(mail.text).toContain('was cancelled by the studio, so its waitlist is closed');
      expect(mail.text).toContain('The studio says: The kiln is broken.');
    }
    // Delivered again: nothing left to close, nobody mailed twice.
    const organizationId = (await t.http.get('/api/auth/session').set('token', token).expect(200)).body.organization.organization_id;
    await t.redeliver(t.created.app.get(SessionEvents), {
      type: 'session.cancelled',
      organizationId,
      eventId,
      activityId: course.activity_id,
      refund: 'none',
      reason: 'The kiln is broken.',
    });
    await t.idle();
    for (const p of [a, b]) expect(smtp.to(p.email).filter((m) => /^Cancelled: /.test(m.subject ?? ''))).toHaveLength(1);
  });

  it('a store hold released (checkout abandoned) offers its seats', async () => {
    const eventId = await scheduleSession(t, token, course, {
      capacity: 2,
      price: 2500,
      daysFromNow: daysAhead++,
    });
    const held = await checkout({ event_id: eventId, party_size: 2, ...buyer(person('Holder')) }).expect(201);
    const w = person('Wait');
    await join(eventId, { ...w, party_size: 2 }).expect(200);
    await t.http
      .post(`${new URL(held.body.payment_url).pathname}/cancel`)
      .type('form')
      .send('')
      .expect(200);
    await t.settle();
    expect(await statuses(eventId)).toEqual([`${w.name}:offered`]);
  });

  it('the claim link opens the checkout with the offered seats: the checkout converts the offer’s hold, paid books them', async () => {
    const eventId = await soldOut(2);
    const who = person('Claire');
    await join(eventId, { ...who, party_size: 1 }).expect(200);
    await removeOne(eventId);
    const { token: claim, url } = await claimLink(who.email);
    expect(url.pathname).toBe(`/s/${slug}/checkout`);

    const state = await t.http.get(`/api/public/${slug}/waitlist/claim`).query({ token: claim }).expect(200);
    expect(state.body).toMatchObject({
      status: 'offered',
      event_id: eventId,
      party_size: 1,
      email: who.email,
    });
    // A token this store never gave, or malformed.
    const forged = `${claim.slice(0, 37)}${'A'.repeat(43)}`;
    expect(
      (await t.http.get(`/api/public/${slug}/waitlist/claim`).query({ token: forged }).expect(404)).body
        .message,
    ).toBe(M.offerNotFound);
    await t.http.get(`/api/public/${slug}/waitlist/claim`).query({ token: 'nope' }).expect(400);
    await checkout({ event_id: eventId, party_size: 1, claim_token: forged, ...buyer(who) }).expect(404);
    // The party is the offer's.
    const wrongParty = await checkout({
      event_id: eventId,
      party_size: 2,
      claim_token: claim,
      ...buyer(who),
    }).expect(400);
    expect(wrongParty.body.errors).toEqual({ party_size: M.claimParty(1) });

    const before = await holds(eventId);
    const offerHold = before.find((h) => h.live)!;
    expect(offerHold).toMatchObject({ order_id: null, seats: 1 });
    const res = await checkout({
      event_id: eventId,
      party_size: 1,
      claim_token: claim,
      ...buyer(who),
    }).expect(201);
    expect(res.body).toMatchObject({ status: 'pending', total_cents: 3000 });
    // No new hold: the offer's hold is now the order's.
    const after = await holds(eventId);
    expect(after).toHaveLength(before.length);
    expect(after.find((h) => h.id === offerHold.id)).toMatchObject({
      order_id: res.body.order_id,
      live: true,
    });
    expect((await list(eventId))[0].status).toBe('claimed');
    // The link cannot be used twice.
    await checkout({
      event_id: eventId,
      party_size: 1,
      claim_token: claim,
      ...buyer(person('Other')),
    }).expect(410);

    await t.http
      .post(`${new URL(res.body.payment_url).pathname}/pay`)
      .type('form')
      .send('')
      .expect(200);
    await t.settle();
    const seats = await enrollments(eventId);
    expect(seats.map((e) => e.Student.email)).toContain(who.email);
    expect(seats).toHaveLength(2);
    expect(await seatsLeft(eventId)).toBe(0);
    expect(
      (await t.http.get(`/api/public/${slug}/waitlist/claim`).query({ token: claim }).expect(200)).body
        .status,
    ).toBe('claimed');
    // Issue 31: the token the mail carried is stored nowhere, in no outbox row (of any status) and in
    // no other table; the entry keeps its SHA-256 only.
    const secretPart = claim.split('.')[1];
    const outboxRows = await t.withEm((em) =>
      em.getConnection().execute<{ id: string; done: boolean }[]>(
        `select id, done_at is not null as done from outbox_message where type = 'waitlist.offered' and payload->>'entryId' = ?`,
        [claim.slice(0, 36)],
      ),
    );
    expect(outboxRows.length).toBeGreaterThan(0);
    expect(await t.withEm((em) => em.getConnection().execute(`select id from outbox_message where payload::text like ?`, [`%${secretPart}%`]))).toEqual([]);
    expect(await tablesHolding(secretPart)).toEqual([]);
    const [entry] = await t.withEm((em) =>
      em.getConnection().execute<{ claim_token_hash: string }[]>(`select claim_token_hash from waitlist_entry where id = ?`, [claim.slice(0, 36)]),
    );
    expect(entry.claim_token_hash).toBe(createHash('sha256').update(claim).digest('hex'));
  });

  it('an unclaimed offer expires and the next party that fits is offered; the old link says the offer ended', async () => {
    const eventId = await soldOut(1);
    const first = person('First');
    const second = person('Second');
    await join(eventId, { ...first, party_size: 1 }).expect(200);
    await join(eventId, { ...second, party_size: 1 }).expect(200);
    await removeOne(eventId);
    const { token: claim } = await claimLink(first.email);
    expect(await statuses(eventId)).toEqual([`${first.name}:offered`, `${second.name}:waiting`]);

    // The job finds nothing to do while the offer runs.
    await t.withEm(() => t.created.app.get(WaitlistService).expireOffers({}));
    await t.settle();
    expect(await statuses(eventId)).toEqual([`${first.name}:offered`, `${second.name}:waiting`]);

    // The hold runs out; the expiry job expires the offer and offers the next.
    await t.withEm((em) =>
      em
        .getConnection()
        .execute(
          `update seat_hold set expires_at = now() - interval '1 minute' where event_id = ? and order_id is null and released_at is null`,
          [eventId],
        ),
    );
    await t.withEm(() => t.created.app.get(WaitlistService).expireOffers({ organizationId, eventId }));
    await t.settle();
    expect(await statuses(eventId)).toEqual([`${first.name}:expired`, `${second.name}:offered`]);
    await claimLink(second.email);
    expect((await holds(eventId)).filter((h) => h.live)).toHaveLength(1);

    const ended = await t.http.get(`/api/public/${slug}/waitlist/claim`).query({ token: claim }).expect(200);
    expect(ended.body).toMatchObject({ status: 'ended', message: M.offerEnded, offered_until: null });
    const late = await checkout({
      event_id: eventId,
      party_size: 1,
      claim_token: claim,
      ...buyer(first),
    }).expect(410);
    expect(late.body.message).toBe(M.offerEnded);
    // Expired entries stay in the list; joining again is a new entry.
    await join(eventId, { ...first, party_size: 1 }).expect(200);
    expect(await statuses(eventId)).toEqual([
      `${first.name}:expired`,
      `${second.name}:offered`,
      `${first.name}:waiting`,
    ]);
  });

  it('the admin removes, reorders and offers the seat (refused while the seats are not free)', async () => {
    const eventId = await soldOut(1);
    const [r, s, u] = [person('Rae'), person('Sam'), person('Uma')];
    for (const p of [r, s, u]) await join(eventId, { ...p, party_size: 1 }).expect(200);
    const ids = Object.fromEntries((await list(eventId)).map((e) => [e.name, e.entry_id]));
    const move = (id: string, direction: string) =>
      t.http.post(`/api/admin/waitlist/${id}/move`).set('token', token).send({ direction });
    const offer = (id: string) => t.http.post(`/api/admin/waitlist/${id}/offer`).set('token', token);

    expect((await move(ids[u.name], 'up').expect(200)).body.entries.map((e: Entry) => e.name)).toEqual([
      r.name,
      u.name,
      s.name,
    ]);
    expect((await move(ids[r.name], 'up').expect(409)).body.message).toBe(M.cannotMove);
    expect((await move(ids[s.name], 'down').expect(409)).body.message).toBe(M.cannotMove);
    expect((await move(ids[r.name], 'sideways').expect(400)).body.errors).toHaveProperty('direction');

    expect((await offer(ids[s.name]).expect(409)).body.message).toBe(M.seatsNotFree);
    await t.http.delete(`/api/admin/waitlist/${ids[r.name]}`).set('token', token).expect(200);
    await t.http.delete(`/api/admin/waitlist/${ids[r.name]}`).set('token', token).expect(200);
    await move(ids[r.name], 'down').expect(409);
    expect(await statuses(eventId)).toEqual([`${r.name}:removed`, `${u.name}:waiting`, `${s.name}:waiting`]);

    // A seat frees: the first in the new order is offered.
    await removeOne(eventId);
    expect(await statuses(eventId)).toEqual([`${r.name}:removed`, `${u.name}:offered`, `${s.name}:waiting`]);
    expect((await offer(ids[u.name]).expect(409)).body.message).toBe(M.notWaiting);
    // Removing the offered entry gives its seat to the next.
    await t.http.delete(`/api/admin/waitlist/${ids[u.name]}`).set('token', token).expect(200);
    expect(await statuses(eventId)).toEqual([`${r.name}:removed`, `${u.name}:removed`, `${s.name}:offered`]);
    expect((await holds(eventId)).filter((h) => h.live)).toHaveLength(1);
    await claimLink(s.email);

    // A party too large for the seat freed waits; the admin cannot offer it seats that are not free.
    const v = person('Vic');
    const w = person('Wes');
    const solo = await soldOut(2);
    await join(solo, { ...v, party_size: 2 }).expect(200); // too large for one seat
    await join(solo, { ...w, party_size: 1 }).expect(200);
    await t.http
      .put(`/api/admin/events/${solo}`)
      .set('token', token)
      .send({ price: 3000, capacity: 3 })
      .expect(200);
    expect(await statuses(solo)).toEqual([`${v.name}:waiting`, `${w.name}:offered`]);
    const vid = (await list(solo))[0].entry_id;
    expect((await offer(vid).expect(409)).body.message).toBe(M.seatsNotFree);
    await t.http
      .put(`/api/admin/events/${solo}`)
      .set('token', token)
      .send({ price: 3000, capacity: 5 })
      .expect(200);
    // The capacity raise offered the 2 seats to the party of 2 already.
    expect(await statuses(solo)).toEqual([`${v.name}:offered`, `${w.name}:offered`]);

    // Offer the seat by hand: seats free that no announcement offered.
    const x = person('Xan');
    const solo2 = await soldOut(1);
    await join(solo2, { ...x, party_size: 1 }).expect(200);
    const xid = (await list(solo2))[0].entry_id;
    // Free a seat without any announcement (as a guest count lowered does): only the admin's offer sees it.
    await t.withEm((em) => em.getConnection().execute(`update event set capacity = 2 where id = ?`, [solo2]));
    const offered = await offer(xid).expect(200);
    expect(offered.body.entries[0]).toMatchObject({ status: 'offered', offered_until: expect.any(String) });
    await claimLink(x.email);
  });

  it('tenancy: another organization’s session and entries answer 404', async () => {
    const eventId = await soldOut(1);
    const p = person('Ten');
    await join(eventId, { ...p, party_size: 1 }).expect(200);
    const [entry] = await list(eventId);
    await t.http.get(`/api/admin/events/${eventId}/waitlist`).set('token', other).expect(404);
    await t.http.delete(`/api/admin/waitlist/${entry.entry_id}`).set('token', other).expect(404);
    await t.http
      .post(`/api/admin/waitlist/${entry.entry_id}/move`)
      .set('token', other)
      .send({ direction: 'up' })
      .expect(404);
    await t.http.post(`/api/admin/waitlist/${entry.entry_id}/offer`).set('token', other).expect(404);
    await t.http.get(`/api/admin/events/not-a-uuid/waitlist`).set('token', token).expect(404);
    expect(await statuses(eventId)).toEqual([`${p.name}:waiting`]);
  });

  it('the claim time: 12 hours by default, 1 to 168, and offers follow it', async () => {
    const settings = (as = token) => t.http.get('/api/admin/org').set('token', as);
    const save = (body: object) => t.http.put('/api/admin/org/waitlist').set('token', token).send(body);
    expect((await settings().expect(200)).body.waitlist_claim_hours).toBe(12);
    for (const body of [
      { waitlist_claim_hours: 0 },
      { waitlist_claim_hours: 169 },
      { waitlist_claim_hours: 2.5 },
      { waitlist_claim_hours: '3' },
      {},
    ]) {
      const res = await save(body).expect(400);
      expect(res.body.errors).toEqual({ waitlist_claim_hours: M.claimHours });
    }
    expect((await save({ waitlist_claim_hours: 2 }).expect(200)).body.waitlist_claim_hours).toBe(2);
    expect((await settings(other).expect(200)).body.waitlist_claim_hours).toBe(12);

    const eventId = await soldOut(1);
    const p = person('Quick');
    await join(eventId, { ...p, party_size: 1 }).expect(200);
    await removeOne(eventId);
    const [entry] = await list(eventId);
    const hours = (Date.parse(entry.offered_until!) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
    const [mail] = await eventually(
      () => offerMails(p.email),
      (m) => m.length === 1,
    );
    expect(mail.text).toMatch(/held for you until .* E[SD]T/);
    await save({ waitlist_claim_hours: 12 }).expect(200);
  });
});
