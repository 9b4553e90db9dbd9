import { DOCUMENT_UPLOAD_MESSAGES, WAIVER_MESSAGES as M } from '@studio/contracts';
import { simpleParser, ParsedMail } from 'mailparser';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocusealApi } from '@docuseal/api';
import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { ExternalSalesService } from '../src/modules/orders/external-sales.service';
import { DocusealEsignAdapter } from '../src/modules/waivers/docuseal/docuseal-esign.adapter';
import { FakeDocuseal, startFakeDocuseal } from './support/fake-docuseal';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type Submission = {
  submission_id: string;
  status: 'pending' | 'completed' | 'expired';
  completed_at: string | null;
  created_at: string;
  submission_url: string | null;
  sign_url: string | null;
  DocusealTemplate: { name: string };
};
type Org = { token: string; organizationId: string };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const WAIVER_TEXT = 'I understand that studio work involves heat, sharp tools and machinery.';

async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 30000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function mails(outbox: string): Promise<ParsedMail[]> {
  // Finished messages only: the outbox writes `name.eml.part` and renames it when complete.
  const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => simpleParser(await readFile(join(outbox, n)))));
}

/** The pieces every scenario needs: two organizations, a waiver, a course that requires it and one that does not. */
async function studio(t: TestApp) {
  const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
  const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
  const a: Org = { token: ownerA.token, organizationId: ownerA.organization.id };
  const b: Org = { token: ownerB.token, organizationId: ownerB.organization.id };
  const waiver = await t.http.post('/api/admin/waiver').set('token', a.token).send({ name: 'Studio safety waiver', body: WAIVER_TEXT }).expect(201);
  const withWaiver = await schedulableCourse(t, a.token, 8, { selected_waiver: waiver.body.template_id });
  const plain = await schedulableCourse(t, a.token, 8);
  return {
    a,
    b,
    withWaiver,
    waiverEvent: await scheduleSession(t, a.token, withWaiver, { capacity: 20 }),
    paidWaiverEvent: await scheduleSession(t, a.token, withWaiver, { capacity: 20, price: 3000 }),
    plainEvent: await scheduleSession(t, a.token, plain, { capacity: 20 }),
  };
}

function helpers(t: TestApp) {
  const detail = async (studentId: string, token: string) =>
    (await t.http.get(`/api/admin/student/${studentId}`).set('token', token).expect(200)).body as { Submission: Submission[] };
  const enroll = async (studentId: string, eventId: string, token: string) =>
    (await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }).expect(201)).body.enrollment_id as string;
  const grid = async (eventId: string, token: string) =>
    (await t.http.get(`/api/admin/enrollment/event/${eventId}`).set('token', token).expect(200)).body.enrollments as { enrollment_id: string; waiverStatus: string }[];
  const waiverStatus = async (eventId: string, enrollmentId: string, token: string) =>
    (await grid(eventId, token)).find((e) => e.enrollment_id === enrollmentId)?.waiverStatus;
  /** The student's one submission once its sign link exists (the queue job made the request). */
  const sent = (studentId: string, token: string) =>
    eventually(async () => {
      const [s] = (await detail(studentId, token)).Submission;
      return s?.sign_url ? s : null;
    });
  const remind = (id: string, token: string) => t.http.get(`/api/admin/submission/remind/${id}`).set('token', token);
  const remove = (enrollmentId: string, token: string, body?: object) => t.http.delete(`/api/admin/enrollment/${enrollmentId}`).set('token', token).send(body ?? {}).expect(204);
  /** The stored row, withdrawn ones included (the API no longer shows those). */
  const row = async (submissionId: string) =>
    (await t.withEm((em) => em.execute<{ status: string; withdrawn_at: Date | null; enrollment_id: string | null }[]>(`select status, withdrawn_at, enrollment_id from waiver_submission where id = ?`, [submissionId])))[0];
  return { detail, enroll, grid, waiverStatus, sent, remind, remove, row };
}

