import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { EntityManager } from '@mikro-orm/postgresql';
import { Queue } from 'bullmq';
import { MAIL_QUEUE } from '../src/modules/notifications/mail.service';
import { REMINDER_QUEUE, RemindersService } from '../src/modules/reminders/reminders.service';
import { startFakeSmtp } from './support/fake-smtp';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { ensureBackendBuilt } from './support/backend-build';
import { startTestApp, TestApp } from './test-app';
import { soakSize } from './support/soak';

/*
 * Issue 23's reliability test of reminders: 1,000 reminders due within one minute, two production
 * workers (`node dist/worker.js`) sharing the queue, one killed with SIGKILL in the middle. Every
 * reminder is sent exactly once: the reminder log holds one "sent" row per booking (its unique key
 * is the claim: a job run again, by the other worker after the kill, finds the row and sends
 * nothing), and every student received one reminder (a mail job cut off by the kill and run again
 * carries the same Message-ID, so a repeated delivery is recognisably the same mail; counted).
 *
 * The bookings are made as the product makes them, but in bulk: ten sessions through the API, their
 * starts then set to the second (the API schedules to the minute) so that the 15-minute reminders
 * fall due one after another over a minute; 1,000 students and seats inserted set-based, and their
 * delayed jobs made by what the reminders' subscriber of `enrollment.created` calls for any seat. The workers run the compiled backend (built first when a source is newer: ensureBackendBuilt).
 */
