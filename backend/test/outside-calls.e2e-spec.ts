import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { createServer, get as httpGet, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutsideCallInTransactionError, takeOutsideCallViolations } from '../src/common/outside-calls';
import { MailService } from '../src/modules/notifications/mail.service';
import { Organization } from '../src/modules/organizations/organization.entity';
import { PaymentsPort } from '../src/modules/payments/payments.port';
import { EsignPort } from '../src/modules/waivers/esign.port';
import { startTestApp, TestApp } from './test-app';

/**
 * The guard of "no outside call inside a database transaction" (src/common/outside-calls.ts), in
 * the test mode every test app runs in: a payment provider call, an e-signature call or an HTTP
 * request made while `em.transactional` (or an explicit begin) is open fails before anything is
 * sent and is recorded (a test app's close then fails its suite); the same calls outside, or from a
 * continuation that outlived its committed transaction, go through; mail enqueued inside a
 * transaction is only queued, and the worker sends it outside any.
 */
describe('no outside call inside a database transaction', () => {
  let t: TestApp;
  let em: EntityManager;
  let payments: PaymentsPort;
  let organizationId: string;
  let outbox: string;
  let server: Server;
  let url: string;
  let hits = 0;

  beforeAll(async () => {
    outbox = join(await mkdtemp(join(tmpdir(), 'outside-calls-')), 'outbox');
    t = await startTestApp({ RUN_WORKER: 'true', QUEUE_MODE: 'in-process', MAIL_OUTBOX_DIR: outbox });
    em = t.created.app.get(EntityManager);
    payments = t.created.app.get(PaymentsPort);
    organizationId = (await t.organizationWithUser('owner')).organization.id;
    server = createServer((_req, res) => {
      hits += 1;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await t.close();
    await rm(join(outbox, '..'), { recursive: true, force: true });
  });
  afterEach(() => {
    // Each test takes what it provoked; anything left would fail the suite at close.
    expect(takeOutsideCallViolations()).toEqual([]);
  });

  it('a payment provider call inside em.transactional fails before reaching the provider, and is recorded', async () => {
    // As SubscriptionsService.cancel did: the row locked, the provider asked under the lock.
    const inside = em.fork().transactional(async (tx) => {
      await tx.findOneOrFail(Organization, { id: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      return payments.cancelSubscription('dsub_any');
    });
    await expect(inside).rejects.toBeInstanceOf(OutsideCallInTransactionError);
    await expect(em.fork().transactional(() => payments.listPaymentMethods(organizationId))).rejects.toThrow(
      'payments.listPaymentMethods was called inside a database transaction',
    );
    expect(takeOutsideCallViolations().map((v) => v.what)).toEqual(['payments.cancelSubscription', 'payments.listPaymentMethods']);
    // Outside any transaction the same call answers.
    await expect(payments.listPaymentMethods(organizationId)).resolves.toEqual([]);
  });

  it('counts a transaction begun by hand on the request context, and the e-signature port too', async () => {
    const esign = t.created.app.get(EsignPort);
    await t.withEm(async (scoped) => {
      await scoped.begin();
      try {
        await expect(payments.receiptUrl('dpi_any')).rejects.toBeInstanceOf(OutsideCallInTransactionError);
        await expect(esign.ensureTemplate({ externalId: 'x', name: 'Waiver', text: 'I agree' })).rejects.toBeInstanceOf(OutsideCallInTransactionError);
      } finally {
        await scoped.rollback();
      }
    });
    expect(takeOutsideCallViolations().map((v) => v.what)).toEqual(['payments.receiptUrl', 'esign.ensureTemplate']);
    await expect(esign.ensureTemplate({ externalId: 'x', name: 'Waiver', text: 'I agree' })).resolves.toEqual(expect.any(String));
  });

  it('an HTTP request (fetch or node:http) inside a transaction is refused before it is sent; outside it goes', async () => {
    const before = hits;
    await expect(em.fork().transactional(() => fetch(url))).rejects.toThrow('fetch failed');
    const viaHttp = em.fork().transactional(
      () =>
        new Promise((resolve, reject) => {
          httpGet(url, (res) => res.resume().on('end', resolve)).on('error', reject);
        }),
    );
    await expect(viaHttp).rejects.toBeInstanceOf(OutsideCallInTransactionError);
    expect(hits).toBe(before);
    expect(takeOutsideCallViolations().map((v) => v.what)).toEqual([expect.stringMatching(/^HTTP GET http:\/\/127\.0\.0\.1:\d+\/ping$/), expect.stringMatching(/^HTTP GET 127\.0\.0\.1\/ping$/)]);
    expect((await fetch(url)).status).toBe(200);
    expect(hits).toBe(before + 1);
  });

  it('a continuation that outlives its committed transaction may call out', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let later!: Promise<unknown>;
    await em.fork().transactional(async () => {
      // Runs in the transaction's async context, but only once it committed.
      later = gate.then(() => payments.listPaymentMethods(organizationId));
    });
    open();
    await expect(later).resolves.toEqual([]);
  });

  it('mail enqueued inside a transaction is only queued: the worker sends it outside any', async () => {
    const mail = t.created.app.get(MailService);
    await em.fork().transactional(() => mail.enqueue({ to: 'ada@example.test', subject: 'Queued in a transaction', text: 'Hello', dedupeKey: 'outside-calls:1' }));
    const deadline = Date.now() + 20_000;
    while ((await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml')).length === 0) {
      if (Date.now() > deadline) throw new Error('the mail was not written');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
