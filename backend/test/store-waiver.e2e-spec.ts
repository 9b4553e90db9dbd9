import { STORE_WAIVER_MESSAGES as W, WAIVER_SIGNED_EVENT } from '@studio/contracts';
import { simpleParser, ParsedMail } from 'mailparser';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The waiver signed inside the store's checkout (issue 21, step 4): the buyer starts the signing
 * before paying (POST waiver), signs on the framed page, and the checkout carries the token; a
 * checkout without a signature is refused; the seat starts signed and no signing link is mailed; a
 * returning student who signed is not asked again when they prove their email with the store's
 * one-time code (issue 31), nor when the admin enrolls them.
 */
describe('store checkout: the waiver signed before paying', () => {
  let t: TestApp;
  let outbox: string;
  let token: string;
  let slug: string;
  let otherSlug: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let paidEvent: string;
  let serial = 0;

  beforeAll(async () => {
    outbox = join(await mkdtemp(join(tmpdir(), 'store-waiver-')), 'outbox');
    t = await startTestApp({
      PUBLIC_APP_URL: 'http://studio.test',
      MAIL_OUTBOX_DIR: outbox,
      RUN_WORKER: 'true',
      QUEUE_MODE: 'in-process',
      PUBLIC_REQUESTS_PER_MINUTE: '100000',
    });
    const owner = await t.organizationWithUser('owner', 'Waiver Ceramics');
    token = owner.token;
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    const other = await t.organizationWithUser('owner', 'Other Glass');
    otherSlug = (await t.http.get('/api/admin/org').set('token', other.token).expect(200)).body.slug;
    const waiver = await t.http
      .post('/api/admin/waiver')
      .set('token', token)
      .send({ name: 'Kiln safety waiver', body: 'Kilns are hot. I will follow the studio rules.' })
      .expect(201);
    course = await schedulableCourse(t, token, 10, { selected_waiver: waiver.body.template_id });
    paidEvent = await scheduleSession(t, token, course, { capacity: 10, price: 3000 });
  }, 120000);
  afterAll(() => t.close());

  const buyer = () => ({
    first_name: 'Wren',
    last_name: `Buyer${++serial}`,
    email: `wren.buyer${serial}.${Date.now()}@example.test`,
  });
  const startWaiver = (body: object, store = slug) => t.http.post(`/api/public/${store}/waiver`).send(body);
  const status = (waiverToken: string, store = slug) =>
    t.http.get(`/api/public/${store}/waiver/status`).query({ token: waiverToken });
  const checkout = (body: object) => t.http.post(`/api/public/${slug}/checkout`).send(body);
  const sign = (signingUrl: string, name: string) =>
    t.http.post(new URL(signingUrl).pathname).set('accept', 'text/html').type('form').send({ signer_name: name }).expect(200);
  const enrollments = async (eventId: string) =>
    (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body
      .enrollments as { enrollment_id: string; waiverStatus: string; Student: { email: string }; student_id: string }[];
  const submissions = async (studentId: string) =>
    (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body.Submission as {
      status: string;
    }[];
  const mailsTo = async (email: string): Promise<ParsedMail[]> => {
    const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
    const all = await Promise.all(names.map(async (n) => simpleParser(await readFile(join(outbox, n)))));
    return all.filter((m) => m.to && 'value' in m.to && m.to.value[0].address === email);
  };
  const eventually = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
    const until = Date.now() + 15000;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > until) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('refuses to book unsigned; signing on the framed demo page lets the checkout through, the seat starts signed and no signing link is mailed', async () => {
    const who = buyer();
    const unsigned = await checkout({ event_id: paidEvent, party_size: 2, ...who }).expect(400);
    expect(unsigned.body).toMatchObject({ message: W.notSigned, errors: { waiver_token: W.notSigned } });

    const started = await startWaiver({ event_id: paidEvent, ...who }).expect(200);
    expect(started.body).toEqual({
      signed: false,
      signing_url: expect.stringMatching(/^http:\/\/studio\.test\/api\/sign\/demo\/dsub_[0-9a-f]{32}$/),
      waiver_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const { waiver_token: waiverToken } = started.body;
    expect((await status(waiverToken).expect(200)).body).toEqual({ status: 'pending', signed: false });
    // Started again (the buyer reloads): a signing of its own (issue 31: no one is handed an earlier
    // request of the email, nor can end it); the first token still names the first one.
    const again = (await startWaiver({ event_id: paidEvent, ...who }).expect(200)).body;
    expect(again.signing_url).not.toBe(started.body.signing_url);
    expect((await status(waiverToken).expect(200)).body).toEqual({ status: 'pending', signed: false });
    const current = again.waiver_token as string;
    const signingUrl = again.signing_url as string;
    const early = await checkout({ event_id: paidEvent, party_size: 2, ...who, waiver_token: current }).expect(400);
    expect(early.body.message).toBe(W.notSigned);

    // The signing page may be framed by the store (in the overlay too) and tells its parent, the store's origin.
    const page = await t.http.get(new URL(signingUrl).pathname).set('accept', 'text/html').expect(200);
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(page.text).toContain('data-store-origin="http://studio.test"');
    const script = await t.http.get('/api/sign/demo/signed.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain(`postMessage({ type: '${WAIVER_SIGNED_EVENT}' }, origin)`);
    const signed = await sign(signingUrl, `Wren ${who.last_name}`);
    expect(signed.text).toContain('data-signed="true"');
    expect((await status(current).expect(200)).body).toEqual({ status: 'completed', signed: true });
    // The store's own pages may frame this app's signing pages.
    const store = await t.http.get(`/s/${slug}`).set('accept', 'text/html');
    expect(store.headers['content-security-policy']).toContain("frame-src 'self' http://studio.test");

    const booked = await checkout({ event_id: paidEvent, party_size: 2, ...who, waiver_token: current }).expect(201);
    await t.http.post(`${new URL(booked.body.payment_url, 'http://x').pathname}/pay`).type('form').send('').expect(200);
    const seat = (await enrollments(paidEvent)).find((e) => e.Student.email === who.email)!;
    expect(seat.waiverStatus).toBe('signed');
    // The one signature, now the seat's, shown as completed to the studio.
    expect(await submissions(seat.student_id)).toEqual([expect.objectContaining({ status: 'completed' })]);
    const confirmation = await eventually(async () =>
      (await mailsTo(who.email)).find((m) => m.subject?.startsWith("You're booked")),
    );
    expect(confirmation).toBeDefined();
    expect((await mailsTo(who.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^You're booked/)]);
  });

  it('a returning student who signed is not asked again once they prove the email: in the store, and when the studio enrolls them', async () => {
    const who = buyer();
    const started = (await startWaiver({ event_id: paidEvent, ...who }).expect(200)).body;
    await sign(started.signing_url, 'Wren Returning');
    const first = await checkout({ event_id: paidEvent, ...who, waiver_token: started.waiver_token }).expect(201);
    await t.http.post(`${new URL(first.body.payment_url, 'http://x').pathname}/pay`).type('form').send('').expect(200);

    const later = await scheduleSession(t, token, course, { capacity: 10, price: 2000, daysFromNow: 14 });
    // Unproven, the email signs again like anyone's (issue 31), and the checkout without a token is refused.
    expect((await startWaiver({ event_id: later, ...who }).expect(200)).body).toMatchObject({ signed: false });
    expect((await checkout({ event_id: later, ...who }).expect(400)).body.message).toBe(W.notSigned);
    // Proven by the store's one-time code (mailed while the loyalty programme is on): the same
    // email, typed differently, has nothing to sign and the checkout goes on with the token.
    await t.http.put('/api/admin/loyalty-program').set('token', token).send({ status: 'active' }).expect(200);
    const same = { ...who, email: who.email.toUpperCase() };
    await t.http.post(`/api/public/${slug}/points/code`).send({ email: same.email }).expect(202);
    const code = await eventually(async () => {
      const mail = (await mailsTo(who.email)).find((m) => m.subject?.startsWith('Your points code'));
      return mail ? /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] : undefined;
    });
    const proof = (await t.http.post(`/api/public/${slug}/points/verify`).send({ email: same.email, code }).expect(200)).body
      .points_token as string;
    const proven = (await startWaiver({ event_id: later, ...same, points_token: proof }).expect(200)).body;
    expect(proven).toEqual({ signed: true, signing_url: null, waiver_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const again = await checkout({ event_id: later, ...same, waiver_token: proven.waiver_token }).expect(201);
    await t.http.post(`${new URL(again.body.payment_url, 'http://x').pathname}/pay`).type('form').send('').expect(200);
    const seat = (await enrollments(later)).find((e) => e.Student.email === who.email)!;
    expect(seat.waiverStatus).toBe('signed');

    // The studio enrolls the same student in a third session: signed at once, no new request, no mail.
    const third = await scheduleSession(t, token, course, { capacity: 10, daysFromNow: 21 });
    await t.http.post(`/api/admin/orders/enroll/${seat.student_id}`).set('token', token).send({ event_id: third }).expect(201);
    expect((await enrollments(third))[0].waiverStatus).toBe('signed');
    expect(await submissions(seat.student_id)).toEqual([expect.objectContaining({ status: 'completed' })]);
    await eventually(async () => ((await mailsTo(who.email)).length >= 2 ? true : undefined));
    expect((await mailsTo(who.email)).filter((m) => m.subject?.startsWith('Please sign'))).toEqual([]);

    // A student the studio enrolls who never signed is still mailed the link (the fallback).
    const newcomer = await addStudent(t, token, { email: `newcomer.${Date.now()}@example.test` });
    await t.http.post(`/api/admin/orders/enroll/${newcomer}`).set('token', token).send({ event_id: third }).expect(201);
    expect((await enrollments(third)).find((e) => e.student_id === newcomer)?.waiverStatus).toBe('pending');
  });

  it("refuses another buyer's token and another store's, and a course without a waiver has nothing to sign", async () => {
    const ana = buyer();
    const bob = buyer();
    const anas = (await startWaiver({ event_id: paidEvent, ...ana }).expect(200)).body;
    await sign(anas.signing_url, 'Ana Signer');
    const stolen = await checkout({ event_id: paidEvent, ...bob, waiver_token: anas.waiver_token }).expect(400);
    expect(stolen.body).toMatchObject({ message: W.tokenInvalid, errors: { waiver_token: W.tokenInvalid } });
    await checkout({ event_id: paidEvent, ...bob, waiver_token: 'x'.repeat(43) }).expect(400);
    // Another studio's store knows neither the token nor the session.
    await status(anas.waiver_token, otherSlug).expect(404);
    await startWaiver({ event_id: paidEvent, ...ana }, otherSlug).expect(404);
    await status('not-a-token').expect(400);

    const plain = await schedulableCourse(t, token, 4);
    const plainEvent = await scheduleSession(t, token, plain, { capacity: 4 });
    const none = await startWaiver({ event_id: plainEvent, ...ana }).expect(400);
    expect(none.body.message).toBe(W.notRequired);
  });
});
