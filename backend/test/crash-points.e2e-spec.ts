import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Job, Queue } from 'bullmq';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../src/app.factory';
import { CrashPointName } from '../src/common/crash-point';
import { PAYMENT_LINK_QUEUE } from '../src/modules/orders/payment-link-jobs';
import { loadConfig } from '../src/config/config.schema';
import { relaxDurability } from '../src/database/test-databases';
import { UsersService } from '../src/modules/identity/users.service';
import { OrganizationsService } from '../src/modules/organizations/organizations.service';
import { Answer, call, Child, DIST, freePort, NoAnswer, pgAdmin, readMails, REDIS_URL, removeRedisKeys, sleep, PG_ROOT } from './support/app-process';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { TestApp } from './test-app';

/*
 * The crash test's named points (issue 31). The BUILT app (API and worker in one process) is started
 * with CRASH_POINT naming a point of a money flow, so it dies there with SIGKILL (common/crash-point.ts);
 * then it is started again without it, the client retries as a real one would, and SQL checks that
 * the flow converged:
 *   - checkout.before-page: the order and its hold committed, no payment page yet. The buyer's retry
 *     with the same Idempotency-Key answers the same order's page (paid: booked once); an abandoned
 *     one releases its seats at the page deadline (0 holds without a page after it);
 *   - link.before-page: the admin's retry with the same key resumes the same link, mailed once;
 *   - payment.after-settlement and refund.before-provider: a payment that found no seat, killed after
 *     its settlement committed, or before the provider was asked for its refund: refunded once;
 *   - checkout-close.before-provider: the session cancelled, killed before the page was closed at
 *     the provider: closed once the process is back, and nobody can pay it;
 *   - waiver.after-request and waiver.before-mail (issue 33): a seat in a course that requires a
 *     waiver, killed after its waiver request committed, or after the request was made at the
 *     provider and before its mail: once the process is back, the seat has its one request, made
 *     at the provider, and the student got the sign link exactly once.
 * CRASH_DEBUG=1 shows the children's output.
 */

const MAIN = path.join(DIST, 'main.js');
const PRICE = 4000;

