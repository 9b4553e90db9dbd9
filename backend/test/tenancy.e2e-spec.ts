import { MESSAGES } from '@studio/contracts';
import { startTestApp, TestApp } from './test-app';

describe('tenancy and roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('acts inside the caller’s organization', async () => {
    const a = await t.organizationWithUser('owner', 'Alpha Ceramics');
    await t.organizationWithUser('owner', 'Beta Glass');
    const org = await t.http.get('/api/admin/org').set('token', a.token).expect(200);
    expect(org.body).toEqual({
      name: 'Alpha Ceramics',
      timezone: 'America/New_York',
      listed_course: false,
      slug: expect.stringMatching(/^alpha-ceramics(-\d+)?$/),
      public_url: null,
      store_url: expect.stringMatching(/\/s\/alpha-ceramics(-\d+)?$/),
      app_store_url: expect.stringMatching(/\/s\/alpha-ceramics(-\d+)?$/),
      reminder_offsets_mins: [1440],
      waitlist_claim_hours: 12,
    });

    const team = await t.http.get('/api/admin/users').set('token', a.token).expect(200);
    expect(team.body.users.map((u: { user_id: string }) => u.user_id)).toEqual([a.user.id]);
    await t.http.get(`/api/admin/users/${a.user.id}`).set('token', a.token).expect(200);
  });

  it('answers 404 for another organization’s row and for ids that are not ids', async () => {
    const a = await t.organizationWithUser('owner');
    const b = await t.organizationWithUser('staff');
    const res = await t.http.get(`/api/admin/users/${b.user.id}`).set('token', a.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'User not found' });
    await t.http.get('/api/admin/users/123').set('token', a.token).expect(404);
  });

  it.each(['owner', 'staff'] as const)('refuses the super admin calls to a %s with 403', async (role) => {
    const { token, organization } = await t.organizationWithUser(role);
    for (const call of [
      t.http.get('/api/super-admin/user').set('token', token),
      t.http.get('/api/super-admin/organization').set('token', token),
      t.http.put('/api/super-admin/user').set('token', token).send({ org_id: organization.id }),
    ]) {
      const res = await call;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ statusCode: 403, message: MESSAGES.auth.forbidden });
    }
  });

  it('lets a super admin list organizations by name and switch between them', async () => {
    const zed = await t.organizationWithUser('owner', 'Zed Woodshop');
    const admin = await t.organizationWithUser('super_admin', 'Aardvark Leather');
    const list = await t.http.get('/api/super-admin/organization').set('token', admin.token).expect(200);
    const names: string[] = list.body.organizations.map((o: { name: string }) => o.name);
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));
    expect(names).toEqual(expect.arrayContaining(['Zed Woodshop', 'Aardvark Leather']));

    const me = await t.http.get('/api/super-admin/user').set('token', admin.token).expect(200);
    expect(me.body).toMatchObject({ role: 'super_admin', organization_id: admin.organization.id });

    const switched = await t.http
      .put('/api/super-admin/user')
      .set('token', admin.token)
      .send({ org_id: zed.organization.id })
      .expect(200);
    expect(switched.body.organization_id).toBe(zed.organization.id);
    const org = await t.http.get('/api/admin/org').set('token', admin.token).expect(200);
    expect(org.body.name).toBe('Zed Woodshop');
    const team = await t.http.get(`/api/admin/users/${zed.user.id}`).set('token', admin.token);
    expect(team.status).toBe(200);
  });

  it('validates the switch body and refuses an unknown organization', async () => {
    const admin = await t.organizationWithUser('super_admin');
    const missing = await t.http.put('/api/super-admin/user').set('token', admin.token).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ org_id: MESSAGES.superAdmin.organizationRequired });
    const unknown = await t.http
      .put('/api/super-admin/user')
      .set('token', admin.token)
      .send({ org_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    const org = await t.http.get('/api/admin/org').set('token', admin.token).expect(200);
    expect(org.body.name).toBe(admin.organization.name);
  });
});
