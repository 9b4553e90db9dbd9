import { PRODUCT_CASES, PRODUCT_LIST_MESSAGES, PRODUCT_MESSAGES as M, VALID_PRODUCT } from '@studio/contracts';
import { tinyPng } from './support/images';
import { startTestApp, TestApp } from './test-app';

type ProductRow = { product_id: string; name: string; image: string | null; unit_price: number; category: string };

async function upload(t: TestApp, token: string, name = 'kit.png'): Promise<string> {
  const res = await t.http.post('/api/admin/upload').set('token', token).attach('file', tinyPng(), name).expect(200);
  return res.body.url as string;
}

/** Products (spec 000 §3, §5, §8; spec 001 §7): rules, price history, list, tenancy. */
describe('products', () => {
  let t: TestApp;
  let a: { token: string; image: string };
  let b: { token: string; image: string };

  beforeAll(async () => {
    t = await startTestApp({ MEDIA_DIR: `/tmp/studio-media-test-products-${process.pid}` });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, image: await upload(t, ownerA.token) };
    b = { token: ownerB.token, image: await upload(t, ownerB.token) };
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>, token = a.token) =>
    t.http.post('/api/admin/products').set('token', token).send(body);
  const get = (id: string, token = a.token) => t.http.get(`/api/admin/products/${id}`).set('token', token);
  const put = (id: string, body: Record<string, unknown>, token = a.token) =>
    t.http.put(`/api/admin/products/${id}`).set('token', token).send(body);
  const valid = () => ({ ...VALID_PRODUCT, images: [a.image] });

  describe('every rule of spec 000 §5, with the form’s messages', () => {
    it.each(PRODUCT_CASES)('$name', async ({ patch, errors }) => {
      const body = { ...valid(), ...patch };
      // The "eleven images" case names images that do not exist: the schema refuses the count first.
      const res = await create(body);
      if (Object.keys(errors).length === 0) {
        expect(res.status).toBe(201);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual(errors);
      }
    });

    it('a refused product changes nothing', async () => {
      const before = (await t.http.get('/api/admin/products').set('token', a.token).expect(200)).body.totalCount;
      await create({ ...valid(), productName: '' }).expect(400);
      const after = (await t.http.get('/api/admin/products').set('token', a.token).expect(200)).body.totalCount;
      expect(after).toBe(before);
    });
  });

  describe('creating and reading', () => {
    it('answers the product of spec 000 §3 with MainVariant.current_price, status published', async () => {
      const res = await create({
        productName: 'Studio membership',
        productDescription: 'Open studio hours every week.',
        priceType: 'subscription',
        renewalIntervalUnits: 'months',
        renewalIntervalQuantity: 1,
        amount: 4900,
        images: [a.image],
        earnPoints: false,
      }).expect(201);
      const read = await get(res.body.product_id).expect(200);
      expect(read.body).toEqual({
        product_id: res.body.product_id,
        name: 'Studio membership',
        description: 'Open studio hours every week.',
        status: 'published',
        images: [a.image],
        download_url: null,
        MainVariant: {
          current_price: {
            price_id: expect.any(String),
            unit_price: 4900,
            category: 'subscription',
            renewal_interval_unit: 'months',
            renewal_interval_quantity: 1,
            earned_loyalty_points: null,
            grant: 'none',
            membership_bookings: null,
            membership_unlimited: false,
            pack_credits: null,
            pack_expires_after_quantity: null,
            pack_expires_after_unit: null,
            covers_activity_ids: null,
            covers_category_ids: null,
            created_at: expect.any(String),
          },
        },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    });

    it('keeps no renewal interval on a one-time product, whatever was sent', async () => {
      const res = await create({ ...valid(), renewalIntervalUnits: 'weeks', renewalIntervalQuantity: 3 }).expect(201);
      expect(res.body.MainVariant.current_price).toMatchObject({ category: 'oneTime', renewal_interval_unit: null, renewal_interval_quantity: null });
    });

    it('ignores the reward amount while points are off: 0 is taken, and read back as no points (issue 19)', async () => {
      const res = await create({ ...valid(), productName: 'Kiln tour', earnPoints: false, rewardAmount: 0 });
      expect(res.status).toBe(201);
      const read = await get(res.body.product_id).expect(200);
      expect(read.body.name).toBe('Kiln tour');
      expect(read.body.MainVariant.current_price).toMatchObject({ unit_price: VALID_PRODUCT.amount, earned_loyalty_points: null });

      const edited = await put(res.body.product_id, { ...valid(), productName: 'Kiln tour', earnPoints: false, rewardAmount: 'lots' });
      expect(edited.status).toBe(200);
      expect((await get(res.body.product_id).expect(200)).body.MainVariant.current_price.earned_loyalty_points).toBeNull();
    });

    it("refuses another organization's image with 404 and creates nothing", async () => {
      const before = (await t.http.get('/api/admin/products').set('token', a.token)).body.totalCount;
      const res = await create({ ...valid(), images: [b.image] });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Image not found');
      expect((await t.http.get('/api/admin/products').set('token', a.token)).body.totalCount).toBe(before);
    });
  });

  describe('price history', () => {
    it('an amount change makes a new current price and keeps the old row', async () => {
      const created = await create({ ...valid(), productName: 'Glaze kit', amount: 2500 }).expect(201);
      const id = created.body.product_id as string;
      const firstPrice = created.body.MainVariant.current_price.price_id as string;

      const edited = await put(id, { ...valid(), productName: 'Glaze kit', amount: 2900 }).expect(200);
      const secondPrice = edited.body.MainVariant.current_price;
      expect(secondPrice.unit_price).toBe(2900);
      expect(secondPrice.price_id).not.toBe(firstPrice);
      expect((await get(id).expect(200)).body.MainVariant.current_price.unit_price).toBe(2900);

      const rows = await t.withEm((em) =>
        em
          .getConnection()
          .execute<{ id: string; amount_cents: number; current: boolean }[]>(
            'select id, amount_cents, current from product_price where product_id = ? order by created_at, amount_cents',
            [id],
          ),
      );
      expect(rows).toEqual([
        { id: firstPrice, amount_cents: 2500, current: false },
        { id: secondPrice.price_id, amount_cents: 2900, current: true },
      ]);
    });

    it('a save that changes only the name or the images keeps the same price row', async () => {
      const created = await create({ ...valid(), productName: 'Apron' }).expect(201);
      const id = created.body.product_id as string;
      const second = await upload(t, a.token, 'apron-2.png');
      const edited = await put(id, { ...valid(), productName: 'Linen apron', images: [second, a.image] }).expect(200);
      expect(edited.body.name).toBe('Linen apron');
      expect(edited.body.images).toEqual([second, a.image]);
      expect(edited.body.MainVariant.current_price.price_id).toBe(created.body.MainVariant.current_price.price_id);
    });

    it('a change of category or interval is a new price too', async () => {
      const created = await create({
        ...valid(),
        priceType: 'subscription',
        renewalIntervalUnits: 'months',
        renewalIntervalQuantity: 1,
      }).expect(201);
      const id = created.body.product_id as string;
      const edited = await put(id, {
        ...valid(),
        priceType: 'subscription',
        renewalIntervalUnits: 'weeks',
        renewalIntervalQuantity: 2,
      }).expect(200);
      expect(edited.body.MainVariant.current_price).toMatchObject({ renewal_interval_unit: 'weeks', renewal_interval_quantity: 2 });
      expect(edited.body.MainVariant.current_price.price_id).not.toBe(created.body.MainVariant.current_price.price_id);
    });

    it('an edit that breaks a rule is refused with the message and changes nothing', async () => {
      const created = await create({ ...valid(), productName: 'Sponge set' }).expect(201);
      const id = created.body.product_id as string;
      const res = await put(id, { ...valid(), productName: 'Sponge set', amount: 0 });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ amount: M.amountPositive });
      expect((await get(id)).body.MainVariant.current_price.unit_price).toBe(VALID_PRODUCT.amount);
    });
  });

  describe('loyalty points need an active programme (spec 000 §4, §8)', () => {
    const programme = (status: 'active' | 'disabled', token = a.token) =>
      t.http.put('/api/admin/loyalty-program').set('token', token).send({ status }).expect(200);
    const withPoints = () => ({ ...valid(), productName: 'Membership with points', earnPoints: true, rewardAmount: 250 });

    it('refuses points without a programme: 400 with the message, nothing created', async () => {
      const before = (await t.http.get('/api/admin/products').set('token', a.token)).body.totalCount;
      const res = await create(withPoints());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        message: 'You need to set up a loyalty program before enabling this feature.',
        errors: { earnPoints: 'You need to set up a loyalty program before enabling this feature.' },
      });
      expect((await t.http.get('/api/admin/products').set('token', a.token)).body.totalCount).toBe(before);
    });

    it('takes points once the programme is active, and reads them back as earned_loyalty_points', async () => {
      await programme('active');
      try {
        const res = await create(withPoints()).expect(201);
        expect(res.body.MainVariant.current_price.earned_loyalty_points).toBe(250);
        // Another organization's programme is not ours.
        await create({ ...VALID_PRODUCT, images: [b.image], earnPoints: true, rewardAmount: 250 }, b.token).expect(400);
      } finally {
        await programme('disabled');
      }
    });

    it('a programme turned off refuses an edit that keeps points on, and takes one that turns them off', async () => {
      await programme('active');
      const created = await create(withPoints()).expect(201);
      await programme('disabled');
      const id = created.body.product_id as string;
      const refused = await put(id, { ...withPoints(), amount: 3000 });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ earnPoints: M.loyaltyProgramRequired });
      expect((await get(id)).body.MainVariant.current_price).toMatchObject({ unit_price: VALID_PRODUCT.amount, earned_loyalty_points: 250 });
      const off = await put(id, { ...valid(), productName: 'Membership with points', earnPoints: false }).expect(200);
      expect(off.body.MainVariant.current_price.earned_loyalty_points).toBeNull();
      expect(off.body.MainVariant.current_price.price_id).not.toBe(created.body.MainVariant.current_price.price_id);
    });
  });

  describe('tenancy', () => {
    it("answers 404 for another organization's product, on read and on edit", async () => {
      const theirs = await create({ ...VALID_PRODUCT, productName: 'Their kit', images: [b.image] }, b.token).expect(201);
      const id = theirs.body.product_id as string;
      const read = await get(id);
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ statusCode: 404, message: M.notFound });
      await put(id, valid()).expect(404);
      expect((await get(id, b.token).expect(200)).body.name).toBe('Their kit');
      await get('not-an-id').expect(404);
    });

    it("never lists another organization's products", async () => {
      const res = await t.http.get('/api/admin/products?limit=10000').set('token', a.token).expect(200);
      expect(res.body.products.map((p: ProductRow) => p.name)).not.toContain('Their kit');
    });
  });

  describe('GET /api/admin/products', () => {
    let c: { token: string; image: string };
    const names = Array.from({ length: 13 }, (_, i) => `Kit ${String(i + 1).padStart(2, '0')}`);

    beforeAll(async () => {
      const owner = await t.organizationWithUser('owner', 'Gamma Wood');
      c = { token: owner.token, image: await upload(t, owner.token) };
      for (const [i, name] of names.entries()) {
        await create(
          { ...VALID_PRODUCT, productName: name, amount: 1000 + i, images: i % 2 === 0 ? [c.image] : [] },
          c.token,
        ).expect(201);
      }
      await create({ ...VALID_PRODUCT, productName: 'Free 100%_guide', priceType: 'leadMagnet', amount: 0 }, c.token).expect(201);
    });

    const list = (query: string) => t.http.get(`/api/admin/products${query}`).set('token', c.token);

    it('with limit=10000 answers every product with name and product_id (spec 001 §7), newest first', async () => {
      const res = await list('?limit=10000').expect(200);
      expect(res.body.totalCount).toBe(14);
      expect(res.body.products).toHaveLength(14);
      expect(res.body.products[0]).toMatchObject({ name: 'Free 100%_guide', unit_price: 0, category: 'leadMagnet', image: null });
      expect(res.body.products[1]).toMatchObject({ name: 'Kit 13', unit_price: 1012, category: 'oneTime', image: c.image });
      expect(res.body.products[2].image).toBeNull();
      for (const row of res.body.products) expect(row).toEqual(expect.objectContaining({ product_id: expect.any(String), name: expect.any(String) }));
    });

    it('pages: each product once, totalCount counts them all', async () => {
      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const res = await list(`?page=${page}&limit=5`).expect(200);
        expect(res.body).toMatchObject({ totalCount: 14, currentPage: page, itemsPerPage: 5 });
        seen.push(...res.body.products.map((p: ProductRow) => p.name));
      }
      expect(seen).toHaveLength(14);
      expect(new Set(seen).size).toBe(14);
    });

    it('searches any part of the name, % and _ taken literally', async () => {
      const res = await list('?search=kit%200').expect(200);
      expect(res.body.products.map((p: ProductRow) => p.name).sort()).toEqual(names.slice(0, 9));
      expect(res.body.totalCount).toBe(9);
      const literal = await list(`?search=${encodeURIComponent('100%_')}`).expect(200);
      expect(literal.body.products.map((p: ProductRow) => p.name)).toEqual(['Free 100%_guide']);
      const none = await list(`?search=${encodeURIComponent('0%x')}`).expect(200);
      expect(none.body.totalCount).toBe(0);
    });

    it.each([
      ['?limit=10001', 'limit', PRODUCT_LIST_MESSAGES.limit],
      ['?page=0', 'page', PRODUCT_LIST_MESSAGES.page],
      [`?search=${'x'.repeat(201)}`, 'search', PRODUCT_LIST_MESSAGES.search],
    ])('refuses %s with its message', async (query, field, message) => {
      const res = await list(query).expect(400);
      expect(res.body.errors).toEqual({ [field]: message });
    });
  });
});