describe('waivers on the embedded (demo) signing page', () => {
  let t: TestApp;
  let outbox: string;
  let s: Awaited<ReturnType<typeof studio>>;
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    outbox = join(await mkdtemp(join(tmpdir(), 'waivers-')), 'outbox');
    t = await startTestApp({ MAIL_OUTBOX_DIR: outbox, RUN_WORKER: 'true', QUEUE_MODE: 'in-process' });
    s = await studio(t);
    h = helpers(t);
  }, 120000);
  afterAll(() => t.close());

  it('enrolling in a course that requires a waiver creates a pending submission and mails the sign link', async () => {
    const ada = await addStudent(t, s.a.token, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@clay.test' });
    const enrollment = await h.enroll(ada, s.waiverEvent, s.a.token);
    const [first] = (await h.detail(ada, s.a.token)).Submission;
    expect(first).toMatchObject({ status: 'pending', completed_at: null, submission_url: null, DocusealTemplate: { name: 'Studio safety waiver' } });
    expect(await h.waiverStatus(s.waiverEvent, enrollment, s.a.token)).toBe('pending');

    const submission = await h.sent(ada, s.a.token);
    expect(submission.sign_url).toMatch(/^http:\/\/localhost:\d+\/api\/sign\/demo\/dsub_[0-9a-f]{32}$/);
    const mail = await eventually(async () => (await mails(outbox)).find((m) => m.text?.includes(submission.sign_url!)));
    expect(mail.to && 'value' in mail.to ? mail.to.value[0].address : null).toBe('ada@clay.test');
    expect(mail.subject).toBe('Please sign: Studio safety waiver');
  });

  it('a seat bought through a payment link asks for its waiver too, once the payment lands', async () => {
    const pat = await addStudent(t, s.a.token, { first_name: 'Pat', last_name: 'Paid', email: 'pat@clay.test' });
    const link = await t.http.post(`/api/admin/orders/invoice/${pat}`).set('token', s.a.token).send({ event_id: s.paidWaiverEvent }).expect(201);
    expect((await h.detail(pat, s.a.token)).Submission).toEqual([]);
    await t.http.post(`${new URL(link.body.url).pathname}/pay`).type('form').send('').expect(200);
    const submission = await h.sent(pat, s.a.token);
    expect(submission).toMatchObject({ status: 'pending', DocusealTemplate: { name: 'Studio safety waiver' } });
    const [row] = await h.grid(s.paidWaiverEvent, s.a.token);
    expect(row.waiverStatus).toBe('pending');
  });

  it('a course without a waiver is not_required and requests nothing', async () => {
    const bo = await addStudent(t, s.a.token, { first_name: 'Bo' });
    const enrollment = await h.enroll(bo, s.plainEvent, s.a.token);
    expect(await h.waiverStatus(s.plainEvent, enrollment, s.a.token)).toBe('not_required');
    expect((await h.detail(bo, s.a.token)).Submission).toEqual([]);
  });

  it('signing on the demo page completes it: signed in the grid, Completed in the student detail, time and address recorded, the address never shown on the public page', async () => {
    const cy = await addStudent(t, s.a.token, { first_name: 'Cy', last_name: 'Signer' });
    const enrollment = await h.enroll(cy, s.waiverEvent, s.a.token);
    const submission = await h.sent(cy, s.a.token);
    const path = new URL(submission.sign_url!).pathname;

    const page = await t.http.get(path).set('accept', 'text/html').expect(200);
    expect(page.text).toContain(M.demoSigningPage);
    expect(page.text).toContain(WAIVER_TEXT);
    expect(page.text).toContain('name="signer_name"');

    const empty = await t.http.post(path).type('form').send({ signer_name: '  ' }).set('accept', 'application/json').expect(400);
    expect(empty.body.message).toBe(M.signerNameRequired);
    expect((await h.detail(cy, s.a.token)).Submission[0].status).toBe('pending');

    const before = Date.now();
    const signed = await t.http.post(path).type('form').send({ signer_name: 'Cy Signer' }).set('accept', 'text/html').expect(200);
    expect(signed.text).toContain('Signed');
    expect(signed.text).toContain('Cy Signer');
    // The page is public to anyone holding the link: signed, by whom and when, but not from which address.
    const [{ signer_ip: signerIp }] = await t.withEm((em) =>
      em.getConnection().execute<{ signer_ip: string | null }[]>(`select signer_ip from waiver_submission where id = ?`, [submission.submission_id]),
    );
    expect(signerIp).toEqual(expect.stringMatching(/[0-9a-f.:]+/));
    for (const shown of [signed.text, (await t.http.get(path).set('accept', 'text/html').expect(200)).text]) {
      expect(shown).toMatch(/Signed<\/strong> by Cy Signer on [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})? \d{1,2}:\d{2} [AP]M UTC\./);
      expect(shown).not.toContain(signerIp);
      expect(shown).not.toMatch(/address/i);
    }

    const [done] = (await h.detail(cy, s.a.token)).Submission;
    expect(done.status).toBe('completed');
    expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(before - 1000);
    expect(done.submission_url).toBe(submission.sign_url);
    expect(await h.waiverStatus(s.waiverEvent, enrollment, s.a.token)).toBe('signed');

    // A second signature changes nothing.
    await t.http.post(path).type('form').send({ signer_name: 'Somebody Else' }).expect(200);
    const [again] = (await h.detail(cy, s.a.token)).Submission;
    expect(again.completed_at).toBe(done.completed_at);
    expect((await t.http.get(path).expect(200)).text).toContain('Cy Signer');
  });

  it('an unknown signing link is 404', async () => {
    await t.http.get(`/api/sign/demo/dsub_${'0'.repeat(32)}`).set('accept', 'application/json').expect(404);
    await t.http.get('/api/sign/demo/nonsense').set('accept', 'text/html').expect(404);
  });

  it('a reminder is sent (a new mail), at most once an hour, refused once signed; another organization gets 404', async () => {
    const di = await addStudent(t, s.a.token, { first_name: 'Di', email: 'di@clay.test' });
    await h.enroll(di, s.waiverEvent, s.a.token);
    const submission = await h.sent(di, s.a.token);

    const ok = await h.remind(submission.submission_id, s.a.token).expect(200);
    expect(ok.body).toMatchObject({ submission_id: submission.submission_id, status: 'pending', message: M.reminderSent });
    const reminder = await eventually(async () => (await mails(outbox)).find((m) => m.subject === 'Reminder: please sign Studio safety waiver' && m.text?.includes(submission.sign_url!)));
    expect(reminder).toBeTruthy();

    const tooSoon = await h.remind(submission.submission_id, s.a.token).expect(429);
    expect(tooSoon.body.message).toBe(M.reminderTooSoon);

    const foreign = await h.remind(submission.submission_id, s.b.token).expect(404);
    expect(foreign.body.message).toBe(M.submissionNotFound);
    await h.remind('not-a-uuid', s.a.token).expect(404);

    // Signed: no reminder.
    await t.http.post(new URL(submission.sign_url!).pathname).type('form').send({ signer_name: 'Di' }).expect(200);
    const refused = await h.remind(submission.submission_id, s.a.token).expect(409);
    expect(refused.body.message).toBe(M.alreadySigned);
  });

  it('the Waivers page counts each template\'s pending and completed submissions, per organization', async () => {
    const summary = (token: string) => t.http.get('/api/admin/submission/summary').set('token', token).expect(200);
    const { templates } = (await summary(s.a.token)).body as { templates: { name: string; pending: number; completed: number; expired: number }[] };
    // Ada and Pat (a payment link) pending; Cy and Di signed.
    expect(templates).toEqual([expect.objectContaining({ name: 'Studio safety waiver', pending: 2, completed: 2, expired: 0 })]);
    expect((await summary(s.b.token)).body.templates).toEqual([]);
  });

  it("another organization's student detail is 404 and shows none of these waivers", async () => {
    const ada = (await t.http.get('/api/admin/student?search=ada').set('token', s.a.token).expect(200)).body.students[0].student_id;
    await t.http.get(`/api/admin/student/${ada}`).set('token', s.b.token).expect(404);
  });

  it('the DocuSeal webhook is not served while the demo page is the provider', async () => {
    const res = await t.http.post('/api/webhooks/docuseal').send({ event_type: 'form.completed', data: {} }).expect(404);
    expect(res.body.message).toBe(M.webhookNotConfigured);
  });

  it('removing the student withdraws the pending waiver: not listed, no reminder, the signing page refuses it', async () => {
    const gus = await addStudent(t, s.a.token, { first_name: 'Gus', email: 'gus@clay.test' });
    const enrollment = await h.enroll(gus, s.waiverEvent, s.a.token);
    const submission = await h.sent(gus, s.a.token);
    const path = new URL(submission.sign_url!).pathname;
    await h.remove(enrollment, s.a.token);

    expect((await h.detail(gus, s.a.token)).Submission).toEqual([]);
    // The status is kept (the API's statuses are unchanged); the withdrawal is its own column.
    expect(await h.row(submission.submission_id)).toMatchObject({ status: 'pending', withdrawn_at: expect.anything() });
    expect((await h.remind(submission.submission_id, s.a.token).expect(404)).body.message).toBe(M.submissionNotFound);
    await t.http.get(path).set('accept', 'text/html').expect(404);
    const refused = await t.http.post(path).type('form').send({ signer_name: 'Gus' }).set('accept', 'application/json').expect(404);
    expect(refused.body.message).toBe(M.submissionNotFound);
    expect(await h.row(submission.submission_id)).toMatchObject({ status: 'pending' });
    // Not counted on the Waivers page either (Ada and Pat pending, Cy and Di signed, as before).
    const summary = await t.http.get('/api/admin/submission/summary').set('token', s.a.token).expect(200);
    expect(summary.body.templates).toEqual([expect.objectContaining({ name: 'Studio safety waiver', pending: 2, completed: 2, expired: 0 })]);
  });
});

