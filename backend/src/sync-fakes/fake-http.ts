import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/*
 * The small HTTP server every sync-provider fake is built on (tests start them; `npm run fakes`
 * starts them for a developer with no network). Routes are `METHOD /path/:param`; bodies are
 * parsed as JSON or as a form, as the providers' clients send them. Every request is recorded so a
 * test can count the provider's effects.
 */

export type Obj = Record<string, unknown>;

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** JSON or form body (a form arrives as an object of strings); null when empty. */
  body: Obj | Obj[] | null;
  /** The bearer token of the Authorization header, if any. */
  bearer: string | null;
}

export interface FakeResponse {
  status?: number;
  json?: unknown;
  /** A redirect (302 with Location). */
  redirect?: string;
  headers?: Record<string, string>;
  text?: string;
}

export type FakeHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

/** Every fake's 429 switch: the next `count` API calls answer 429 (Retry-After in seconds), then it serves again. */
export class FakeRateLimit {
  private remaining = 0;
  private retryAfterSeconds = 1;
  /** How many calls it answered 429, to see that a test's 429 did happen. */
  answered = 0;

  /** The next `count` API calls answer 429 with Retry-After. */
  next(count: number, retryAfterSeconds = 1): void {
    this.remaining = count;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Consumes one limited call: the Retry-After seconds, or null when the call is served. */
  take(): number | null {
    if (this.remaining <= 0) return null;
    this.remaining -= 1;
    this.answered += 1;
    return this.retryAfterSeconds;
  }
}

/** How a fake guards its API (see FakeHttpServer.guardApi). */
export interface FakeApiGuard {
  /** Where the provider's API lives (`/v3/`, `/3.0/`, `/api/`, `/v2/`); OAuth pages are not guarded. */
  prefix: string;
  /** The provider's own refusals before anything else (a missing token, a required header); null to go on. */
  check?: (req: FakeRequest) => FakeResponse | null;
  /** The provider's 429 body; the Retry-After header is added. */
  tooMany: (retryAfterSeconds: number) => FakeResponse;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

export class FakeHttpServer {
  private readonly routes: Route[] = [];
  private server: Server | null = null;
  /** Every request, in arrival order (method, path, body). */
  readonly requests: { method: string; path: string; body: FakeRequest['body'] }[] = [];
  /** Runs before every route; an answer here short-circuits it (set by guardApi: auth checks, then 429s). */
  before: ((req: FakeRequest) => FakeResponse | null) | null = null;
  /** The API's 429 switch, consulted by `before` on every API call (guardApi). */
  readonly rateLimit = new FakeRateLimit();
  url = '';

  constructor(readonly name: string) {}

  route(method: string, path: string, handler: FakeHandler): this {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/\/+$/, '').replace(/:([A-Za-z_]+)/g, (_, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}/?$`,
    );
    this.routes.push({ method, pattern, names, handler });
    return this;
  }

  /**
   * Sets `before` for the API under `guard.prefix`, the same way for every fake: the provider's
   * own checks first, then the shared rate limit (429 in the provider's shape, with Retry-After).
   */
  guardApi(guard: FakeApiGuard): this {
    this.before = (req) => {
      if (!req.path.startsWith(guard.prefix)) return null;
      const refused = guard.check?.(req);
      if (refused) return refused;
      const retryAfter = this.rateLimit.take();
      if (retryAfter === null) return null;
      const answer = guard.tooMany(retryAfter);
      return { ...answer, status: 429, headers: { ...answer.headers, 'retry-after': String(retryAfter) } };
    };
    return this;
  }

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: FakeRequest['body'] = null;
    if (raw) {
      const type = String(req.headers['content-type'] ?? '');
      try {
        body = type.includes('application/x-www-form-urlencoded')
          ? Object.fromEntries(new URLSearchParams(raw))
          : (JSON.parse(raw) as Obj | Obj[]);
      } catch {
        return this.send(res, { status: 400, json: { error: 'invalid_body' } });
      }
    }
    const auth = String(req.headers.authorization ?? '');
    const fakeReq: FakeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params: {},
      query: url.searchParams,
      headers: req.headers,
      body,
      bearer: /^bearer\s+/i.test(auth) ? auth.replace(/^bearer\s+/i, '') : null,
    };
    this.requests.push({ method: fakeReq.method, path: fakeReq.path, body });
    for (const route of this.routes) {
      if (route.method !== fakeReq.method) continue;
      const match = route.pattern.exec(url.pathname.replace(/\/+$/, '') || '/');
      if (!match) continue;
      route.names.forEach((n, i) => (fakeReq.params[n] = decodeURIComponent(match[i + 1])));
      try {
        const early = this.before?.(fakeReq);
        return this.send(res, early ?? (await route.handler(fakeReq)));
      } catch (error) {
        return this.send(res, { status: 500, json: { error: String(error) } });
      }
    }
    this.send(res, { status: 404, json: { error: 'not_found', path: url.pathname } });
  }

  private send(res: ServerResponse, answer: FakeResponse): void {
    const headers = { ...answer.headers };
    if (answer.redirect) {
      res.writeHead(answer.status ?? 302, { ...headers, location: answer.redirect });
      res.end();
      return;
    }
    if (answer.json !== undefined) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(answer.json));
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(answer.text ?? '');
  }
}
