import { startTestApp, TestApp } from './test-app';

const cookieOf = (res: { headers: Record<string, unknown> }) => {
  const set = res.headers['set-cookie'] as string[] | undefined;
  return (set ?? []).find((c) => c.startsWith('studio_queue_dashboard='));
};

/**
 * The BullMQ dashboard at /api/admin/queues: super admins only, entered through a one-time link
 * that sets an httpOnly cookie scoped to the dashboard; anonymous, owner and reused-link requests
 * are refused; with the in-process queue it says there is no dashboard.
 */
describe('queue dashboard (/api/admin/queues)', () => {
  describe('with BullMQ', () => {
    let t: TestApp;
    let superToken: string;
    let ownerToken: string;
    beforeAll(async () => {
      t = await startTestApp({ QUEUE_MODE: 'redis' });
      superToken = (await t.organizationWithUser('super_admin', 'HQ')).token;
      ownerToken = (await t.organizationWithUser('owner', 'Studio')).token;
    }, 120000);
    afterAll(() => t.close());

    it('refuses an anonymous request and a made-up cookie', async () => {
      expect((await t.http.get('/api/admin/queues').expect(401)).text).not.toContain('<html');
      await t.http.get('/api/admin/queues/api/queues').expect(401);
      await t.http.get('/api/admin/queues').set('cookie', 'studio_queue_dashboard=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa').expect(401);
      await t.http.post('/api/admin/queue-dashboard/link').expect(401);
    });

    it('refuses a link to an owner', async () => {
      await t.http.post('/api/admin/queue-dashboard/link').set('token', ownerToken).expect(403);
    });

    it("opens for a super admin through a one-time link, and the link can't be reused", async () => {
      const link = await t.http.post('/api/admin/queue-dashboard/link').set('token', superToken).expect(200);
      expect(link.body).toEqual({ url: expect.stringMatching(/^\/api\/admin\/queue-dashboard\/enter\?ticket=/), expires_in: 60 });
      const entered = await t.http.get(link.body.url).expect(302);
      expect(entered.headers.location).toBe('/api/admin/queues');
      const cookie = cookieOf(entered)!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/Path=\/api\/admin\/queues/);
      expect(cookie).toMatch(/SameSite=Strict/);
      const session = cookie.split(';')[0];

      const page = await t.http.get('/api/admin/queues').set('cookie', session).expect(200);
      expect(page.text).toContain('<html');
      const queues = await t.http.get('/api/admin/queues/api/queues').set('cookie', session).expect(200);
      expect(queues.body.queues.map((q: { name: string }) => q.name)).toEqual(
        expect.arrayContaining(['sync-eventbrite', 'sync-mailchimp', 'sync-klaviyo', 'sync-zoom']),
      );

      // the link was used up
      await t.http.get(link.body.url).expect(401);
      // signing out ends the dashboard too
      await t.http.post('/api/auth/logout').set('token', superToken);
      await t.http.get('/api/admin/queues').set('cookie', session).expect(401);
    });
  });

  describe('with the in-process queue', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ QUEUE_MODE: 'in-process' });
    }, 120000);
    afterAll(() => t.close());

    it('says there is no dashboard', async () => {
      const { token } = await t.organizationWithUser('super_admin', 'HQ');
      const res = await t.http.post('/api/admin/queue-dashboard/link').set('token', token).expect(503);
      expect(res.body.message).toMatch(/needs Redis/);
    });
  });
});