describe('waivers through DocuSeal (the official client against a local fake)', () => {
  const SECRET = 'docuseal-webhook-secret-0123456789';
  let fake: FakeDocuseal;
  let t: TestApp;
  let outbox: string;
  let s: Awaited<ReturnType<typeof studio>>;
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    fake = await startFakeDocuseal();
    outbox = join(await mkdtemp(join(tmpdir(), 'waivers-ds-')), 'outbox');
    t = await startTestApp({
      DOCUSEAL_URL: fake.url,
      DOCUSEAL_API_KEY: fake.apiKey,
      DOCUSEAL_WEBHOOK_SECRET: SECRET,
      MAIL_OUTBOX_DIR: outbox,
      RUN_WORKER: 'true',
      QUEUE_MODE: 'in-process',
    });
    s = await studio(t);
    h = helpers(t);
  }, 120000);
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const webhook = (body: object, secret?: string) => {
    const req = t.http.post('/api/webhooks/docuseal');
    if (secret !== undefined) req.set('X-Docuseal-Secret', secret);
    return req.send(body);
  };

  it('creates the template and a submission at DocuSeal, mails its sign link, reminds through DocuSeal, and completes by the webhook', async () => {
    const ada = await addStudent(t, s.a.token, { first_name: 'Ada', email: 'ada@ds.test' });
    const enrollment = await h.enroll(ada, s.waiverEvent, s.a.token);
    const submission = await h.sent(ada, s.a.token);

    const [template] = [...fake.templates.values()];
    expect(template).toMatchObject({ name: 'Studio safety waiver' });
    expect(String(template.html)).toContain(WAIVER_TEXT);
    expect(String(template.html)).toContain('<signature-field');
    const [remote] = [...fake.submissions.values()];
    expect(remote.template_id).toBe(template.id);
    expect(remote.submitters[0]).toMatchObject({ email: 'ada@ds.test', external_id: submission.submission_id, emails_sent: 0 });
    expect(submission.sign_url).toBe(`${new URL(fake.url).origin}/s/${remote.submitters[0].slug}`);
    await eventually(async () => (await mails(outbox)).find((m) => m.text?.includes(submission.sign_url!)));

    // Reminder: DocuSeal re-sends its signing request.
    await h.remind(submission.submission_id, s.a.token).expect(200);
    await eventually(async () => remote.submitters[0].emails_sent === 1);
    expect(fake.requests.some((r) => r.method === 'PUT' && r.path === `/submitters/${remote.submitters[0].id}` && r.body?.send_email === true)).toBe(true);

    const completed = fake.completeSubmission(remote.id);
    const wrong = await webhook(completed, 'not-the-secret-at-all-0123456789').expect(401);
    expect(wrong.body.message).toBe(M.webhookSecret);
    await webhook(completed).expect(401);
    expect((await h.detail(ada, s.a.token)).Submission[0].status).toBe('pending');

    await webhook(completed, SECRET).expect(200, { received: true });
    const [done] = (await h.detail(ada, s.a.token)).Submission;
    expect(done).toMatchObject({ status: 'completed', submission_url: remote.combined_document_url });
    expect(await h.waiverStatus(s.waiverEvent, enrollment, s.a.token)).toBe('signed');

    // A repeated delivery is harmless, and repairs an enrollment left behind (a crash between the two writes).
    await t.withEm((em) => em.execute(`update enrollment set waiver_status = 'pending' where id = ?`, [enrollment]));
    await webhook(completed, SECRET).expect(200);
    const [again] = (await h.detail(ada, s.a.token)).Submission;
    expect(again.completed_at).toBe(done.completed_at);
    expect(await h.waiverStatus(s.waiverEvent, enrollment, s.a.token)).toBe('signed');
    expect((await h.remind(submission.submission_id, s.a.token).expect(409)).body.message).toBe(M.alreadySigned);
  });

  it('an expired submission shows expired in the grid and takes no reminder', async () => {
    const bo = await addStudent(t, s.a.token, { first_name: 'Bo' });
    const enrollment = await h.enroll(bo, s.waiverEvent, s.a.token);
    const submission = await h.sent(bo, s.a.token);
    const remote = [...fake.submissions.values()].find((x) => x.submitters[0].external_id === submission.submission_id)!;
    await webhook({ event_type: 'submission.expired', timestamp: new Date().toISOString(), data: { id: remote.id, status: 'expired' } }, SECRET).expect(200);
    expect(await h.waiverStatus(s.waiverEvent, enrollment, s.a.token)).toBe('expired');
    expect((await h.detail(bo, s.a.token)).Submission[0].status).toBe('expired');
    expect((await h.remind(submission.submission_id, s.a.token).expect(409)).body.message).toBe(M.expired);
  });

  it("a waiver whose document is an uploaded PDF becomes a DocuSeal template from that PDF; the upload takes only PDFs of the organization", async () => {
    const notPdf = await t.http.post('/api/admin/upload/document').set('token', s.a.token).attach('file', Buffer.from('hello'), 'waiver.pdf').expect(415);
    expect(notPdf.body.message).toBe(DOCUMENT_UPLOAD_MESSAGES.type);
    const uploaded = await t.http.post('/api/admin/upload/document').set('token', s.a.token).attach('file', PDF, 'waiver.pdf').expect(200);
    expect(uploaded.body.url).toMatch(/^\/api\/media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.pdf$/);
    const served = await t.http.get(uploaded.body.url).expect(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-security-policy']).toBe('sandbox');
    // Another organization cannot use it.
    await t.http.post('/api/admin/waiver').set('token', s.b.token).send({ name: 'Theirs', document_url: uploaded.body.url }).expect(404);

    const waiver = await t.http.post('/api/admin/waiver').set('token', s.a.token).send({ name: 'Glass waiver (PDF)', document_url: uploaded.body.url }).expect(201);
    const course = await schedulableCourse(t, s.a.token, 8, { selected_waiver: waiver.body.template_id });
    const event = await scheduleSession(t, s.a.token, course, { capacity: 5 });
    const cy = await addStudent(t, s.a.token, { first_name: 'Cy' });
    await h.enroll(cy, event, s.a.token);
    await h.sent(cy, s.a.token);
    const call = fake.requests.find((r) => r.path === '/templates/pdf');
    expect(call?.body).toMatchObject({ name: 'Glass waiver (PDF)', external_id: waiver.body.template_id });
    const documents = call!.body!.documents as { file: string }[];
    expect(Buffer.from(documents[0].file, 'base64').equals(PDF)).toBe(true);
  });

  const remoteOf = (submissionId: string) => [...fake.submissions.values()].find((x) => x.submitters[0].external_id === submissionId)!;
  const archivedAt = (remoteId: number) => eventually(async () => fake.archived.includes(remoteId));

  it('removing a student withdraws their pending waiver: gone from their waivers, archived at DocuSeal, no reminder', async () => {
    const eve = await addStudent(t, s.a.token, { first_name: 'Eve', email: 'eve@ds.test' });
    const enrollment = await h.enroll(eve, s.waiverEvent, s.a.token);
    const submission = await h.sent(eve, s.a.token);
    const remote = remoteOf(submission.submission_id);
    await h.remove(enrollment, s.a.token);

    expect((await h.detail(eve, s.a.token)).Submission).toEqual([]);
    await archivedAt(remote.id);
    expect(fake.requests).toContainEqual(expect.objectContaining({ method: 'DELETE', path: `/submissions/${remote.id}` }));
    expect(remote.archived_at).toEqual(expect.any(String));
    expect((await h.remind(submission.submission_id, s.a.token).expect(404)).body.message).toBe(M.submissionNotFound);
    expect(remote.submitters[0].emails_sent).toBe(0);
  });

  it('DocuSeal failing to archive does not undo the withdrawal; the archive is retried', async () => {
    const lea = await addStudent(t, s.a.token, { first_name: 'Lea', email: 'lea@ds.test' });
    const enrollment = await h.enroll(lea, s.waiverEvent, s.a.token);
    const submission = await h.sent(lea, s.a.token);
    const remote = remoteOf(submission.submission_id);
    fake.failArchives = 1;
    await h.remove(enrollment, s.a.token);

    await eventually(async () => fake.failArchives === 0);
    expect((await h.detail(lea, s.a.token)).Submission).toEqual([]);
    expect(await h.row(submission.submission_id)).toMatchObject({ status: 'pending', withdrawn_at: expect.anything() });
    expect((await h.remind(submission.submission_id, s.a.token).expect(404)).body.message).toBe(M.submissionNotFound);
    await archivedAt(remote.id);
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/submissions/${remote.id}`)).toHaveLength(2);
  });

  it('a signed waiver stays when the student is removed, and is not archived', async () => {
    const flo = await addStudent(t, s.a.token, { first_name: 'Flo', email: 'flo@ds.test' });
    const enrollment = await h.enroll(flo, s.waiverEvent, s.a.token);
    const submission = await h.sent(flo, s.a.token);
    const remote = remoteOf(submission.submission_id);
    await webhook(fake.completeSubmission(remote.id), SECRET).expect(200);
    await h.remove(enrollment, s.a.token);

    const [kept] = (await h.detail(flo, s.a.token)).Submission;
    expect(kept).toMatchObject({ submission_id: submission.submission_id, status: 'completed', submission_url: remote.combined_document_url });
    expect(await h.row(submission.submission_id)).toMatchObject({ withdrawn_at: null });
    // Give a queued archive the time to run: none may.
    await t.idle();
    expect(fake.requests.some((r) => r.method === 'DELETE' && r.path === `/submissions/${remote.id}`)).toBe(false);
  });

  const signMails = async (to: string) =>
    (await mails(outbox)).filter((m) => m.subject === 'Please sign: Studio safety waiver' && m.to && 'value' in m.to && m.to.value[0].address === to);
  const remotesOf = (email: string) => [...fake.submissions.values()].filter((x) => x.submitters[0].email === email);

  it('a second seat of a student whose waiver is pending shares the request (issue 25): one request at DocuSeal, one mail, and signing it signs both seats', async () => {
    const second = await scheduleSession(t, s.a.token, s.withWaiver, { capacity: 20 });
    const joy = await addStudent(t, s.a.token, { first_name: 'Joy', email: 'joy@ds.test' });
    const first = await h.enroll(joy, s.waiverEvent, s.a.token);
    const request = await h.sent(joy, s.a.token);
    await eventually(async () => (await signMails('joy@ds.test')).length === 1);
    const other = await h.enroll(joy, second, s.a.token);

    // The second seat is pending with the same sign link; nothing new was asked of DocuSeal or mailed.
    const both = (await h.detail(joy, s.a.token)).Submission;
    expect(both).toHaveLength(2);
    expect(both.map((x) => x.sign_url)).toEqual([request.sign_url, request.sign_url]);
    expect(await h.waiverStatus(second, other, s.a.token)).toBe('pending');
    await t.idle();
    expect(remotesOf('joy@ds.test')).toHaveLength(1);
    expect(await signMails('joy@ds.test')).toHaveLength(1);

    // A reminder of the second seat reminds through the one request.
    const shared = both.find((x) => x.submission_id !== request.submission_id)!;
    await h.remind(shared.submission_id, s.a.token).expect(200);
    await eventually(async () => remoteOf(request.submission_id).submitters[0].emails_sent === 1);

    await webhook(fake.completeSubmission(remoteOf(request.submission_id).id), SECRET).expect(200);
    expect(await h.waiverStatus(s.waiverEvent, first, s.a.token)).toBe('signed');
    expect(await h.waiverStatus(second, other, s.a.token)).toBe('signed');
    expect((await h.detail(joy, s.a.token)).Submission.map((x) => x.status)).toEqual(['completed', 'completed']);
  });

  it('removing the seat whose request another seat shares hands the request over: the link keeps working, nothing is archived, the student is not asked again', async () => {
    const second = await scheduleSession(t, s.a.token, s.withWaiver, { capacity: 20 });
    const gil = await addStudent(t, s.a.token, { first_name: 'Gil', email: 'gil@ds.test' });
    const first = await h.enroll(gil, s.waiverEvent, s.a.token);
    const request = await h.sent(gil, s.a.token);
    const other = await h.enroll(gil, second, s.a.token);
    const remote = remoteOf(request.submission_id);
    await h.remove(first, s.a.token);

    const [left] = (await h.detail(gil, s.a.token)).Submission;
    expect((await h.detail(gil, s.a.token)).Submission).toHaveLength(1);
    expect(left).toMatchObject({ status: 'pending', sign_url: request.sign_url });
    expect(left.submission_id).not.toBe(request.submission_id);
    expect(await h.waiverStatus(second, other, s.a.token)).toBe('pending');
    await h.remind(left.submission_id, s.a.token).expect(200);
    await eventually(async () => remote.submitters[0].emails_sent === 1);
    await t.idle();
    expect(remote.archived_at).toBeNull();
    expect(remotesOf('gil@ds.test')).toHaveLength(1);
    expect(await signMails('gil@ds.test')).toHaveLength(1);

    // DocuSeal's webhook for that submission signs the seat that took it over.
    await webhook(fake.completeSubmission(remote.id), SECRET).expect(200);
    expect(await h.waiverStatus(second, other, s.a.token)).toBe('signed');
  });

  it('a request the other seat relies on (it has none of its own) is kept pending', async () => {
    const second = await scheduleSession(t, s.a.token, s.withWaiver, { capacity: 20 });
    const hal = await addStudent(t, s.a.token, { first_name: 'Hal', email: 'hal@ds.test' });
    const first = await h.enroll(hal, s.waiverEvent, s.a.token);
    const submission = await h.sent(hal, s.a.token);
    const other = await h.enroll(hal, second, s.a.token);
    // As if the second seat had been covered by the first request (no row of its own, as before issue 25).
    await t.withEm((em) => em.execute(`delete from waiver_submission where enrollment_id = ?`, [other]));
    await h.remove(first, s.a.token);

    expect((await h.detail(hal, s.a.token)).Submission).toEqual([expect.objectContaining({ submission_id: submission.submission_id, status: 'pending' })]);
    expect(await h.row(submission.submission_id)).toMatchObject({ withdrawn_at: null });
    await h.remind(submission.submission_id, s.a.token).expect(200);
    expect(remoteOf(submission.submission_id).archived_at).toBeNull();
  });

  it('Remove student with a refund withdraws the waiver too', async () => {
    const ida = await addStudent(t, s.a.token, { first_name: 'Ida', email: 'ida@ds.test' });
    const link = await t.http.post(`/api/admin/orders/invoice/${ida}`).set('token', s.a.token).send({ event_id: s.paidWaiverEvent }).expect(201);
    await t.http.post(`${new URL(link.body.url).pathname}/pay`).type('form').send('').expect(200);
    const submission = await h.sent(ida, s.a.token);
    const [seat] = (await h.grid(s.paidWaiverEvent, s.a.token)).filter((e) => e.waiverStatus === 'pending');
    // The refund is refused without a card in billing settings: one is saved on the demo payment page.
    const setup = await t.http.post('/api/admin/payment-methods/setup').set('token', s.a.token).expect(200);
    await t.http.post(`${new URL(setup.body.url).pathname}/pay`).type('form').send('').expect(200);
    await h.remove(seat.enrollment_id, s.a.token, { refund: { amount: 3000, reason: 'Other' } });

    expect((await h.detail(ida, s.a.token)).Submission).toEqual([]);
    await archivedAt(remoteOf(submission.submission_id).id);
    expect((await h.remind(submission.submission_id, s.a.token).expect(404)).body.message).toBe(M.submissionNotFound);
  });

  it('a sale refunded on Eventbrite gives the seat back and withdraws its waiver', async () => {
    const orders = t.created.app.get(ExternalSalesService);
    const ctx = { organizationId: s.a.organizationId };
    // As the Eventbrite order job calls them: in its own MikroORM context.
    const inJob = <T>(fn: () => Promise<T>) => OrmContext.create(t.created.app.get(EntityManager), fn);
    const sale = await inJob(() => orders.record(ctx, {
      source: 'eventbrite',
      externalId: 'eb-order-waiver-1',
      eventId: s.waiverEvent,
      buyer: { first_name: 'Jo', last_name: 'Buyer', email: 'jo@ds.test' },
      seats: 1,
      totalCents: 2500,
    }));
    if (sale.kind !== 'recorded') throw new Error(`not recorded: ${sale.kind}`);
    const [{ student_id: jo }] = await t.withEm((em) => em.execute<{ student_id: string }[]>(`select student_id from enrollment where id = ?`, [sale.enrollmentId]));
    const submission = await h.sent(jo, s.a.token);
    expect(await inJob(() => orders.release(ctx, { source: 'eventbrite', externalId: 'eb-order-waiver-1', reason: 'Refunded on Eventbrite' }))).toMatchObject({ kind: 'released', enrollment: 'removed' });
    // Called as the sync job calls it, not through the API: what the release announced is carried out now.
    await t.settle();

    expect((await h.detail(jo, s.a.token)).Submission).toEqual([]);
    await archivedAt(remoteOf(submission.submission_id).id);
  });

  it('the adapter refuses a wrong API key (DocuSeal answers 401)', async () => {
    const adapter = new DocusealEsignAdapter(new DocusealApi({ key: 'wrong-key-123', url: fake.url }), fake.url, SECRET);
    await expect(adapter.ensureTemplate({ externalId: 'x', name: 'W', text: 'T' })).rejects.toThrow(/401/);
  });
});

describe('the embedded signing page as the configured provider (WAIVER_EMBEDDED_SIGNING)', () => {
  it('is not labelled "Demo signing page" and still records the signature', async () => {
    const t = await startTestApp({ WAIVER_EMBEDDED_SIGNING: 'true', RUN_WORKER: 'true', QUEUE_MODE: 'in-process', MAIL_OUTBOX_DIR: join(await mkdtemp(join(tmpdir(), 'waivers-emb-')), 'outbox') });
    try {
      const s = await studio(t);
      const h = helpers(t);
      const ada = await addStudent(t, s.a.token, { first_name: 'Ada' });
      await h.enroll(ada, s.waiverEvent, s.a.token);
      const path = new URL((await h.sent(ada, s.a.token)).sign_url!).pathname;
      const page = await t.http.get(path).expect(200);
      expect(page.text).toContain(WAIVER_TEXT);
      expect(page.text).not.toContain(M.demoSigningPage);
      await t.http.post(path).type('form').send({ signer_name: 'Ada' }).expect(200);
      expect((await h.detail(ada, s.a.token)).Submission[0].status).toBe('completed');
    } finally {
      await t.close();
    }
  }, 180000);
});

describe('waiver jobs on BullMQ (a worker has no request context to inherit)', () => {
  it('requests the signature and mails the link, and a removal withdraws it', async () => {
    const outbox = join(await mkdtemp(join(tmpdir(), 'waivers-bull-')), 'outbox');
    const t = await startTestApp({ QUEUE_MODE: 'redis', RUN_WORKER: 'true', MAIL_OUTBOX_DIR: outbox });
    try {
      const s = await studio(t);
      const h = helpers(t);
      const kim = await addStudent(t, s.a.token, { first_name: 'Kim', email: 'kim@bull.test' });
      const enrollment = await h.enroll(kim, s.waiverEvent, s.a.token);
      const submission = await h.sent(kim, s.a.token);
      await eventually(async () => (await mails(outbox)).find((m) => m.text?.includes(submission.sign_url!)));
      await h.remove(enrollment, s.a.token);
      expect((await h.detail(kim, s.a.token)).Submission).toEqual([]);
      expect((await h.remind(submission.submission_id, s.a.token).expect(404)).body.message).toBe(M.submissionNotFound);
    } finally {
      await t.close();
    }
  }, 180000);
});

describe('demo data', () => {
  it('seeds a waiver course whose seats have completed and pending waivers, each matching its enrollment', async () => {
    const t = await startTestApp({ SEED_DEMO: 'true' });
    try {
      const rows = await t.withEm((em) =>
        em.execute<{ waiver_status: string; status: string; sign_url: string | null; completed_at: string | null; signer_ip: string | null }[]>(
          `select e.waiver_status, w.status, w.sign_url, w.completed_at, w.signer_ip
             from enrollment e join waiver_submission w on w.enrollment_id = e.id`,
        ),
      );
      const completed = rows.filter((r) => r.status === 'completed');
      const pending = rows.filter((r) => r.status === 'pending');
      expect(completed.length).toBeGreaterThan(0);
      expect(pending.length).toBeGreaterThan(0);
      for (const r of completed) expect(r).toMatchObject({ waiver_status: 'signed', completed_at: expect.any(String), signer_ip: expect.any(String) });
      for (const r of pending) expect(r).toMatchObject({ waiver_status: 'pending', completed_at: null });
      for (const r of rows) expect(r.sign_url).toMatch(/\/api\/sign\/demo\/dsub_[0-9a-f]{32}$/);
      const [orphans] = await t.withEm((em) =>
        em.execute<{ n: string }[]>(`select count(*) as n from enrollment e where e.waiver_status in ('signed', 'pending') and not exists (select 1 from waiver_submission w where w.enrollment_id = e.id)`),
      );
      expect(Number(orphans.n)).toBe(0);
    } finally {
      await t.close();
    }
  }, 180000);
});
