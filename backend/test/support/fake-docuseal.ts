import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/*
 * A local, stateful stand-in for DocuSeal's HTTP API (https://www.docuseal.com/docs/api), for the
 * calls the DocuSeal adapter makes through `@docuseal/api`: templates from HTML or PDF
 * (POST /templates/html, /templates/pdf), submissions (POST /submissions/init, GET /submissions/{id},
 * DELETE /submissions/{id}, which archives it and answers its id and archived_at), and submitters
 * (PUT /submitters/{id}, where send_email re-sends the signing request). Requests must carry the
 * API key as X-Auth-Token (401 otherwise, as DocuSeal). Answers have DocuSeal's shapes. What a
 * signer does on DocuSeal's pages is played by `completeSubmission`, which answers the form.completed
 * webhook body DocuSeal would post.
 */

type Obj = Record<string, unknown>;

export interface FakeDocusealSubmitter {
  id: number;
  submission_id: number;
  slug: string;
  email: string;
  name: string | null;
  role: string;
  external_id: string | null;
  status: 'awaiting' | 'sent' | 'opened' | 'completed';
  completed_at: string | null;
  emails_sent: number;
}

export interface FakeDocuseal {
  /** The API address to configure (DOCUSEAL_URL). */
  url: string;
  apiKey: string;
  requests: { method: string; path: string; body: Obj | null }[];
  templates: Map<number, Obj>;
  submissions: Map<number, { id: number; template_id: number; status: string; combined_document_url: string | null; archived_at: string | null; submitters: FakeDocusealSubmitter[] }>;
  /** The submissions archived through DELETE /submissions/{id}, in order (a repeat is listed again). */
  archived: number[];
  /** While above zero, DELETE /submissions/{id} answers 500 (and counts down): DocuSeal failing. */
  failArchives: number;
  /** The signer completes the form on DocuSeal's page: answers the form.completed webhook body. */
  completeSubmission(submissionId: number): Obj;
  close(): Promise<void>;
}

