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
    const expected = [
      'post /api/auth/login',
      'post /api/auth/logout',
      'get /api/auth/session',
      'get /api/admin/org',
      'get /api/admin/users',
      'get /api/admin/users/{user_id}',
      'get /api/super-admin/user',
      'put /api/super-admin/user',
      'get /api/super-admin/organization',
      'get /api/health',
      'get /api/admin/activities',
      'post /api/admin/activities',
      'get /api/admin/activities/{activity_id}',
      'put /api/admin/activities/{activity_id}',
      'get /api/admin/activities/{activity_id}/sessions',
      'get /api/admin/location',
      'post /api/admin/location',
      'put /api/admin/location/{location_id}',
      'get /api/admin/instructor',
      'post /api/admin/instructor',
      'put /api/admin/instructor/{instructor_id}',
      'get /api/admin/waiver',
      'post /api/admin/waiver',
      'get /api/admin/waiver/{template_id}',
      'get /api/admin/policies',
      'post /api/admin/upload',
      'get /api/media/{org}/{file}',
      'post /api/slack-alert',
      'post /api/slack-alert-new-course',
    ];
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(documented.sort()).toEqual(expected.sort());
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }>; requestBody?: unknown; parameters?: unknown[]; security?: unknown }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const ok = op.responses['200'] ?? op.responses['201'] ?? op.responses['202'] ?? op.responses['204'];
        expect(ok).toBeDefined();
        if (!op.responses['204']) expect(Object.values(ok.content ?? {})[0]).toHaveProperty('schema');
        if (op.requestBody || op.parameters?.length) expect(op.responses['400']).toBeDefined();
        if (['post', 'put'].includes(method) && path !== '/api/auth/logout') expect(op.requestBody).toBeDefined();
        const guarded =
          path.startsWith('/api/admin') || path.startsWith('/api/super-admin') || path.startsWith('/api/slack') || path === '/api/auth/session';
        if (guarded) expect(op.security).toEqual([{ token: [] }]);
      }
    }
    const page = await t.http.get('/api/docs/').expect(200);
    expect(page.text).toContain('swagger');
  });
});
