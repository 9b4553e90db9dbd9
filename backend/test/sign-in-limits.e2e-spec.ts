import { MESSAGES } from '@studio/contracts';
import type { Response } from 'supertest';
import { startTestApp, TestApp, TEST_PASSWORD } from './test-app';

/** The device cookie a sign-in answered, as a Cookie request header. */
function deviceCookie(res: Response): string {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = raw?.find((c) => c.startsWith('studio_device='));
  if (!cookie) throw new Error('no device cookie in the sign-in answer');
  return cookie.split(';')[0];
}

describe.each([
  ['counted in Redis', 'auto'],
  ['counted in memory (no Redis)', 'in-process'],
])('sign-in limits: a parallel burst, %s', (_store, queueMode) => {
  let t: TestApp;
  beforeAll(async () => {
    // The address budget is out of the way here: this is about the account's.
    t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_EMAIL: '10', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000', QUEUE_MODE: queueMode });
  });
  afterAll(() => t.close());

  it('checks at most the limit of 40 parallel wrong passwords, then refuses the right one from an unknown device', async () => {
    const { user } = await t.organizationWithUser();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.http.post('/api/auth/login').send({ email: user.email, password: `wrong-${i}` })),
    );
    const checked = burst.filter((r) => r.status === 401).length;
    const refused = burst.filter((r) => r.status === 429).length;
    console.log(`parallel burst of 40 wrong passwords: ${checked} checked (401), ${refused} refused (429)`);
    expect(checked + refused).toBe(40);
    expect(checked).toBeLessThanOrEqual(10);
    expect(burst.find((r) => r.status === 429)?.body).toEqual({ statusCode: 429, message: MESSAGES.auth.tooManyAttempts });

    const right = await t.http.post('/api/auth/login').send({ email: user.email, password: TEST_PASSWORD });
    expect(right.status).toBe(429);
  });
});

describe('sign-in limits: an account under attack from many addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      LOGIN_MAX_ATTEMPTS_PER_EMAIL: '10',
      LOGIN_MAX_ATTEMPTS_PER_DEVICE: '10',
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '5',
      // supertest connects from 127.0.0.1: acting as the proxy, it says which address each request is from.
      TRUSTED_PROXIES: 'loopback',
    });
  });
  afterAll(() => t.close());

  const loginFrom = (address: string, email: string, password: string, cookie?: string) => {
    const req = t.http.post('/api/auth/login').set('X-Forwarded-For', address);
    if (cookie) req.set('Cookie', cookie);
    return req.send({ email, password });
  };

  it('10 addresses cannot lock the owner out of the browser they signed in with before', async () => {
    const { user } = await t.organizationWithUser();
    const first = await loginFrom('198.51.100.7', user.email, TEST_PASSWORD).expect(200);
    const cookie = deviceCookie(first);
    expect(first.headers['set-cookie']?.[0]).toMatch(/HttpOnly/i);
    expect(first.headers['set-cookie']?.[0]).toMatch(/SameSite=Strict/i);

    for (let i = 1; i <= 10; i++) {
      await loginFrom(`203.0.113.${i}`, user.email, `guess-${i}`).expect(401);
    }
    // The account's budget for unknown devices is spent: an eleventh address, even with the right password, is refused.
    await loginFrom('203.0.113.11', user.email, TEST_PASSWORD).expect(429);
    // The owner's browser has a budget of its own: it signs in, from home or from anywhere else.
    await loginFrom('198.51.100.7', user.email, TEST_PASSWORD, cookie).expect(200);
    await loginFrom('192.0.2.44', user.email, TEST_PASSWORD, cookie).expect(200);
  });

  it("a device cookie of another account is an unknown device for this one", async () => {
    const attacker = await t.organizationWithUser();
    const victim = await t.organizationWithUser();
    const attackerCookie = deviceCookie(await loginFrom('203.0.113.80', attacker.user.email, TEST_PASSWORD).expect(200));
    for (let i = 0; i < 10; i++) {
      await loginFrom(`203.0.113.${81 + i}`, victim.user.email, `guess-${i}`, attackerCookie).expect(401);
    }
    // Those guesses spent the victim's unknown-device budget, not a budget of the attacker's browser.
    await loginFrom('203.0.113.99', victim.user.email, TEST_PASSWORD).expect(429);
  });

  it('keeps the 20 most recent known devices of an account', async () => {
    const { user } = await t.organizationWithUser();
    const cookies: string[] = [];
    for (let i = 0; i < 22; i++) cookies.push(deviceCookie(await loginFrom('198.51.100.20', user.email, TEST_PASSWORD).expect(200)));
    expect(new Set(cookies).size).toBe(22);
    // Signing in again with a cookie keeps it (no new device).
    expect(deviceCookie(await loginFrom('198.51.100.20', user.email, TEST_PASSWORD, cookies[21]).expect(200))).toBe(cookies[21]);
    const rows = await t.withEm((em) => em.getConnection().execute('select count(*)::int as n from known_device where user_id = ?', [user.id]));
    expect(rows[0].n).toBe(20);
  });

  it("an attacker's own successful sign-in does not reset its address's failures", async () => {
    const { user: own } = await t.organizationWithUser();
    const address = '203.0.113.50';
    for (let i = 0; i < 4; i++) await loginFrom(address, `nobody${i}@example.test`, 'guess').expect(401);
    await loginFrom(address, own.email, TEST_PASSWORD).expect(200);
    // The success gave back only its own attempt: one failure left of the five, then refused.
    await loginFrom(address, 'nobody5@example.test', 'guess').expect(401);
    const refused = await loginFrom(address, 'nobody6@example.test', 'guess');
    expect(refused.status).toBe(429);
    // Other addresses are not affected.
    await loginFrom('203.0.113.51', own.email, TEST_PASSWORD).expect(200);
  });
});

describe('sign-in limits: X-Forwarded-For from an untrusted peer', () => {
  let t: TestApp;
  beforeAll(async () => {
    // TRUSTED_PROXIES unset: no proxy is believed.
    t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '3' });
  });
  afterAll(() => t.close());

  it('counts the TCP peer, whatever address the request claims', async () => {
    for (let i = 1; i <= 3; i++) {
      await t.http
        .post('/api/auth/login')
        .set('X-Forwarded-For', `198.51.100.${i}`)
        .send({ email: `nobody${i}@example.test`, password: 'guess' })
        .expect(401);
    }
    const spoofed = await t.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', '198.51.100.200')
      .send({ email: 'nobody4@example.test', password: 'guess' });
    expect(spoofed.status).toBe(429);
  });
});
