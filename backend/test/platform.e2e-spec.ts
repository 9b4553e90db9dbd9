import { startTestApp, TestApp } from './test-app';

/**
 * The routes in Fastify's printRoutes({ commonPrefix: false }) tree: each line a path segment under
 * its parent (4 characters of indent per level) with the methods it answers; HEAD, which Fastify
 * adds to every GET, left out.
 */
function servedRoutes(tree: string): { method: string; path: string }[] {
  const parents: string[] = [];
  const routes: { method: string; path: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (depth ? parents[depth - 1] : '') + match[2];
    parents.length = depth;
    parents[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') routes.push({ method: method.toLowerCase(), path });
    }
  }
  return routes;
}

describe('health and API documentation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reports the database and the queue', async () => {
    const res = await t.http.get('/api/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', queue: 'up', queue_mode: 'bullmq' });
  });

  it('documents every endpoint with schemas and the token header scheme', async () => {
    const doc = (await t.http.get('/api/docs-json').expect(200)).body;
    expect(doc.components.securitySchemes.token).toEqual({ type: 'apiKey', in: 'header', name: 'token' });
    // Every route the API really serves (read off Fastify's router), not a hand-kept list.
    const expected = servedRoutes(t.created.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }))
      .filter(
        ({ path }) =>
          path.startsWith('/api/') &&
          !path.startsWith('/api/docs') &&
          // The queue dashboard (bull-board's own pages and API) and its browser entry (a one-time
          // ticket traded for a cookie, then a redirect): not API calls, so not in the document.
          !path.startsWith('/api/admin/queues') &&
          path !== '/api/admin/queue-dashboard/enter' &&
          // The demo signing page's own script (a static file its page loads), not an API call.
          path !== '/api/sign/demo/signed.js' &&
          !path.includes('*'),
      )
      .map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    expect(expected.length).toBeGreaterThan(40);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(documented.sort()).toEqual(expected.sort());
    for (const [path, ops] of Object.entries(
      doc.paths as Record<
        string,
        Record<
          string,
          {
            responses: Record<string, { content?: Record<string, unknown> }>;
            requestBody?: unknown;
            parameters?: unknown[];
            security?: unknown;
          }
        >
      >,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        const ok = op.responses['200'] ?? op.responses['201'] ?? op.responses['202'] ?? op.responses['204'];
        expect(ok).toBeDefined();
        if (!op.responses['204']) expect(Object.values(ok.content ?? {})[0]).toHaveProperty('schema');
        // Documented on each operation: a JSON body can be invalid or too large, a query invalid, and
        // a path id unknown. The document builder adds only the 400s no controller sees (a malformed
        // header, an undecodable path, a body sent to a bodiless action): every operation has one.
        expect(op.responses['400']).toBeDefined();
        const params = (op.parameters ?? []) as { in: string }[];
        if (op.requestBody && !path.endsWith('/upload'))
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '413']));
        if (params.some((p) => p.in === 'query')) expect(op.responses['400']).toBeDefined();
        if (params.some((p) => p.in === 'path')) expect(op.responses['404']).toBeDefined();
        // Bodiless actions: sign out, ask the provider for a page to save a card on, retry a failed
        // sync, mark a ticketing conflict resolved, ask for a queue dashboard link, retry a failed
        // outbox row, the demo payment page's Pay and Cancel (form posts without fields), a check-in
        // (of a seat or an appointment), a waitlist
        // entry's "Offer the seat", and a student's cancel from the manage link (the token says which booking).
        const bodiless = [
          '/api/auth/logout',
          '/api/auth/logout-all',
          '/api/admin/payment-methods/setup',
          '/api/pay/demo/{session_id}/pay',
          '/api/pay/demo/{session_id}/cancel',
          '/api/admin/sync/mappings/{mapping_id}/retry',
          '/api/admin/sync/conflicts/{conflict_id}/resolve',
          '/api/admin/queue-dashboard/link',
          '/api/admin/outbox/{id}/retry',
          '/api/admin/enrollment/{enrollment_id}/check-in',
          '/api/admin/appointments/{appointment_id}/check-in',
          '/api/admin/waitlist/{entry_id}/offer',
          '/api/public/{slug}/bookings/{token}/cancel',
        ];
        if (['post', 'put'].includes(method) && !bodiless.includes(path))
          expect(op.requestBody).toBeDefined();
        const guarded =
          path.startsWith('/api/admin') ||
          path.startsWith('/api/super-admin') ||
          path.startsWith('/api/slack') ||
          ['/api/auth/session', '/api/auth/logout', '/api/auth/logout-all'].includes(path);
        if (guarded) expect(op.security).toEqual([{ token: [] }]);
        else if (path !== '/api/auth/logout') expect(op.security).toEqual([]);
      }
    }
    const page = await t.http.get('/api/docs/').expect(200);
    expect(page.text).toContain('swagger');
  });
});