export async function startFakeDocuseal(apiKey = 'docuseal_test_key'): Promise<FakeDocuseal> {
  const templates = new Map<number, Obj>();
  const submissions: FakeDocuseal['submissions'] = new Map();
  const submitters = new Map<number, FakeDocusealSubmitter>();
  const requests: FakeDocuseal['requests'] = [];
  const archived: number[] = [];
  let sequence = 1000;
  let origin = '';

  const submitterOut = (s: FakeDocusealSubmitter) => ({
    id: s.id,
    submission_id: s.submission_id,
    uuid: `${s.id}-uuid`,
    email: s.email,
    slug: s.slug,
    status: s.status,
    values: [],
    metadata: {},
    sent_at: s.emails_sent ? new Date().toISOString() : null,
    opened_at: null,
    completed_at: s.completed_at,
    declined_at: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    name: s.name,
    phone: null,
    external_id: s.external_id,
    preferences: {},
    role: s.role,
    embed_src: `${origin}/s/${s.slug}`,
  });

  const makeTemplate = (body: Obj, source: string) => {
    if (source === 'html' && typeof body.html !== 'string') return { status: 422, body: { error: 'HTML is required' } };
    if (source === 'pdf' && !Array.isArray(body.documents)) return { status: 422, body: { error: 'Documents are required' } };
    const id = ++sequence;
    const template = {
      id,
      slug: randomBytes(7).toString('hex'),
      name: body.name ?? 'Template',
      external_id: body.external_id ?? null,
      source: 'api',
      submitters: [{ name: 'Student', uuid: `${id}-role` }],
      fields: [],
      schema: [],
      documents: [],
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      html: body.html ?? null,
    };
    templates.set(id, template);
    return { status: 200, body: template };
  };

  const handle = (method: string, path: string, body: Obj | null): { status: number; body: unknown } => {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/templates/html') return makeTemplate(body ?? {}, 'html');
    if (method === 'POST' && path === '/templates/pdf') return makeTemplate(body ?? {}, 'pdf');
    if (method === 'POST' && path === '/submissions/init') {
      const templateId = Number(body?.template_id);
      if (!templates.has(templateId)) return { status: 404, body: { error: 'Template not found' } };
      const list = Array.isArray(body?.submitters) ? (body!.submitters as Obj[]) : [];
      if (!list.length) return { status: 422, body: { error: 'Submitters are required' } };
      const id = ++sequence;
      const made = list.map((s) => {
        const submitter: FakeDocusealSubmitter = {
          id: ++sequence,
          submission_id: id,
          slug: randomBytes(7).toString('hex'),
          email: String(s.email),
          name: (s.name as string) ?? null,
          role: String(s.role ?? 'First Party'),
          external_id: (s.external_id as string) ?? null,
          status: body?.send_email === false ? 'awaiting' : 'sent',
          completed_at: null,
          emails_sent: body?.send_email === false ? 0 : 1,
        };
        submitters.set(submitter.id, submitter);
        return submitter;
      });
      submissions.set(id, { id, template_id: templateId, status: 'pending', combined_document_url: null, archived_at: null, submitters: made });
      return { status: 200, body: { id, submitters: made.map(submitterOut), expire_at: null, created_at: new Date().toISOString() } };
    }
    if (method === 'GET' && (match = /^\/submissions\/(\d+)$/.exec(path))) {
      const submission = submissions.get(Number(match[1]));
      if (!submission) return { status: 404, body: { error: 'Not found' } };
      return { status: 200, body: { ...submission, submitters: submission.submitters.map(submitterOut) } };
    }
    if (method === 'DELETE' && (match = /^\/submissions\/(\d+)$/.exec(path))) {
      if (api.failArchives > 0) {
        api.failArchives -= 1;
        return { status: 500, body: { error: 'Internal Server Error' } };
      }
      // DocuSeal archives (a soft delete); archiving again keeps the first time.
      const submission = submissions.get(Number(match[1]));
      if (!submission) return { status: 404, body: { error: 'Not found' } };
      submission.archived_at ??= new Date().toISOString();
      archived.push(submission.id);
      return { status: 200, body: { id: submission.id, archived_at: submission.archived_at } };
    }
    if (method === 'PUT' && (match = /^\/submitters\/(\d+)$/.exec(path))) {
      const submitter = submitters.get(Number(match[1]));
      if (!submitter) return { status: 404, body: { error: 'Not found' } };
      if (body?.send_email === true) {
        submitter.emails_sent += 1;
        if (submitter.status === 'awaiting') submitter.status = 'sent';
      }
      return { status: 200, body: submitterOut(submitter) };
    }
    return { status: 404, body: { error: 'Not found' } };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname.replace(/^\/api/, '');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Obj | null = null;
      try {
        body = raw ? (JSON.parse(raw) as Obj) : null;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Invalid JSON' }));
        return;
      }
      requests.push({ method: req.method ?? 'GET', path, body });
      if (req.headers['x-auth-token'] !== apiKey) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not authenticated' }));
        return;
      }
      const answer = handle(req.method ?? 'GET', path, body);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  const api: FakeDocuseal = {
    url: `${origin}/api`,
    apiKey,
    requests,
    templates,
    submissions,
    archived,
    failArchives: 0,
    completeSubmission(submissionId: number) {
      const submission = submissions.get(submissionId);
      if (!submission) throw new Error(`No fake DocuSeal submission ${submissionId}`);
      const completedAt = new Date().toISOString();
      submission.status = 'completed';
      submission.combined_document_url = `${origin}/file/${randomBytes(8).toString('hex')}/signed.pdf`;
      const submitter = submission.submitters[0];
      submitter.status = 'completed';
      submitter.completed_at = completedAt;
      return {
        event_type: 'form.completed',
        timestamp: completedAt,
        data: {
          ...submitterOut(submitter),
          documents: [{ name: 'waiver', url: submission.combined_document_url }],
          submission: { id: submission.id, status: 'completed', combined_document_url: submission.combined_document_url, url: `${origin}/e/${submitter.slug}` },
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return api;
}