const WORKER = path.join(__dirname, '..', 'dist', 'worker.js');
// 1,000 bookings under `npm run soak`; 200 on every push (support/soak.ts).
const BOOKINGS = soakSize(200, 1000);
const SESSIONS = 10;
const OFFSET_MINS = 15;

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe(`reminders: ${BOOKINGS} due in one minute, a worker killed mid-way`, () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  const workers: ChildProcess[] = [];

  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    t.created.app.get(EntityManager).getConnection().execute<T[]>(query, params);

  const startWorker = () => {
    const child = spawn(process.execPath, [WORKER], {
      env: {
        ...process.env,
        DATABASE_URL: t.config.DATABASE_URL,
        REDIS_URL: t.config.REDIS_URL,
        REDIS_PREFIX: t.config.REDIS_PREFIX,
        SMTP_URL: smtp.url,
        QUEUE_MODE: 'redis',
        // A killed worker's jobs are found stalled after this lock lapses (BullMQ's default is 30 s).
        QUEUE_LOCK_MS: '2000',
        SERVE_WEB: 'false',
        LOG_LEVEL: 'error',
        NODE_ENV: 'test',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (d: Buffer) => process.env.DEBUG_WORKER && process.stderr.write(d));
    workers.push(child);
    return child;
  };
  const exited = (child: ChildProcess) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
      else child.once('exit', (code, signal) => resolve({ code, signal }));
    });

  beforeAll(async () => {
    ensureBackendBuilt();
    smtp = await startFakeSmtp();
    t = await startTestApp({ QUEUE_MODE: 'redis', RUN_WORKER: 'false', SMTP_URL: smtp.url });
  }, 120000);
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await t?.close();
    await smtp?.close();
  });

  it('every reminder sent exactly once: the log has one sent row per booking, each student one mail', async () => {
    const { token, organization } = await t.organizationWithUser('owner', 'Reliable Reminders');
    const organizationId = organization.id;
    await t.http.put('/api/admin/org/reminders').set('token', token).send({ reminder_offsets_mins: [OFFSET_MINS] }).expect(200);
    const course = await schedulableCourse(t, token, BOOKINGS / SESSIONS);
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push(await scheduleSession(t, token, course, { capacity: BOOKINGS / SESSIONS, daysFromNow: 2 + i }));

    // The sessions start 15 minutes plus 30 to 84 seconds from now, 6 s apart: their reminders fall
    // due over one minute, from 30 s on (time to make the jobs and start the workers).
    const now = Date.now();
    for (const [i, id] of sessions.entries()) {
      const startsAt = new Date(now + OFFSET_MINS * 60_000 + 30_000 + i * 6_000);
      await sql(`update event set starts_at = ?, ends_at = ? where id = ?`, [startsAt, new Date(startsAt.getTime() + 3_600_000), id]);
    }
    const seats = await sql<{ id: string; student_id: string; event_id: string }>(
      `with s as (
         insert into student (id, organization_id, first_name, last_name, email, created_at)
         select gen_random_uuid(), ?, 'Student', 'No ' || n, 'remind' || n || '@reliable.test', now()
           from generate_series(1, ?) as n
         returning id, email)
       insert into enrollment (id, organization_id, event_id, student_id, status, created_at)
       select gen_random_uuid(), ?, (?::uuid[])[1 + (row_number() over (order by s.email)) % ?], s.id, 'active', now()
         from s
       returning id, student_id, event_id`,
      [organizationId, BOOKINGS, organizationId, `{${sessions.join(',')}}`, SESSIONS],
    );
    expect(seats).toHaveLength(BOOKINGS);
    // What the reminders' subscriber of `enrollment.created` does for each seat, twenty at a time
    // (the outbox would run them one by one: too slow for reminders due within the minute).
    const reminders = t.created.app.get(RemindersService);
    for (let i = 0; i < seats.length; i += 20)
      await Promise.all(seats.slice(i, i + 20).map((s) => reminders.schedule('enrollment', organizationId, s.id)));
    const queue = new Queue(REMINDER_QUEUE, { connection: { url: t.config.REDIS_URL }, prefix: t.config.REDIS_PREFIX });
    try {
      expect(await queue.getDelayedCount()).toBe(BOOKINGS);
    } finally {
      await queue.close();
    }

    const sent = async () =>
      Number((await sql<{ n: string }>(`select count(*) as n from reminder_log where organization_id = ?`, [organizationId]))[0].n);
    const first = startWorker();
    const other = startWorker();
    // Killed once about 40% are sent (the reminders still due run on the other worker; its jobs that
    // were running are found stalled and run again).
    await until(async () => (await sent()) >= BOOKINGS * 0.4, 180_000, `${BOOKINGS * 0.4} reminders sent`);
    first.kill('SIGKILL');
    expect(await exited(first)).toEqual({ code: null, signal: 'SIGKILL' });
    const atKill = await sent();
    expect(atKill).toBeLessThan(BOOKINGS);
    const received = () => smtp.received.filter((m) => m.mail.subject?.startsWith('Reminder:') && m.to[0]?.endsWith('@reliable.test'));
    await until(async () => (await sent()) >= BOOKINGS && new Set(received().map((m) => m.to[0])).size >= BOOKINGS, 240_000, 'every reminder');
    // Until nothing is waiting or running in the queues (delayed jobs are the sweeps' next turns): a
    // job the killed worker held shows as active until it is found stalled and run again, so a second
    // send would be in by then.
    const queues = [REMINDER_QUEUE, MAIL_QUEUE].map((name) => new Queue(name, { connection: { url: t.config.REDIS_URL }, prefix: t.config.REDIS_PREFIX }));
    try {
      await until(
        async () => {
          const counts = await Promise.all(queues.map((q) => q.getJobCounts('active', 'waiting', 'prioritized')));
          return counts.every((c) => Object.values(c).every((n) => n === 0));
        },
        120_000,
        'nothing waiting or running in the reminder and mail queues',
      );
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }

    const log = await sql<{ booking_id: string; outcome: string; to_address: string; n: string }>(
      `select booking_id, outcome, to_address, count(*) over (partition by booking_id) as n
         from reminder_log where organization_id = ?`,
      [organizationId],
    );
    expect(log).toHaveLength(BOOKINGS);
    expect(new Set(log.map((r) => r.booking_id))).toEqual(new Set(seats.map((s) => s.id)));
    expect(log.filter((r) => r.outcome !== 'sent' || Number(r.n) !== 1)).toEqual([]);

    const mails = received();
    const byStudent = new Map<string, Set<string>>();
    for (const m of mails) byStudent.set(m.to[0]!, (byStudent.get(m.to[0]!) ?? new Set()).add(m.mail.messageId ?? ''));
    expect(byStudent.size).toBe(BOOKINGS);
    // One mail per student: a delivery repeated after the kill is the same message (its Message-ID).
    expect([...byStudent.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    console.log(
      `reminders reliability: ${BOOKINGS} due over one minute, worker killed at ${atKill} sent; log rows ${log.length} (all sent once), ` +
        `SMTP deliveries ${mails.length} (${mails.length - BOOKINGS} repeated with the same Message-ID)`,
    );
    other.kill('SIGTERM');
    await exited(other);
  }, 420000);
});