describe('crash test: named points of the money flows (issue 31)', () => {
  const suffix = randomBytes(6).toString('hex');
  const dbName = `studio_crashpoints_${suffix}`;
  const dbUrl = new URL(PG_ROOT);
  dbUrl.pathname = `/${dbName}`;
  const DATABASE_URL = dbUrl.toString();
  const REDIS_PREFIX = `crashpoints_${suffix}`;
  let dir = '';
  let mailDir = '';
  let db: Client | null = null;
  let app: Child | null = null;
  let base = '';
  let port = 0;
  let token = '';
  let slug = '';
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  let waiverCourse: Awaited<ReturnType<typeof schedulableCourse>>;
  let seedHttp: ReturnType<typeof request> | null = null;
  let serial = 0;

  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => (await db!.query(text, params)).rows as T[];
  const env = (crashPoint?: CrashPointName): Record<string, string> => ({
    DATABASE_URL,
    DATABASE_POOL_MAX: '5',
    REDIS_URL,
    REDIS_PREFIX,
    PORT: String(port),
    RUN_WORKER: 'true',
    SERVE_WEB: 'false',
    SEED_DEMO: 'false',
    QUEUE_MODE: 'redis',
    QUEUE_LOCK_MS: '2000',
    IDEMPOTENCY_LEASE_SECONDS: '2',
    // Long enough for the retry after three starts on a loaded machine (20 s and 40 s were not, in
    // CI runs with both cores saturated) and the key's lease to come first; the abandoned checkout's
    // deadline is brought due by the test (its delayed job promoted), not waited out.
    PAYMENT_PAGE_TIMEOUT_SECONDS: '300',
    PUBLIC_APP_URL: 'http://127.0.0.1',
    PUBLIC_REQUESTS_PER_MINUTE: '100000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    MEDIA_DIR: path.join(dir, 'media'),
    MAIL_OUTBOX_DIR: mailDir,
    ...(crashPoint ? { CRASH_POINT: crashPoint } : {}),
  });

  /** The built app, started (again) with or without a crash point; answers when it serves. */
  async function start(crashPoint?: CrashPointName): Promise<void> {
    await app?.kill();
    app = new Child(crashPoint ?? 'app', MAIN, env(crashPoint), async (child) => {
      const started = Date.now();
      for (;;) {
        if (!child.alive()) throw new Error(`app exited:\n${child.output}`);
        try {
          if ((await fetch(`${base}/api/health`)).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() - started > 60_000) throw new Error(`app not up in 60 s:\n${child.output}`);
        await sleep(50);
      }
    });
    await app.start();
  }
  /** Until the process died at its crash point (SIGKILL). */
  async function died(): Promise<void> {
    const until = Date.now() + 30_000;
    while (app!.alive()) {
      if (Date.now() > until) throw new Error(`the app did not die at ${app!.name}:\n${app!.output}`);
      await sleep(50);
    }
    expect(app!.process!.signalCode).toBe('SIGKILL');
  }
  async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`Timed out waiting for ${what}:\n${app?.output ?? ''}`);
      await sleep(100);
    }
  }
  /** Sends until an answer that is neither a 5xx nor the 409 of a first call still within its lease. */
  async function retried(send: () => Promise<Answer>): Promise<Answer> {
    const until = Date.now() + 60_000;
    for (;;) {
      try {
        const answer = await send();
        if (answer.status < 500 && answer.status !== 409) return answer;
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
      }
      if (Date.now() > until) throw new Error('no answer before the deadline');
      await sleep(200);
    }
  }
  const buyer = () => ({ first_name: 'Kit', last_name: `Crash${++serial}`, email: `kit.crash${serial}.${suffix}@example.test` });
  const checkout = (body: object, key?: string) =>
    call(base, 'POST', `/api/public/${slug}/checkout`, { body, headers: key ? { 'idempotency-key': key } : {} });
  const pay = (sessionId: string) => call(base, 'POST', `/api/pay/demo/${sessionId}/pay`);
  const session = (capacity: number) => scheduleSession({ http: seedHttp } as unknown as TestApp, token, course, { capacity, price: PRICE });
  const ordersOf = (email: string) =>
    sql<{ id: string; status: string; checkout_session_id: string | null; payment_intent_id: string | null }>(
      `select o.id, o.status, o.checkout_session_id, o.payment_intent_id from customer_order o join student s on s.id = o.student_id where lower(s.email) = lower($1) order by o.created_at`,
      [email],
    );
  /** A store checkout whose hold runs out and whose seat goes to someone else: paying it books nothing. */
  async function unseatedCheckout(): Promise<{ orderId: string; page: string }> {
    const eventId = await session(1);
    const answer = await checkout({ event_id: eventId, ...buyer() });
    expect(answer.status).toBe(201);
    const { order_id: orderId } = answer.body as { order_id: string };
    const [order] = await sql<{ checkout_session_id: string }>(`select checkout_session_id from customer_order where id = $1`, [orderId]);
    await sql(`update seat_hold set expires_at = now() - interval '1 second' where order_id = $1`, [orderId]);
    const other = await addStudent({ http: seedHttp } as unknown as TestApp, token);
    const enrolled = await call(base, 'POST', `/api/admin/orders/enroll/${other}`, { token, body: { event_id: eventId } });
    expect(enrolled.status).toBe(201);
    return { orderId, page: order.checkout_session_id };
  }
  /** The order's payment refunded exactly once, in the ledger and at the (demo) provider. */
  async function refundedOnce(orderId: string): Promise<void> {
    await waitFor(async () => {
      const [row] = await sql<{ status: string; refunds: string; made: string; at_provider: string }>(
        `select o.status,
                (select count(*) from order_refund r where r.order_id = o.id) as refunds,
                (select count(*) from order_refund r where r.order_id = o.id and r.status = 'succeeded') as made,
                (select coalesce(sum(d.amount_cents), 0) from demo_refund d where d.payment_id = o.payment_intent_id) as at_provider
           from customer_order o where o.id = $1`,
        [orderId],
      );
      return row.status === 'refunded' && Number(row.refunds) === 1 && Number(row.made) === 1 && Number(row.at_provider) === PRICE;
    }, `order ${orderId} refunded once`);
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'crash-points-'));
    mailDir = path.join(dir, 'mail');
    await pgAdmin(async (c) => {
      await c.query(`create database "${dbName}"`);
      await relaxDurability(c, dbName);
    });
    db = new Client({ connectionString: DATABASE_URL });
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Seeding in this process (it migrates the database); the processes under test run the built code.
    const seeding = await createApp(
      loadConfig({ DATABASE_URL, REDIS_URL, REDIS_PREFIX, SEED_DEMO: 'false', SERVE_WEB: 'false', RUN_WORKER: 'false', QUEUE_MODE: 'redis', LOG_LEVEL: 'silent', NODE_ENV: 'test', MEDIA_DIR: path.join(dir, 'media'), MAIL_OUTBOX_DIR: mailDir }),
    );
    try {
      const http = request(seeding.app.getHttpServer());
      const em = seeding.app.get(EntityManager);
      const password = 'correct horse battery';
      const email = await RequestContext.create(em, async () => {
        const organization = await seeding.app.get(OrganizationsService).create({ name: 'Crash Point Ceramics' });
        const user = await seeding.app.get(UsersService).create({ email: `owner.${suffix}@example.test`, password, role: 'owner', organizationId: organization.id, firstName: 'Crash', lastName: 'Owner' });
        return user.email;
      });
      token = (await http.post('/api/auth/login').send({ email, password }).expect(200)).body.token;
      slug = (await http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
      const setup = await http.post('/api/admin/payment-methods/setup').set('token', token).expect(200);
      await http.post(`${new URL(setup.body.url).pathname}/pay`).expect(200);
      course = await schedulableCourse({ http } as unknown as TestApp, token, 8, { name: 'Crash wheel class' });
      const waiver = await http.post('/api/admin/waiver').set('token', token).send({ name: 'Crash point waiver', body: 'I will not crash the kiln.' }).expect(201);
      waiverCourse = await schedulableCourse({ http } as unknown as TestApp, token, 8, { name: 'Crash glazing class', selected_waiver: waiver.body.template_id });
    } finally {
      await seeding.close();
    }
    await db.connect();
    // Sessions and students are made through the process under test from here on.
    seedHttp = request(base);
  }, 120_000);

  afterAll(async () => {
    await app?.kill().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await pgAdmin((c) => c.query(`drop database if exists "${dbName}" with (force)`)).catch(() => undefined);
    await removeRedisKeys(REDIS_URL, REDIS_PREFIX).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('checkout.before-page: the retry with the same key answers the same order and page; paid, booked once; an abandoned one is released', async () => {
    await start();
    const eventId = await session(3);
    const kit = buyer();
    const ada = buyer();
    await start('checkout.before-page');
    await expect(checkout({ event_id: eventId, ...kit }, `kit-${suffix}`)).rejects.toBeInstanceOf(NoAnswer);
    await died();
    const [held] = await ordersOf(kit.email);
    expect(held).toMatchObject({ status: 'pending', checkout_session_id: null });

    await start('checkout.before-page');
    await expect(checkout({ event_id: eventId, ...ada }, `ada-${suffix}`)).rejects.toBeInstanceOf(NoAnswer);
    await died();

    await start();
    const answer = await retried(() => checkout({ event_id: eventId, ...kit }, `kit-${suffix}`));
    expect(answer.status).toBe(201);
    const body = answer.body as { order_id: string; payment_url: string };
    expect(body.order_id).toBe(held.id);
    expect(await ordersOf(kit.email)).toHaveLength(1);
    expect((await pay(new URL(body.payment_url).pathname.split('/').pop()!)).status).toBe(200);
    await waitFor(async () => (await ordersOf(kit.email))[0].status === 'paid', 'the resumed order paid');
    const [seats] = await sql<{ enrolled: string }>(`select count(*) as enrolled from enrollment where order_id = $1 and status = 'active'`, [held.id]);
    expect(Number(seats.enrolled)).toBe(1);

    // Ada never came back: at the page deadline her order ends and its seats are free. The deadline
    // is the queue's delayed job (PAYMENT_PAGE_TIMEOUT_SECONDS after the hold); the test brings it due
    // instead of waiting the time out.
    const [abandoned] = await ordersOf(ada.email);
    expect(abandoned).toMatchObject({ status: 'pending', checkout_session_id: null });
    const deadlines = new Queue(PAYMENT_LINK_QUEUE, { connection: { url: REDIS_URL }, prefix: REDIS_PREFIX });
    try {
      let job: Job | undefined;
      await waitFor(async () => Boolean((job = await deadlines.getJob(`payment-page-deadline-${abandoned.id}`))), "the abandoned order's page deadline scheduled");
      expect(await job!.isDelayed()).toBe(true);
      await job!.promote();
    } finally {
      await deadlines.close();
    }
    await waitFor(async () => (await ordersOf(ada.email))[0].status === 'failed', 'the abandoned order released');
    const [live] = await sql<{ holds: string }>(
      `select count(*) as holds from seat_hold h join customer_order o on o.id = h.order_id
        where h.released_at is null and h.expires_at > now() and o.checkout_session_id is null and o.status <> 'pending'`,
    );
    expect(Number(live.holds)).toBe(0);
    const [adaHolds] = await sql<{ live: string }>(`select count(*) as live from seat_hold where order_id = $1 and released_at is null`, [abandoned.id]);
    expect(Number(adaHolds.live)).toBe(0);
  }, 400_000);

  it('link.before-page: the admin\'s retry with the same key resumes the link, mailed once', async () => {
    await start();
    const eventId = await session(3);
    const studentId = await addStudent({ http: seedHttp } as unknown as TestApp, token);
    const send = () => call(base, 'POST', `/api/admin/orders/invoice/${studentId}`, { token, body: { event_id: eventId }, headers: { 'idempotency-key': `link-${suffix}` } });
    await start('link.before-page');
    await expect(send()).rejects.toBeInstanceOf(NoAnswer);
    await died();
    await start();
    const answer = await retried(send);
    expect(answer.status).toBe(201);
    const link = answer.body as { order_id: string; url: string };
    const orders = await sql<{ id: string }>(`select id from customer_order where student_id = $1`, [studentId]);
    expect(orders.map((o) => o.id)).toEqual([link.order_id]);
    const [student] = await sql<{ email: string }>(`select email from student where id = $1`, [studentId]);
    await waitFor(async () => (await readMails(mailDir)).some((m) => m.to === student.email), 'the link mailed');
    expect((await readMails(mailDir)).filter((m) => m.to === student.email && m.subject.startsWith('Your payment link'))).toHaveLength(1);
  }, 240_000);

  it.each(['payment.after-settlement', 'refund.before-provider'] as const)(
    '%s: a payment that found no seat is refunded once after the process is back',
    async (point) => {
      await start();
      const { orderId, page } = await unseatedCheckout();
      await start(point);
      // Pay: the process dies at the point while it settles the payment (its worker runs in it).
      await pay(page).catch((error) => {
        if (!(error instanceof NoAnswer)) throw error;
      });
      await died();
      await start();
      await refundedOnce(orderId);
      const [seats] = await sql<{ taken: string }>(`select count(*) as taken from enrollment where order_id = $1`, [orderId]);
      expect(Number(seats.taken)).toBe(0);
    },
    240_000,
  );

  it('checkout-close.before-provider: the cancelled session\'s page is closed once the process is back, and takes no payment', async () => {
    await start();
    const eventId = await session(3);
    const kit = buyer();
    const answer = await checkout({ event_id: eventId, ...kit });
    expect(answer.status).toBe(201);
    const [order] = await ordersOf(kit.email);
    await start('checkout-close.before-provider');
    await call(base, 'POST', `/api/admin/events/${eventId}/cancel`, { token, body: { refund: 'none', reason: 'Crash drill' } }).catch((error) => {
      if (!(error instanceof NoAnswer)) throw error;
    });
    await died();
    await start();
    await waitFor(
      async () => (await sql<{ status: string }>(`select status from demo_checkout_session where id = $1`, [order.checkout_session_id]))[0].status === 'expired',
      'the page closed at the provider',
    );
    expect((await pay(order.checkout_session_id!)).status).toBe(200);
    const [payments] = await sql<{ n: string }>(`select count(*) as n from demo_payment where session_id = $1`, [order.checkout_session_id]);
    expect(Number(payments.n)).toBe(0);
    expect((await ordersOf(kit.email))[0].status).toBe('failed');
  }, 240_000);

  it.each(['waiver.after-request', 'waiver.before-mail'] as const)(
    '%s: the seat has its one waiver request, made at the provider, and the sign link is mailed exactly once after the process is back',
    async (point) => {
      await start();
      const eventId = await scheduleSession({ http: seedHttp } as unknown as TestApp, token, waiverCourse, { capacity: 3 });
      const studentId = await addStudent({ http: seedHttp } as unknown as TestApp, token);
      const [student] = await sql<{ email: string }>(`select email from student where id = $1`, [studentId]);
      await start(point);
      // The enrollment commits; the process dies while its waiver request is carried out (its worker runs in it).
      await call(base, 'POST', `/api/admin/orders/enroll/${studentId}`, { token, body: { event_id: eventId } }).catch((error) => {
        if (!(error instanceof NoAnswer)) throw error;
      });
      await died();
      await start();
      const signMails = async () => (await readMails(mailDir)).filter((m) => m.to === student.email && m.subject.startsWith('Please sign:'));
      await waitFor(async () => (await signMails()).length > 0, 'the sign link mailed');
      await waitFor(
        async () => (await sql(`select 1 from outbox_message where done_at is null and failed_at is null limit 1`)).length === 0,
        'the outbox carried out',
      );
      const requests = await sql<{ sign_url: string | null; status: string }>(
        `select s.sign_url, s.status from enrollment e join waiver_submission s on s.enrollment_id = e.id
          where e.student_id = $1 and e.event_id = $2 and e.status = 'active'`,
        [studentId, eventId],
      );
      expect(requests).toEqual([{ sign_url: expect.stringMatching(/\/api\/sign\/demo\//), status: 'pending' }]);
      const mailed = await signMails();
      expect(mailed).toHaveLength(1);
      expect(await sql(`select type, subscriber, last_error from outbox_message where failed_at is not null and type like 'waiver.%'`)).toEqual([]);
    },
    240_000,
  );
});
