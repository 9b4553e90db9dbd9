import { MESSAGES } from '@studio/contracts';
import { startTestApp, TestApp, TEST_PASSWORD } from './test-app';

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
