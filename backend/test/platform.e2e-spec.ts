import { startTestApp, TestApp } from './test-app';

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
    // Every route the API really serves (read off Express's router), not a hand-kept list.
    type Layer = { route?: { path: string; methods: Record<string, boolean> } };
    const stack = t.created.app.getHttpAdapter().getInstance().router.stack as unknown as Layer[];
    const expected = stack
      .filter(
        (layer) =>
          layer.route?.path.startsWith('/api/') &&
          !layer.route.path.startsWith('/api/docs') &&
          // The queue dashboard's browser entry (a one-time ticket traded for a cookie, then a
          // redirect): not an API call, so not in the document.
          layer.route.path !== '/api/admin/queue-dashboard/enter' &&
          !layer.route.path.includes('*'),
      )
      .flatMap((layer) =>
        Object.keys(layer.route!.methods).map((m) => `${m} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`),
      );
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
        // Documented on each operation (nothing is added to every operation by the document builder):
        // a JSON body can be invalid or too large, a query invalid, and a path id unknown.
        const params = (op.parameters ?? []) as { in: string }[];
        if (op.requestBody && !path.endsWith('/upload'))
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '413']));
        if (params.some((p) => p.in === 'query')) expect(op.responses['400']).toBeDefined();
        if (params.some((p) => p.in === 'path')) expect(op.responses['404']).toBeDefined();
        // Bodiless actions: sign out, ask the provider for a page to save a card on, retry a failed
        // sync, mark a ticketing conflict resolved, and ask for a queue dashboard link.
        const bodiless = [
          '/api/auth/logout',
          '/api/auth/logout-all',
          '/api/admin/payment-methods/setup',
          '/api/admin/sync/mappings/{mapping_id}/retry',
          '/api/admin/sync/conflicts/{conflict_id}/resolve',
          '/api/admin/queue-dashboard/link',
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
