import { RequestContext as OrmContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { DATE_TIME_MESSAGES, DISCOUNT_CASE_BASE, DISCOUNT_CASES, DISCOUNT_MESSAGES as M, MESSAGES } from '@studio/contracts';
import { DiscountsService } from '../src/modules/discounts/discounts.service';
import { seedDemoDiscounts } from '../src/seed/demo-discounts';
import { courseRefs, validCourse } from './support/catalog-fixtures';
import { startTestApp, TestApp } from './test-app';

type Row = { id: string; code: string; status: string; times_used: number };

/** Discount codes: the spec 000 §5 rules on the API, the 409 on a taken code, tenancy, the list and the use count. */
describe('discount codes (/api/admin/promo-code)', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string; userId: string; courseId: string };
  let b: { token: string; courseId: string; discountId: string };

  const post = (body: object, token = a.token) => t.http.post('/api/admin/promo-code').set('token', token).send(body);
  const put = (id: string, body: object, token = a.token) => t.http.put(`/api/admin/promo-code/${id}`).set('token', token).send(body);
  const get = (id: string, token = a.token) => t.http.get(`/api/admin/promo-code/${id}`).set('token', token);
  const list = (query = '', token = a.token) => t.http.get(`/api/admin/promo-code${query}`).set('token', token);
  let serial = 0;
  /** A valid payload with a code of its own. */
  const valid = (patch: object = {}) => ({ ...DISCOUNT_CASE_BASE, code: `CODE${++serial}`, ...patch });

  beforeAll(async () => {
    t = await startTestApp({ MEDIA_DIR: `/tmp/studio-media-test-${process.pid}` });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    const refsA = await courseRefs(t, ownerA.token);
    const refsB = await courseRefs(t, ownerB.token);
    const courseA = await t.http
      .post('/api/admin/activities')
      .set('token', ownerA.token)
      .send({ ...validCourse(refsA), name: 'Intro to Wheel Throwing' })
      .expect(201);
    const courseB = await t.http.post('/api/admin/activities').set('token', ownerB.token).send(validCourse(refsB)).expect(201);
    a = { token: ownerA.token, organizationId: ownerA.organization.id, userId: ownerA.user.id, courseId: courseA.body.activity_id };
    const discountB = await post({ ...DISCOUNT_CASE_BASE, code: 'BETA10', activity_id: courseB.body.activity_id }, ownerB.token).expect(201);
    b = { token: ownerB.token, courseId: courseB.body.activity_id, discountId: discountB.body.id };
  }, 120000);
  afterAll(() => t.close());

  describe('rules (the same table as the form schema)', () => {
    it.each(DISCOUNT_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
      const body: Record<string, unknown> = { ...DISCOUNT_CASE_BASE, code: `RULE${++serial}`, ...c.patch };
      const res = await post(body);
      if (Object.keys(c.errors).length === 0) {
        expect(res.status).toBe(201);
        return;
      }
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: MESSAGES.common.validationFailed, errors: c.errors });
    });

    it('refuses the same rules on an edit and changes nothing', async () => {
      const created = await post(valid({ label: 'Before' })).expect(201);
      const res = await put(created.body.id, { ...valid({ label: '' }), type: 'percentage', value: 150 }).expect(400);
      expect(res.body.errors).toEqual({ label: M.labelRequired, value: M.percentageInvalid });
      expect((await get(created.body.id).expect(200)).body.label).toBe('Before');
    });

    it('refuses a field the API does not take (times_used is counted, never written)', async () => {
      const res = await post({ ...valid(), times_used: 99 }).expect(400);
      expect(res.body.errors).toEqual({ times_used: 'Unknown field: times_used' });
    });
  });

  describe('create, read and edit', () => {
    it('creates a percentage code limited to a course and reads back the spec 000 §3 fields', async () => {
      const body = {
        label: 'Wheel week',
        code: 'Wheel20',
        type: 'percentage',
        value: 20,
        activity_id: a.courseId,
        apply_logic: 'each',
        start_date: '2020-11-24T17:00:00.000Z',
        expiration_date: '2099-11-25T04:00:00.000Z',
      };
      const created = await post(body).expect(201);
      const read = await get(created.body.id).expect(200);
      expect(read.body).toEqual({
        id: created.body.id,
        ...body,
        times_used: 0,
        status: 'active',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(created.body).toEqual(read.body);
    });

    it('keeps dollar values in cents and takes dates with an offset as the same instant', async () => {
      const created = await post(
        valid({ type: 'dollar', value: 1250, start_date: '2026-03-08T03:00:00-04:00', expiration_date: null }),
      ).expect(201);
      expect(created.body).toMatchObject({ value: 1250, start_date: '2026-03-08T07:00:00.000Z', expiration_date: null });
    });

    it('reads a date and time without offset in the organization time zone, and reads it back as that instant (issue 19)', async () => {
      // Alpha Ceramics is in America/New_York: noon on 1 March 2027 is 17:00 UTC (EST), noon on 1 July 16:00 UTC (EDT).
      expect((await t.http.get('/api/admin/org').set('token', a.token).expect(200)).body.timezone).toBe('America/New_York');
      const created = await post(valid({ start_date: '2027-03-01T12:00', expiration_date: '2027-07-01T12:00:00' }));
      expect(created.status).toBe(201);
      const read = await get(created.body.id).expect(200);
      expect(read.body).toMatchObject({ start_date: '2027-03-01T17:00:00.000Z', expiration_date: '2027-07-01T16:00:00.000Z' });

      const edited = await put(created.body.id, valid({ code: created.body.code, start_date: '2027-03-14T02:30', expiration_date: null }));
      expect(edited.status).toBe(200);
      // The missing 2:30 AM of the spring-forward day reads as 3:30 AM EDT.
      expect((await get(created.body.id).expect(200)).body).toMatchObject({ start_date: '2027-03-14T07:30:00.000Z', expiration_date: null });
    });

    it('says what is wrong with a malformed date, and keeps "required" for an empty one', async () => {
      const malformed = await post(valid({ start_date: '2027-03-01 12:00', expiration_date: '' })).expect(400);
      expect(malformed.body).toEqual({
        statusCode: 400,
        message: MESSAGES.common.validationFailed,
        errors: { start_date: DATE_TIME_MESSAGES.invalid, expiration_date: M.endDateRequired },
      });
    });

    it('refuses a wall-clock end before an instant start once both are read in the zone, and saves nothing', async () => {
      const before = (await list().expect(200)).body.totalCount;
      // 12:00 in New York is 17:00 UTC: before the 18:00 UTC start.
      const res = await post(valid({ start_date: '2027-03-01T18:00:00Z', expiration_date: '2027-03-01T12:00' })).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: MESSAGES.common.validationFailed, errors: { expiration_date: M.endBeforeStart } });
      expect((await list().expect(200)).body.totalCount).toBe(before);
      await post(valid({ start_date: '2027-03-01T16:00:00Z', expiration_date: '2027-03-01T12:00' })).expect(201);
    });

    it('edits every field, and can lift the course limit and the window', async () => {
      const created = await post(valid({ activity_id: a.courseId })).expect(201);
      const edited = await put(
        created.body.id,
        valid({ label: 'Edited', type: 'dollar', value: 500, activity_id: null, apply_logic: 'each', start_date: null, expiration_date: null }),
      ).expect(200);
      expect(edited.body).toMatchObject({ label: 'Edited', type: 'dollar', value: 500, activity_id: null, apply_logic: 'each', start_date: null, expiration_date: null });
      expect((await get(created.body.id).expect(200)).body).toEqual(edited.body);
    });

    it('answers 404 for an unknown id and for an id that is not an id', async () => {
      expect((await get('7f0c8a0e-0000-4000-8000-000000000000').expect(404)).body).toEqual({ statusCode: 404, message: M.notFound });
      await get('abc').expect(404);
      await put('7f0c8a0e-0000-4000-8000-000000000000', valid()).expect(404);
    });
  });

  describe('codes are unique per organization, whatever their case', () => {
    it('answers 409 with a clear message for the same code in another case, on create and on edit', async () => {
      await post(valid({ code: 'SPRING-SALE' })).expect(201);
      const dup = await post(valid({ code: 'spring-sale' })).expect(409);
      expect(dup.body).toEqual({ statusCode: 409, message: M.codeTaken, errors: { code: M.codeTaken } });
      const other = await post(valid({ code: 'AUTUMN-SALE' })).expect(201);
      const editDup = await put(other.body.id, valid({ code: ' Spring-Sale ' })).expect(409);
      expect(editDup.body.errors).toEqual({ code: M.codeTaken });
      expect((await get(other.body.id)).body.code).toBe('AUTUMN-SALE');
    });

    it('lets a code keep its own code on an edit, in another case too', async () => {
      const created = await post(valid({ code: 'KEEPME' })).expect(201);
      const res = await put(created.body.id, valid({ code: 'keepme' })).expect(200);
      expect(res.body.code).toBe('keepme');
    });

    it('lets another organization use the same code', async () => {
      await post(valid({ code: 'SHARED' })).expect(201);
      await post(valid({ code: 'shared' }), b.token).expect(201);
    });

    it('answers one 201 and 409s to concurrent creations of the same code (the unique index decides)', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => post(valid({ code: i % 2 ? 'RACE' : 'race' }))));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    });
  });

  describe('tenancy', () => {
    it("answers 404 for another organization's discount: read, edit", async () => {
      expect((await get(b.discountId).expect(404)).body).toEqual({ statusCode: 404, message: M.notFound });
      await put(b.discountId, valid()).expect(404);
      expect((await get(b.discountId, b.token).expect(200)).body.code).toBe('BETA10');
    });

    it("answers 404 for a discount limited to another organization's course, on create and on edit", async () => {
      const res = await post(valid({ activity_id: b.courseId })).expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: M.courseNotFound });
      const mine = await post(valid()).expect(201);
      await put(mine.body.id, valid({ activity_id: b.courseId })).expect(404);
      expect((await get(mine.body.id)).body.activity_id).toBeNull();
      await post(valid({ activity_id: '7f0c8a0e-0000-4000-8000-000000000000' })).expect(404);
    });

    it("never lists another organization's codes", async () => {
      const res = await list('?limit=100').expect(200);
      expect(res.body.promo_codes.map((r: Row) => r.code)).not.toContain('BETA10');
    });
  });

  describe('GET /api/admin/promo-code', () => {
    let fresh: TestApp['http'];
    let token: string;
    beforeAll(async () => {
      const owner = await t.organizationWithUser('owner', 'Gamma Wood');
      token = owner.token;
      fresh = t.http;
      const now = Date.now();
      const day = 24 * 3600 * 1000;
      const iso = (ms: number) => new Date(ms).toISOString();
      const rows = [
        { code: 'PAST', start_date: iso(now - 30 * day), expiration_date: iso(now - day) },
        { code: 'NOW', start_date: iso(now - day), expiration_date: iso(now + day) },
        { code: 'LATER', start_date: iso(now + day), expiration_date: iso(now + 30 * day) },
        { code: 'OPEN', start_date: null, expiration_date: null, label: '50% off kilns' },
      ];
      for (const row of rows) await post({ ...DISCOUNT_CASE_BASE, label: `Label ${row.code}`, ...row }, token).expect(201);
      for (let i = 1; i <= 21; i++) await post({ ...DISCOUNT_CASE_BASE, code: `BULK${String(i).padStart(2, '0')}`, start_date: null, expiration_date: null }, token).expect(201);
    });
    const page = (query: string) => fresh.get(`/api/admin/promo-code${query}`).set('token', token);

    it('computes each status from now: scheduled, active, expired', async () => {
      const res = await page('?limit=100').expect(200);
      const rows = (res.body.promo_codes as Row[]).filter((r) => !r.code.startsWith('BULK'));
      const status = Object.fromEntries(rows.map((r) => [r.code, r.status]));
      expect(status).toEqual({ PAST: 'expired', NOW: 'active', LATER: 'scheduled', OPEN: 'active' });
    });

    it('pages newest first (20 by default) with totalCount, currentPage and itemsPerPage', async () => {
      const first = await page('').expect(200);
      expect(first.body).toMatchObject({ totalCount: 25, currentPage: 1, itemsPerPage: 20 });
      expect(first.body.promo_codes).toHaveLength(20);
      expect(first.body.promo_codes[0].code).toBe('BULK21');
      const second = await page('?page=2').expect(200);
      expect(second.body.promo_codes.map((r: Row) => r.code)).toEqual(['BULK01', 'OPEN', 'LATER', 'NOW', 'PAST']);
      const small = await page('?page=3&limit=10').expect(200);
      expect(small.body.promo_codes).toHaveLength(5);
      expect((await page('?page=9').expect(200)).body.promo_codes).toEqual([]);
    });

    it('searches any part of the code or the label, whatever the case, and wildcards are text', async () => {
      expect((await page('?search=bulk1').expect(200)).body.totalCount).toBe(10);
      expect((await page('?search=KILNS').expect(200)).body.promo_codes.map((r: Row) => r.code)).toEqual(['OPEN']);
      expect((await page('?search=50%25').expect(200)).body.promo_codes.map((r: Row) => r.code)).toEqual(['OPEN']);
      expect((await page('?search=_').expect(200)).body.totalCount).toBe(0);
    });

    it('answers 400 with a message for a bad page, limit or search', async () => {
      expect((await page('?page=0').expect(400)).body.errors).toEqual({ page: M.page });
      expect((await page('?limit=101').expect(400)).body.errors).toEqual({ limit: M.limit });
      expect((await page(`?search=${'x'.repeat(201)}`).expect(400)).body.errors).toEqual({ search: M.search });
    });

    it('shows the times used', async () => {
      const res = await page('?search=NOW').expect(200);
      expect(res.body.promo_codes[0].times_used).toBe(0);
    });
  });

  describe('times used: DiscountsService.incrementUsage (for paid orders, next issue)', () => {
    const service = () => t.created.app.get(DiscountsService);
    const inContext = <T>(fn: () => Promise<T>) => OrmContext.create(t.created.app.get(EntityManager), fn);

    it('counts 25 concurrent uses without losing one', async () => {
      const created = await post(valid()).expect(201);
      const counts = await Promise.all(
        Array.from({ length: 25 }, () => inContext(() => service().incrementUsage({ organizationId: a.organizationId }, created.body.id))),
      );
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect((await get(created.body.id).expect(200)).body.times_used).toBe(25);
      const row = (await list(`?search=${created.body.code}`).expect(200)).body.promo_codes[0];
      expect(row.times_used).toBe(25);
    });

    it("refuses another organization's code and leaves its count alone", async () => {
      await expect(inContext(() => service().incrementUsage({ organizationId: a.organizationId }, b.discountId))).rejects.toMatchObject({
        status: 404,
      });
      expect((await get(b.discountId, b.token)).body.times_used).toBe(0);
    });

    it('an edit keeps the count', async () => {
      const created = await post(valid()).expect(201);
      await inContext(() => service().incrementUsage({ organizationId: a.organizationId }, created.body.id));
      const edited = await put(created.body.id, valid({ label: 'Renamed' })).expect(200);
      expect(edited.body.times_used).toBe(1);
    });
  });

  describe('demo data', () => {
    it('seeds codes in every state: scheduled, active, expired, limited to a course, once and each', async () => {
      const owner = await t.organizationWithUser('owner', 'Demo-like Studio');
      const refs = await courseRefs(t, owner.token);
      const course = await t.http
        .post('/api/admin/activities')
        .set('token', owner.token)
        .send({ ...validCourse(refs), name: 'Intro to Wheel Throwing' })
        .expect(201);
      await t.withEm(() =>
        seedDemoDiscounts(
          t.created.app,
          { organizationId: owner.organization.id, userId: owner.user.id, role: 'owner', sessionId: 'seed' },
          'America/New_York',
        ),
      );
      const rows = (await list('?limit=100', owner.token).expect(200)).body.promo_codes as (Row & {
        activity_id: string | null;
        apply_logic: string;
      })[];
      expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['scheduled', 'active', 'expired']));
      expect(rows.filter((r) => r.activity_id === course.body.activity_id)).toHaveLength(1);
      expect(new Set(rows.map((r) => r.apply_logic))).toEqual(new Set(['once', 'each']));
      expect(rows.some((r) => r.times_used > 0)).toBe(true);
    });
  });

  it('needs a signed-in caller', async () => {
    await t.http.get('/api/admin/promo-code').expect(401);
    await t.http.post('/api/admin/promo-code').send(valid()).expect(401);
  });
});
