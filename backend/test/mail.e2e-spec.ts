import { Logger } from '@nestjs/common';
import { simpleParser, ParsedMail, AddressObject } from 'mailparser';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { MAIL_QUEUE, MailService, SEND_MAIL_JOB } from '../src/modules/notifications/mail.service';
import { BullMqJobQueue } from '../src/queue/bullmq-job-queue';
import { JOB_QUEUE, JobQueue } from '../src/queue/job-queue';
import { startTestApp, TestApp } from './test-app';

/** A local SMTP server: records every message it accepts, can refuse the next ones or hold them. */
async function fakeSmtp() {
  const received: { envelope: { from: string; to: string[] }; mail: ParsedMail }[] = [];
  const state = { refuseNext: 0, attempts: 0, hold: null as Promise<void> | null, users: [] as string[] };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      state.users.push(auth.username ?? '');
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    async onData(stream, session, callback) {
      state.attempts += 1;
      try {
        const mail = await simpleParser(stream);
        if (state.hold) await state.hold;
        if (state.refuseNext > 0) {
          state.refuseNext -= 1;
          const refused = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
          return callback(refused);
        }
        received.push({
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          },
          mail,
        });
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => ({ name: v.name, address: v.address })));

describe('mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof fakeSmtp>>;
  let t: TestApp;
  let mail: MailService;

  beforeAll(async () => {
    smtp = await fakeSmtp();
    const logged = jest.spyOn(Logger.prototype, 'log');
    const withPassword = smtp.url.replace('smtp://', 'smtp://mailer:s3cret@');
    t = await startTestApp({ SMTP_URL: withPassword, MAIL_FROM: 'Clay Studio <hello@clay.test>', RUN_WORKER: 'true' });
    expect(logged).toHaveBeenCalledWith(`Mail sent through ${smtp.url}`);
    expect(JSON.stringify(logged.mock.calls)).not.toContain('s3cret');
    logged.mockRestore();
    mail = t.created.app.get(MailService);
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  beforeEach(() => {
    smtp.received.length = 0;
    smtp.state.attempts = 0;
    smtp.state.refuseNext = 0;
    smtp.state.hold = null;
  });

  it('delivers an enqueued message with its sender, recipient, subject and bodies', async () => {
    await mail.enqueue({
      to: 'Ada Student <ada@example.test>',
      subject: 'Your payment link for Wheel throwing',
      text: 'Pay here: https://studio.test/pay/123',
      html: '<p>Pay <a href="https://studio.test/pay/123">here</a></p>',
      dedupeKey: 'payment-link:order-1',
    });
    await eventually(() => smtp.received.length === 1);
    const [{ envelope, mail: got }] = smtp.received;
    expect(envelope).toEqual({ from: 'hello@clay.test', to: ['ada@example.test'] });
    expect(addresses(got.from)).toEqual([{ name: 'Clay Studio', address: 'hello@clay.test' }]);
    expect(addresses(got.to)).toEqual([{ name: 'Ada Student', address: 'ada@example.test' }]);
    expect(got.subject).toBe('Your payment link for Wheel throwing');
    expect(got.text?.trim()).toBe('Pay here: https://studio.test/pay/123');
    expect(got.html).toContain('<a href="https://studio.test/pay/123">here</a>');
    expect(got.messageId).toMatch(/^<mail-[0-9a-f]{40}@clay\.test>$/);
    expect(smtp.state.users).toContain('mailer');
  });

  it('sends a message once when the same occasion is enqueued twice', async () => {
    const message = { to: 'bo@example.test', subject: 'Receipt', text: 'Thanks', dedupeKey: 'receipt:order-2' };
    const [first, second] = await Promise.all([mail.enqueue(message), mail.enqueue(message)]);
    expect(first).toBe(second);
    await eventually(() => smtp.received.length === 1);
    await mail.enqueue({ ...message, dedupeKey: 'receipt:order-3' });
    await eventually(() => smtp.received.length === 2);
    expect(smtp.received.map((r) => r.mail.subject)).toEqual(['Receipt', 'Receipt']);
  });

  it('sends once per occasion even after the queue forgot the completed job (the dedupe key is kept in the database)', async () => {
    const bull = (t.created.app.get(JOB_QUEUE) as BullMqJobQueue).bullQueue(MAIL_QUEUE);
    const message = { to: 'fay@example.test', subject: 'Your gift card', text: 'Code: ABCD', dedupeKey: 'gift-card:forgotten' };
    const jobId = await mail.enqueue(message);
    await eventually(async () => (await bull.getJob(jobId))?.finishedOn !== undefined);
    expect(smtp.received.map((r) => r.mail.subject)).toEqual(['Your gift card']);
    // BullMQ forgets completed jobs (after 1,000 of them or 24 hours): here at once.
    await bull.clean(0, 1000, 'completed');
    expect(await bull.getJob(jobId)).toBeUndefined();
    // The occasion comes again (a handler re-run): nothing is queued, nothing sent.
    expect(await mail.enqueue(message)).toBe(jobId);
    expect(await bull.getJob(jobId)).toBeUndefined();
    // Even a job of that key queued anyway (enqueued before the first send was recorded) sends nothing.
    const { dedupeKey: _key, ...job } = message;
    await t.created.app.get<JobQueue>(JOB_QUEUE).add(MAIL_QUEUE, SEND_MAIL_JOB, job, { jobId });
    await eventually(async () => (await bull.getJob(jobId))?.finishedOn !== undefined);
    await mail.enqueue({ ...message, subject: 'Another occasion', dedupeKey: 'gift-card:another' });
    await eventually(() => smtp.received.length === 2);
    expect(smtp.received.map((r) => r.mail.subject)).toEqual(['Your gift card', 'Another occasion']);
  });

  it('a mail whose job was lost before it was sent is sent when its occasion comes again', async () => {
    const bull = (t.created.app.get(JOB_QUEUE) as BullMqJobQueue).bullQueue(MAIL_QUEUE);
    const message = { to: 'gus@example.test', subject: 'Seat offered', text: 'Claim it', dedupeKey: 'lost:1' };
    await bull.pause();
    try {
      const jobId = await mail.enqueue(message);
      expect(await bull.getJob(jobId)).toBeDefined();
      // The job is lost before any worker took it (Redis flushed, say): nothing was recorded as sent.
      await bull.drain(true);
      expect(await bull.getJob(jobId)).toBeUndefined();
    } finally {
      await bull.resume();
    }
    await mail.enqueue(message);
    await eventually(() => smtp.received.length === 1);
    expect(smtp.received[0].mail.subject).toBe('Seat offered');
  });

  it('retries when the SMTP server refuses, then delivers', async () => {
    smtp.state.refuseNext = 2;
    await mail.enqueue({ to: 'cy@example.test', subject: 'Seat held', text: 'Your seat is held for 24 hours.', dedupeKey: 'held:1' });
    await eventually(() => smtp.received.length === 1, 60000);
    expect(smtp.state.attempts).toBe(3);
    expect(smtp.received[0].mail.subject).toBe('Seat held');
  });

  it('returns from enqueue before the SMTP server has the message', async () => {
    let release = () => {};
    smtp.state.hold = new Promise<void>((r) => (release = r));
    await mail.enqueue({ to: 'di@example.test', subject: 'Welcome', text: 'Hello', dedupeKey: 'welcome:di' });
    // enqueue has returned; the worker is still talking to the server, which has accepted nothing.
    await eventually(() => smtp.state.attempts === 1);
    expect(smtp.received).toHaveLength(0);
    release();
    await eventually(() => smtp.received.length === 1);
    expect(smtp.received[0].mail.subject).toBe('Welcome');
  });

  it('refuses a message it could never send, before queueing it', async () => {
    await expect(mail.enqueue({ to: 'not an address', subject: 'x', text: 'y', dedupeKey: 'bad:1' })).rejects.toThrow();
    await expect(
      mail.enqueue({ to: 'ok@example.test', subject: 'Bcc: victim@example.test\r\nX', text: 'y', dedupeKey: 'bad:2' }),
    ).rejects.toThrow(/one line/);
  });
});

describe('mail with the API and the worker in separate processes', () => {
  it('is queued by the API process, which sends nothing itself, and sent by the worker', async () => {
    const smtp = await fakeSmtp();
    const prefix = `test_mail_${Date.now()}`;
    const shared = { SMTP_URL: smtp.url, REDIS_PREFIX: prefix, QUEUE_MODE: 'redis' };
    const api = await startTestApp({ ...shared, RUN_WORKER: 'false' });
    let worker: TestApp | undefined;
    try {
      await api.created.app.get(MailService).enqueue({ to: 'ed@example.test', subject: 'Queued', text: 'Hi', dedupeKey: 'split:1' });
      // The job waits in Redis: the API process has no worker to send it (nothing sent, still waiting).
      expect(await (api.created.app.get(JOB_QUEUE) as BullMqJobQueue).bullQueue(MAIL_QUEUE).getWaitingCount()).toBe(1);
      expect(smtp.state.attempts).toBe(0);
      worker = await startTestApp({ ...shared, RUN_WORKER: 'true' });
      await eventually(() => smtp.received.length === 1);
      expect(smtp.received[0].mail.subject).toBe('Queued');
    } finally {
      await worker?.close();
      await api.close();
      await smtp.close();
    }
  });
});

describe('mail without SMTP_URL', () => {
  it('writes each message as an .eml file to the outbox folder and logs where', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    const outbox = join(dir, 'outbox');
    const logged = jest.spyOn(Logger.prototype, 'log');
    const t = await startTestApp({ MAIL_OUTBOX_DIR: outbox, RUN_WORKER: 'true', QUEUE_MODE: 'in-process' });
    try {
      expect(logged).toHaveBeenCalledWith(`Mail written to ${outbox}/ (no SMTP_URL set)`);
      const mail = t.created.app.get(MailService);
      await mail.enqueue({
        to: 'Ada Student <ada@example.test>',
        subject: 'Your payment link',
        text: 'Pay here: http://localhost:3000/pay/abc',
        html: '<p>Pay <a href="http://localhost:3000/pay/abc">here</a></p>',
        dedupeKey: 'payment-link:a',
      });
      const files = async () => (await readdir(outbox).catch(() => [] as string[])).sort();
      await eventually(async () => (await files()).length === 1);
      await new Promise((r) => setTimeout(r, 5));
      await mail.enqueue({ to: 'bo@example.test', subject: 'Second', text: 'Later', dedupeKey: 'later:b' });
      await eventually(async () => (await files()).length === 2);

      // The in-process queue forgets a job once it completes: the same occasion again sends nothing
      // (mail_sent), a new one is written.
      await mail.enqueue({ to: 'bo@example.test', subject: 'Second', text: 'Later', dedupeKey: 'later:b' });
      await mail.enqueue({ to: 'cy@example.test', subject: 'Third', text: 'Last', dedupeKey: 'last:c' });
      await eventually(async () => (await files()).length === 3);
      const subjects = await Promise.all((await files()).map(async (f) => (await simpleParser(await readFile(join(outbox, f)))).subject));
      expect(subjects).toEqual(['Your payment link', 'Second', 'Third']);

      const names = await files();
      for (const name of names) expect(name).toMatch(/^\d{8}-\d{6}-\d{3}-[0-9a-f]{8}\.eml$/);
      const parsed = await simpleParser(await readFile(join(outbox, names[0])));
      expect(addresses(parsed.from)).toEqual([{ name: 'Studio', address: 'no-reply@studio.local' }]);
      expect(addresses(parsed.to)).toEqual([{ name: 'Ada Student', address: 'ada@example.test' }]);
      expect(parsed.subject).toBe('Your payment link');
      expect(parsed.text?.trim()).toBe('Pay here: http://localhost:3000/pay/abc');
      expect(parsed.html).toContain('<a href="http://localhost:3000/pay/abc">here</a>');
      expect((await simpleParser(await readFile(join(outbox, names[1])))).subject).toBe('Second');
      expect(logged).toHaveBeenCalledWith(`Mail written to ${join(outbox, names[0])}`);
    } finally {
      logged.mockRestore();
      await t.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
