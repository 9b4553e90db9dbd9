import { UsersService } from '../src/modules/identity/users.service';
import { LoyaltyService } from '../src/modules/loyalty/loyalty.service';
import { startTestApp, TestApp, TEST_PASSWORD } from './test-app';

/** The loyalty programme (spec 000 §3, §4, §9): one per organization, turned on and off by the owner. */
describe('loyalty programme', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string };
  let b: { token: string; organizationId: string };

  beforeAll(async () => {
    t = await startTestApp();
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id };
  });
  afterAll(() => t.close());

  const read = (token: string) => t.http.get('/api/admin/loyalty-program').set('token', token);
  const put = (token: string, body: object) =>
    t.http.put('/api/admin/loyalty-program').set('token', token).send(body);

  it('an organization that never set one up reads as disabled, in points', async () => {
    expect((await read(a.token).expect(200)).body).toEqual({ status: 'disabled', unit: 'points' });
  });

  it('the owner enables it; it reads back active, and only in that organization', async () => {
    expect((await put(a.token, { status: 'active' }).expect(200)).body).toEqual({
      status: 'active',
      unit: 'points',
    });
    expect((await read(a.token).expect(200)).body).toEqual({ status: 'active', unit: 'points' });
    expect((await read(b.token).expect(200)).body.status).toBe('disabled');
    await expect(t.created.app.get(LoyaltyService).isActive(a.organizationId)).resolves.toBe(true);
    await expect(t.created.app.get(LoyaltyService).isActive(b.organizationId)).resolves.toBe(false);
  });

  it('disabling keeps one programme row and reads back disabled', async () => {
    await put(a.token, { status: 'disabled' }).expect(200);
    await put(a.token, { status: 'disabled' }).expect(200);
    expect((await read(a.token).expect(200)).body.status).toBe('disabled');
    const rows = await t.withEm((em) =>
      em
        .getConnection()
        .execute('select count(*)::int as n from loyalty_program where organization_id = ?', [
          a.organizationId,
        ]),
    );
    expect(rows[0].n).toBe(1);
  });

  it('concurrent switches never make a second row', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        put(b.token, { status: i % 2 ? 'active' : 'disabled' }).expect(200),
      ),
    );
    const rows = await t.withEm((em) =>
      em
        .getConnection()
        .execute('select count(*)::int as n from loyalty_program where organization_id = ?', [
          b.organizationId,
        ]),
    );
    expect(rows[0].n).toBe(1);
  });

  it('refuses any other status or extra field with 400, and changes nothing', async () => {
    await put(a.token, { status: 'active' }).expect(200);
    for (const body of [{ status: 'paused' }, { status: 'active', unit: 'stars' }, {}, { status: null }]) {
      const res = await put(a.token, body).expect(400);
      expect(res.body.statusCode).toBe(400);
    }
    expect((await read(a.token).expect(200)).body.status).toBe('active');
  });

  it('staff may read it but not change it', async () => {
    const staff = await t.withEm(() =>
      t.created.app.get(UsersService).create({
        email: `staff.loyalty.${Date.now()}@example.test`,
        password: TEST_PASSWORD,
        role: 'staff',
        organizationId: a.organizationId,
        firstName: 'Sam',
        lastName: 'Staff',
      }),
    );
    const token = await t.login(staff.email);
    expect((await read(token).expect(200)).body.status).toBe('active');
    await put(token, { status: 'disabled' }).expect(403);
    expect((await read(a.token).expect(200)).body.status).toBe('active');
  });

  it('needs a signed-in caller', async () => {
    await t.http.get('/api/admin/loyalty-program').expect(401);
    await t.http.put('/api/admin/loyalty-program').send({ status: 'active' }).expect(401);
  });
});
