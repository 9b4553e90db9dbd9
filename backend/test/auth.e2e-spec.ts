import { MESSAGES } from '@studio/contracts';
import { startTestApp, TestApp, TEST_PASSWORD } from './test-app';
import { SESSION_CACHE_TTL_MS } from '../src/modules/identity/session-cache';

describe('sign-in and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_EMAIL: '3' });
  });
  afterAll(() => t.close());

  it('signs in, answers the session, and signs out', async () => {
    const { user, organization } = await t.organizationWithUser('owner', 'Clay Studio');
    const login = await t.http.post('/api/auth/login').send({ email: user.email.toUpperCase(), password: TEST_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.body.user).toMatchObject({ email: user.email, role: 'owner', organization_id: organization.id });
    expect(login.body.user.password_hash).toBeUndefined();

    const token = login.body.token as string;
    const session = await t.http.get('/api/auth/session').set('token', token).expect(200);
    expect(session.body.organization).toMatchObject({
      organization_id: organization.id,
      name: 'Clay Studio',
      timezone: 'America/New_York',
      listed_course: false,
    });

    await t.http.post('/api/auth/logout').set('token', token).expect(204);
    const after = await t.http.get('/api/auth/session').set('token', token).expect(401);
    expect(after.body).toEqual({ statusCode: 401, message: MESSAGES.auth.unauthorized });
  });

  it('signing out revokes that session only', async () => {
    const { user, token: first } = await t.organizationWithUser();
    const second = await t.login(user.email);
    await t.http.post('/api/auth/logout').set('token', first).expect(204);
    await t.http.get('/api/auth/session').set('token', first).expect(401);
    await t.http.get('/api/auth/session').set('token', second).expect(200);
    const rows = await t.withEm((em) =>
      em.getConnection().execute('select revoked_at from auth_session where user_id = ? order by created_at', [user.id]),
    );
    expect(rows.map((r) => r.revoked_at !== null)).toEqual([true, false]);
  });

  it("sign out everywhere revokes every session of the account, and no other account's", async () => {
    const { user, token: first } = await t.organizationWithUser();
    const second = await t.login(user.email);
    const third = await t.login(user.email);
    const other = await t.organizationWithUser();
    await t.http.post('/api/auth/logout-all').expect(401);
    await t.http.post('/api/auth/logout-all').set('token', second).expect(204);
    for (const token of [first, second, third]) {
      const res = await t.http.get('/api/auth/session').set('token', token);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(MESSAGES.auth.unauthorized);
    }
    await t.http.get('/api/auth/session').set('token', other.token).expect(200);
    // Signing in again works as before.
    await t.http.get('/api/auth/session').set('token', await t.login(user.email)).expect(200);
  });

  it("applies a super admin's organization switch to that session only", async () => {
    const admin = await t.organizationWithUser('super_admin', 'Home Studio');
    const elsewhere = await t.organizationWithUser('owner', 'Elsewhere Studio');
    const otherBrowser = await t.login(admin.user.email);
    const switched = await t.http.put('/api/super-admin/user').set('token', admin.token).send({ org_id: elsewhere.organization.id }).expect(200);
    expect(switched.body.organization_id).toBe(elsewhere.organization.id);

    const here = await t.http.get('/api/auth/session').set('token', admin.token).expect(200);
    expect(here.body.organization).toMatchObject({ organization_id: elsewhere.organization.id, name: 'Elsewhere Studio' });
    expect(here.body.user.organization_id).toBe(elsewhere.organization.id);
    expect((await t.http.get('/api/admin/org').set('token', admin.token)).body.name).toBe('Elsewhere Studio');

    const there = await t.http.get('/api/auth/session').set('token', otherBrowser).expect(200);
    expect(there.body.organization).toMatchObject({ organization_id: admin.organization.id, name: 'Home Studio' });
    expect((await t.http.get('/api/super-admin/user').set('token', otherBrowser)).body.organization_id).toBe(admin.organization.id);
    expect((await t.http.get('/api/admin/org').set('token', otherBrowser)).body.name).toBe('Home Studio');
    // A new sign-in starts in the super admin's own organization.
    const fresh = await t.login(admin.user.email);
    expect((await t.http.get('/api/admin/org').set('token', fresh)).body.name).toBe('Home Studio');
  });

  it('stores only a hash of the token', async () => {
    const { token } = await t.organizationWithUser();
    const rows = await t.withEm((em) => em.getConnection().execute('select token_hash from auth_session'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('answers 401 without a token, with an unknown one, and with an expired one', async () => {
    await t.http.get('/api/admin/org').expect(401);
    await t.http.get('/api/admin/org').set('token', 'not-a-token').expect(401);
    const { token, user } = await t.organizationWithUser();
    await t.http.get('/api/admin/org').set('token', token).expect(200);
    await t.withEm((em) =>
      em.getConnection().execute(`update auth_session set expires_at = now() - interval '1 second' where user_id = ?`, [user.id]),
    );
    // A session ended behind the API's back (here, in SQL) stops working once the token cache forgets it.
    t.clock.advance(SESSION_CACHE_TTL_MS + 100);
    const res = await t.http.get('/api/admin/org').set('token', token).expect(401);
    expect(res.body.message).toBe(MESSAGES.auth.unauthorized);
  });

  it('gives one message for a wrong password and an unknown email', async () => {
    const { user } = await t.organizationWithUser();
    const wrongPassword = await t.http.post('/api/auth/login').send({ email: user.email, password: 'nope' });
    const unknownEmail = await t.http.post('/api/auth/login').send({ email: 'nobody@example.test', password: 'nope' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ statusCode: 401, message: MESSAGES.auth.invalidCredentials });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('refuses further attempts on an email after too many failures, even with the right password', async () => {
    const { user } = await t.organizationWithUser();
    for (let i = 0; i < 3; i++) {
      await t.http.post('/api/auth/login').send({ email: user.email, password: `wrong-${i}` }).expect(401);
    }
    const blocked = await t.http.post('/api/auth/login').send({ email: user.email, password: TEST_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe(MESSAGES.auth.tooManyAttempts);
  });

  it('validates the sign-in body with field messages', async () => {
    const empty = await t.http.post('/api/auth/login').send({});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ email: MESSAGES.auth.emailRequired, password: MESSAGES.auth.passwordRequired });

    const badEmail = await t.http.post('/api/auth/login').send({ email: 'not-an-email', password: 'x' });
    expect(badEmail.body.errors).toEqual({ email: MESSAGES.auth.emailInvalid });

    const extra = await t.http.post('/api/auth/login').send({ email: 'a@b.co', password: 'x', admin: true });
    expect(extra.status).toBe(400);
    expect(extra.body.errors).toEqual({ admin: 'Unknown field: admin' });
  });

  it('answers a malformed JSON body with 400', async () => {
    const res = await t.http.post('/api/auth/login').set('content-type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: MESSAGES.common.malformedJson });
  });
});
