import { startTestApp, TestApp } from './test-app';

/** Whatever a client sends, the answer is never a 500. */
describe('client mistakes never answer 500', () => {
  let t: TestApp;
  let token: string;
  let superToken: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.organizationWithUser('owner')).token;
    superToken = (await t.organizationWithUser('super_admin')).token;
  });
  afterAll(() => t.close());

  const bodies: unknown[] = [null, [], [1, 2], 'text', 42, true, { email: 5, password: [] }, { org_id: 'x' }, { org_id: null }, { email: 'a'.repeat(5000) + '@x.co', password: 'p' }];
  const raw = ['{', '{"a":}', 'null', '[]', '\u0000', '"str"'];

  it.each([
    ['post', '/api/auth/login', false],
    ['put', '/api/super-admin/user', true],
    ['post', '/api/auth/logout', false],
    ['get', '/api/admin/users/%00', false],
  ] as const)('%s %s', async (method, path, asSuper) => {
    const auth = asSuper ? superToken : token;
    for (const body of bodies) {
      const res = await t.http[method](path)
        .set('token', auth)
        .set('content-type', 'application/json')
        .send(JSON.stringify(body));
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(res.body).toEqual(expect.objectContaining({ statusCode: res.status }));
    }
    for (const text of raw) {
      const res = await t.http[method](path).set('token', auth).set('content-type', 'application/json').send(text);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('answers 404 in the error shape for unknown API paths', async () => {
    const res = await t.http.get('/api/admin/nothing-here').set('token', token);
    expect(res.status).toBe(404);
    expect(res.body.statusCode).toBe(404);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const res = await t.http
      .post('/api/auth/login')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1_100_000) }));
    expect(res.status).toBe(413);
  });
});
