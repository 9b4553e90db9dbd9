import { STORE_MESSAGES, VALID_PRODUCT } from '@studio/contracts';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The online store's address and its public reads (issue 21): anyone may read a store by its
 * slug, never another buyer's data, never another organization's course under this slug, and only
 * at the rate one client address is allowed.
 */
describe('storefront: the store address and the public reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      MEDIA_DIR: `/tmp/studio-media-test-storefront-${process.pid}`,
      PUBLIC_APP_URL: 'https://app.example.test',
      // High enough for the reads below; the rate test has an app of its own.
      PUBLIC_REQUESTS_PER_MINUTE: '10000',
    });
  });
  afterAll(() => t.close());

  const storeOf = async (token: string) =>
    (await t.http.get('/api/admin/org').set('token', token).expect(200)).body;

  it('gives each organization a unique address from its name, and its store URL under PUBLIC_APP_URL', async () => {
    const first = await t.organizationWithUser('owner', 'Kiln & Co.');
    const second = await t.organizationWithUser('owner', 'Kiln & Co.');
    const a = await storeOf(first.token);
    const b = await storeOf(second.token);
    expect(a.slug).toMatch(/^kiln-co(-\d+)?$/);
    expect(b.slug).toMatch(/^kiln-co(-\d+)?$/);
    expect(a.slug).not.toBe(b.slug);
    expect(a).toMatchObject({
      public_url: null,
      store_url: `https://app.example.test/s/${a.slug}`,
      listed_course: false,
    });
    const session = await t.http.get('/api/auth/session').set('token', first.token).expect(200);
    expect(session.body.organization).toMatchObject({ slug: a.slug, store_url: a.store_url });
  });

  it('lets the owner change the address and name the studio’s own site; saved, read back and used', async () => {
    const { token } = await t.organizationWithUser('owner', 'Glass Works');
    const slug = `glass-works-${Date.now()}`;
    const saved = await t.http
      .put('/api/admin/org/store')
      .set('token', token)
      .send({ slug, public_url: 'https://glass.example/shop/' })
      .expect(200);
    expect(saved.body).toMatchObject({
      slug,
      public_url: 'https://glass.example/shop',
      store_url: 'https://glass.example/shop',
      // The overlay still opens this app's pages, and Settings shows where they are.
      app_store_url: `https://app.example.test/s/${slug}`,
    });
    expect(await storeOf(token)).toMatchObject({ slug, store_url: 'https://glass.example/shop' });
    // The public store answers under the new address, and links to the studio's own site.
    const store = await t.http.get(`/api/public/${slug}`).expect(200);
    expect(store.body).toMatchObject({ name: 'Glass Works', slug, store_url: 'https://glass.example/shop' });

    const cleared = await t.http
      .put('/api/admin/org/store')
      .set('token', token)
      .send({ slug, public_url: '' })
      .expect(200);
    expect(cleared.body.store_url).toBe(`https://app.example.test/s/${slug}`);
  });

  it('refuses a taken, malformed or reserved address with what is wrong, and changes nothing', async () => {
    const taken = await t.organizationWithUser('owner', 'Taken Studio');
    const { token } = await t.organizationWithUser('owner', 'Other Studio');
    const before = await storeOf(token);
    const takenSlug = (await storeOf(taken.token)).slug;

    const conflict = await t.http
      .put('/api/admin/org/store')
      .set('token', token)
      .send({ slug: takenSlug })
      .expect(409);
    expect(conflict.body).toEqual({
      statusCode: 409,
      message: STORE_MESSAGES.slugTaken,
      errors: { slug: STORE_MESSAGES.slugTaken },
    });
    for (const [slug, message] of [
      ['Bad Slug', STORE_MESSAGES.slugInvalid],
      ['-x-', STORE_MESSAGES.slugInvalid],
      ['admin', STORE_MESSAGES.slugReserved],
      ['', STORE_MESSAGES.slugRequired],
    ]) {
      const res = await t.http.put('/api/admin/org/store').set('token', token).send({ slug }).expect(400);
      expect(res.body.errors).toEqual({ slug: message });
    }
    const site = await t.http
      .put('/api/admin/org/store')
      .set('token', token)
      .send({ slug: before.slug, public_url: 'javascript:alert(1)' })
      .expect(400);
    expect(site.body.errors).toEqual({ public_url: STORE_MESSAGES.siteUrlInvalid });
    expect(await storeOf(token)).toEqual(before);
  });

  it('lets only an owner change the address', async () => {
    const staff = await t.organizationWithUser('staff', 'Staffed Studio');
    await t.http
      .put('/api/admin/org/store')
      .set('token', staff.token)
      .send({ slug: 'staffed-x' })
      .expect(403);
  });

  it('lists published courses with seats left, never names; listed_course follows', async () => {
    const { token } = await t.organizationWithUser('owner', 'Clay Corner');
    const { slug } = await storeOf(token);
    // A course without sessions is not published yet.
    const course = await schedulableCourse(t, token, 6, {
      name: 'Throwing basics',
      description: 'Center clay. Throw a cylinder.',
    });
    expect((await storeOf(token)).listed_course).toBe(false);
    expect((await t.http.get(`/api/public/${slug}`).expect(200)).body.courses).toEqual([]);

    const later = await scheduleSession(t, token, course, { capacity: 6, daysFromNow: 14, price: 5000 });
    const soon = await scheduleSession(t, token, course, { capacity: 3, daysFromNow: 3, price: 4500 });
    const student = await addStudent(t, token, {
      first_name: 'Private',
      last_name: 'Person',
      email: `private.${Date.now()}@example.test`,
    });
    const enrolled = await t.http
      .post(`/api/admin/orders/enroll/${student}`)
      .set('token', token)
      .send({ event_id: soon })
      .expect(201);
    await t.http
      .put(`/api/admin/enrollment/${enrolled.body.enrollment_id}/guests`)
      .set('token', token)
      .send({ guestCount: 1 })
      .expect(200);
    expect((await storeOf(token)).listed_course).toBe(true);

    const home = await t.http.get(`/api/public/${slug}`).expect(200);
    expect(home.headers['access-control-allow-origin']).toBe('*');
    expect(home.body.courses).toHaveLength(1);
    expect(home.body.courses[0]).toMatchObject({
      activity_id: course.activity_id,
      name: 'Throwing basics',
      location_name: 'Main studio',
      instructor_name: 'Mira',
      url: `https://app.example.test/s/${slug}/activity/${course.activity_id}`,
    });

    const page = await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200);
    expect(page.body.sessions.map((s: { event_id: string }) => s.event_id)).toEqual([soon, later]);
    expect(page.body.sessions[0]).toMatchObject({
      seats_left: 1,
      sold_out: false,
      timezone: 'America/New_York',
      price_cents: 4500,
    });
    expect(page.body.sessions[1]).toMatchObject({ seats_left: 6, sold_out: false, price_cents: 5000 });
    expect(page.body.cancellation_policy.name).toBeTruthy();
    // Nothing in the answer names a buyer.
    const text = JSON.stringify(page.body);
    for (const secret of ['Private', 'Person', student]) expect(text).not.toContain(secret);

    // The last seat taken: sold out.
    const other = await addStudent(t, token);
    await t.http
      .post(`/api/admin/orders/enroll/${other}`)
      .set('token', token)
      .send({ event_id: soon })
      .expect(201);
    const full = await t.http.get(`/api/public/${slug}/activities/${course.activity_id}`).expect(200);
    expect(full.body.sessions[0]).toMatchObject({ seats_left: 0, sold_out: true });
  });

  it('lists published products only, and answers 404 for another organization’s ids under this slug', async () => {
    const a = await t.organizationWithUser('owner', 'Alpha Shop');
    const b = await t.organizationWithUser('owner', 'Beta Shop');
    const slugA = (await storeOf(a.token)).slug;
    const slugB = (await storeOf(b.token)).slug;
    const kit = await t.http
      .post('/api/admin/products')
      .set('token', a.token)
      .send({ ...VALID_PRODUCT })
      .expect(201);
    await t.http
      .post('/api/admin/products')
      .set('token', a.token)
      .send({ ...VALID_PRODUCT, productName: 'Hidden', status: 'draft' })
      .expect(201);
    const courseB = await schedulableCourse(t, b.token);
    await scheduleSession(t, b.token, courseB);

    const store = await t.http.get(`/api/public/${slugA}`).expect(200);
    expect(store.body.products.map((p: { name: string }) => p.name)).toEqual(['Glaze sampler kit']);
    expect(store.body.products[0]).toMatchObject({
      kind: 'oneTime',
      price_cents: 2500,
      renewal_interval_unit: null,
    });
    const productId = kit.body.product_id ?? kit.body.id;
    await t.http.get(`/api/public/${slugA}/products/${productId}`).expect(200);

    // B's course and A's product under the other store: 404, with the store's own words.
    const crossCourse = await t.http
      .get(`/api/public/${slugA}/activities/${courseB.activity_id}`)
      .expect(404);
    expect(crossCourse.body).toEqual({ statusCode: 404, message: STORE_MESSAGES.courseNotFound });
    const crossProduct = await t.http.get(`/api/public/${slugB}/products/${productId}`).expect(404);
    expect(crossProduct.body).toEqual({ statusCode: 404, message: STORE_MESSAGES.productNotFound });
    await t.http.get(`/api/public/${slugB}/activities/${courseB.activity_id}`).expect(200);

    for (const slug of ['no-such-store-here', 'NOT A SLUG', 'x'.repeat(300)]) {
      const res = await t.http.get(`/api/public/${encodeURIComponent(slug)}`).expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: STORE_MESSAGES.storeNotFound });
    }
    await t.http.get(`/api/public/${slugA}/activities/not-a-uuid`).expect(404);
    await t.http.get(`/api/public/${slugA}/products/not-a-uuid`).expect(404);
  });
});

describe('storefront: the rate limit per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_REQUESTS_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the budget, and the admin API is not counted', async () => {
    const { token } = await t.organizationWithUser('owner', 'Busy Studio');
    const slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    for (let i = 0; i < 5; i++) await t.http.get(`/api/public/${slug}`).expect(200);
    const refused = await t.http.get(`/api/public/${slug}`).expect(429);
    expect(refused.body).toEqual({ statusCode: 429, message: STORE_MESSAGES.tooManyRequests });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await t.http.get('/api/admin/org').set('token', token).expect(200);
  });
});
