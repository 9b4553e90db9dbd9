import { encodeOrderCursor, formatInZone, ORDER_MESSAGES, type OrderStatus } from '@studio/contracts';
import { OrdersService } from '../src/modules/orders/orders.service';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

type OrderRow = { order_id: string; order_number: number; status: OrderStatus; source: string; total: number; created_at: string; Student: { email: string } };

const DAY = 86400000;

/** GET /api/admin/order/{id} and GET /api/admin/orders: shape, tenancy, search, filters, sort, paging, bad queries. */
describe('orders: read side', () => {
  let t: TestApp;
  let a: { token: string; organizationId: string; userId: string };
  let b: { token: string; organizationId: string; userId: string };
  const created: Record<string, string> = {};
  let enrolled: { order_id: string; event_id: string };
  let adaId: string;
  let otherId: string;

  beforeAll(async () => {
    t = await startTestApp({ MEDIA_DIR: `/tmp/studio-media-test-${process.pid}` });
    const ownerA = await t.organizationWithUser('owner', 'Alpha Ceramics');
    const ownerB = await t.organizationWithUser('owner', 'Beta Glass');
    a = { token: ownerA.token, organizationId: ownerA.organization.id, userId: ownerA.user.id };
    b = { token: ownerB.token, organizationId: ownerB.organization.id, userId: ownerB.user.id };

    const ada = await addStudent(t, a.token, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', phone: '+1 555 0100' });
    const grace = await addStudent(t, a.token, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@navy.test' });
    const other = await addStudent(t, b.token, { first_name: 'Olga', last_name: 'Other' });
    adaId = ada;
    otherId = other;

    const course = await schedulableCourse(t, a.token);
    const eventId = await scheduleSession(t, a.token, course, { price: 4500 });
    const enroll = await t.http.post(`/api/admin/orders/enroll/${ada}`).set('token', a.token).send({ event_id: eventId }).expect(201);
    enrolled = { order_id: enroll.body.order_id, event_id: eventId };

    const orders = t.created.app.get(OrdersService);
    const ctx = (o: typeof a) => ({ organizationId: o.organizationId, userId: o.userId, role: 'owner' as const, sessionId: 'test' });
    const line = (cents: number, quantity = 1, discountCents = 0) => ({ kind: 'product' as const, description: 'Glaze kit', unitPriceCents: cents, quantity, discountCents, loyaltyPoints: 10 });
    const plan: [string, OrderStatus, string, number, string, number][] = [
      ['paid', 'paid', 'workbench', 3000, ada, 10],
      ['refunded', 'refunded', 'workbench', 1000, grace, 9],
      ['partial', 'partial_refund', 'workbench', 9000, grace, 8],
      ['pending', 'pending', 'workbench', 2000, ada, 7],
      ['failed', 'failed', 'workbench', 500, grace, 6],
      ['fraud', 'fraudulent', 'workbench', 7000, ada, 5],
      ['eventbrite', 'paid', 'eventbrite', 6000, grace, 4],
    ];
    await t.withEm(async () => {
      for (const [key, status, source, cents, student, daysAgo] of plan) {
        const order = await orders.recordOrder(ctx(a), {
          studentId: student,
          status,
          source,
          lines: [line(cents, 2, 1000)],
          refundedCents: status === 'refunded' ? 2 * cents - 1000 : status === 'partial_refund' ? 2500 : 0,
          paymentIntentId: key === 'paid' ? 'pi_test_1' : null,
          receiptUrl: key === 'paid' ? 'https://pay.example.test/receipts/1' : null,
          createdAt: new Date(Date.now() - daysAgo * DAY),
        });
        created[key] = order.id;
      }
      for (let i = 0; i < 3; i++) {
        const order = await orders.recordOrder(ctx(b), { studentId: other, status: 'paid', source: 'workbench', lines: [line(100)] });
        created[`b${i}`] = order.id;
      }
    });
  }, 180000);
  afterAll(() => t.close());

  const order = (id: string, token = a.token) => t.http.get(`/api/admin/order/${id}`).set('token', token);
  const list = (query: string, token = a.token) => t.http.get(`/api/admin/orders${query}`).set('token', token);

  describe('GET /api/admin/order/{id}', () => {
    it('answers spec 001 §3 Order with lines, payment intent, receipt and student', async () => {
      const res = await order(created.paid).expect(200);
      expect(res.body).toMatchObject({
        order_id: created.paid,
        status: 'paid',
        source: 'workbench',
        total: 5000,
        refunded_amount: 0,
        stripe_payment_intent_id: 'pi_test_1',
        paymentIntent: { charges: { receipt_url: 'https://pay.example.test/receipts/1' } },
        Subscription: [],
        submissions: [],
        Student: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', phone: '+1 555 0100' },
        lines: [{ kind: 'product', description: 'Glaze kit', unit_price: 3000, quantity: 2, discount: 1000, total: 5000, loyalty_points: 10 }],
      });
      expect(typeof res.body.order_number).toBe('number');
      expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    });

    it('an order with no payment has no paymentIntent; a partial refund shows the refunded amount', async () => {
      const res = await order(created.partial).expect(200);
      expect(res.body).toMatchObject({ status: 'partial_refund', total: 17000, refunded_amount: 2500, stripe_payment_intent_id: null, paymentIntent: null });
    });

    it('a direct enrollment is a free workbench order with one seat line for its session', async () => {
      const res = await order(enrolled.order_id).expect(200);
      expect(res.body).toMatchObject({ source: 'workbench', total: 0, status: 'paid' });
      expect(res.body.lines).toEqual([expect.objectContaining({ kind: 'seat', event_id: enrolled.event_id, unit_price: 0, quantity: 1, total: 0 })]);
    });

    it("another organization's order, an unknown id and a non-uuid answer 404", async () => {
      const res = await order(created.b0).expect(404);
      expect(res.body.message).toBe(ORDER_MESSAGES.notFound);
      await order(created.paid, b.token).expect(404);
      await order('00000000-0000-4000-8000-000000000000').expect(404);
      await order('not-a-uuid').expect(404);
    });

    it('needs a session', async () => {
      await t.http.get(`/api/admin/order/${created.paid}`).expect(401);
    });
  });

  describe("GET /api/admin/student/{id}: the student's orders (new_orders)", () => {
    it("lists only that student's orders, newest first, with number, total, description and the course picture slot", async () => {
      const res = await t.http.get(`/api/admin/student/${adaId}`).set('token', a.token).expect(200);
      const rows = res.body.new_orders as { order_id: string; order_number: number; total: number; status: string; image: string | null; subDescription: string; created_at: string }[];
      // Ada: the direct enrolment (now), then paid (10 days ago), pending (7) and fraudulent (5), newest first.
      expect(rows.map((r) => r.order_id)).toEqual([enrolled.order_id, created.fraud, created.pending, created.paid]);
      expect(rows[3]).toMatchObject({ total: 5000, status: 'paid', subDescription: 'Glaze kit', image: null });
      expect(rows[0]).toMatchObject({ total: 0, status: 'paid' });
      const times = rows.map((r) => Date.parse(r.created_at));
      expect([...times].sort((x, y) => y - x)).toEqual(times);
    });

    it("never shows another organization's orders, and another organization's student is 404", async () => {
      const res = await t.http.get(`/api/admin/student/${otherId}`).set('token', b.token).expect(200);
      expect(res.body.new_orders.map((r: { order_id: string }) => r.order_id).sort()).toEqual([created.b0, created.b1, created.b2].sort());
      await t.http.get(`/api/admin/student/${otherId}`).set('token', a.token).expect(404);
    });
  });

  describe('GET /api/admin/orders', () => {
    it("answers a page of the organization's orders, newest first, with the student", async () => {
      const res = await list('').expect(200);
      expect(res.body).toMatchObject({ totalCount: 8, currentPage: 1, itemsPerPage: 20 });
      const rows: OrderRow[] = res.body.orders;
      expect(rows[0].order_id).toBe(enrolled.order_id);
      expect(rows.map((r) => r.order_id)).not.toContain(created.b0);
      const times = rows.map((r) => Date.parse(r.created_at));
      expect([...times].sort((x, y) => y - x)).toEqual(times);
      expect(rows.find((r) => r.order_id === created.eventbrite)).toMatchObject({ source: 'eventbrite', total: 11000, Student: { email: 'grace@navy.test' } });
    });

    it('searches by order number, student name and email', async () => {
      const paid = (await order(created.paid)).body.order_number as number;
      const byNumber = await list(`?search=${paid}`).expect(200);
      expect(byNumber.body.orders.map((r: OrderRow) => r.order_id)).toEqual([created.paid]);
      const byHash = await list(`?search=%23${paid}`).expect(200);
      expect(byHash.body.orders.map((r: OrderRow) => r.order_id)).toEqual([created.paid]);
      const byName = await list('?search=grace%20hop').expect(200);
      expect(byName.body.totalCount).toBe(4);
      const byEmail = await list('?search=NAVY.test').expect(200);
      expect(byEmail.body.totalCount).toBe(4);
      expect((await list('?search=100%25').expect(200)).body.totalCount).toBe(0);
      expect((await list('?search=olga').expect(200)).body.totalCount).toBe(0);
    });

    it('filters by status, source and created range', async () => {
      const refunded = await list('?status=partial_refund').expect(200);
      expect(refunded.body.orders.map((r: OrderRow) => r.order_id)).toEqual([created.partial]);
      const eventbrite = await list('?source=eventbrite').expect(200);
      expect(eventbrite.body.orders.map((r: OrderRow) => r.order_id)).toEqual([created.eventbrite]);
      const from = new Date(Date.now() - 8.5 * DAY).toISOString();
      const to = new Date(Date.now() - 5.5 * DAY).toISOString();
      const range = await list(`?created_from=${from}&created_to=${to}`).expect(200);
      expect(range.body.orders.map((r: OrderRow) => r.order_id)).toEqual([created.failed, created.pending, created.partial]);

      // The same range as wall-clock times without offset, read in the organization's time zone (issue 19).
      const zone = (await t.http.get('/api/admin/org').set('token', a.token).expect(200)).body.timezone as string;
      const wall = (iso: string) => formatInZone(iso, "yyyy-MM-dd'T'HH:mm:ss", zone);
      const wallRange = await list(`?created_from=${wall(from)}&created_to=${wall(to)}`).expect(200);
      expect(wallRange.body.orders.map((r: OrderRow) => r.order_id)).toEqual([created.failed, created.pending, created.partial]);
    });

    it('sorts by total and order number in both directions, and pages without overlap', async () => {
      const asc = await list('?sortField=total&sortOrder=asc').expect(200);
      const totals = asc.body.orders.map((r: OrderRow) => r.total);
      expect(totals).toEqual([...totals].sort((x, y) => x - y));
      const desc = await list('?sortField=order_number&sortOrder=desc').expect(200);
      const numbers = desc.body.orders.map((r: OrderRow) => r.order_number);
      expect(numbers).toEqual([...numbers].sort((x, y) => y - x));
      const page1 = await list('?sortField=order_number&sortOrder=asc&limit=3&page=1').expect(200);
      const page3 = await list('?sortField=order_number&sortOrder=asc&limit=3&page=3').expect(200);
      expect(page1.body).toMatchObject({ totalCount: 8, currentPage: 1, itemsPerPage: 3 });
      expect(page1.body.orders.map((r: OrderRow) => r.order_number)).toEqual([...numbers].reverse().slice(0, 3));
      expect(page3.body.orders.map((r: OrderRow) => r.order_number)).toEqual([...numbers].reverse().slice(6, 8));
    });

    it('pages by cursor (keyset) in every sort, through the same rows as one long page', async () => {
      for (const sort of ['', '&sortField=order_number&sortOrder=asc', '&sortField=total&sortOrder=desc', '&sortField=created_at&sortOrder=asc']) {
        const all = (await list(`?limit=20${sort}`).expect(200)).body;
        expect(all.next_cursor).toBeNull();
        const walked: string[] = [];
        let page = await list(`?limit=3${sort}`).expect(200);
        expect(page.body.totalCount).toBe(8);
        walked.push(...page.body.orders.map((r: OrderRow) => r.order_id));
        for (let n = 2; page.body.next_cursor; n++) {
          page = await list(`?limit=3&page=${n}&cursor=${page.body.next_cursor}${sort}`).expect(200);
          expect(page.body).toMatchObject({ totalCount: null, currentPage: n, itemsPerPage: 3 });
          walked.push(...page.body.orders.map((r: OrderRow) => r.order_id));
        }
        expect(walked).toEqual(all.orders.map((r: OrderRow) => r.order_id));
      }
      // A cursor holds a position, never an organization: another organization's page shows its own orders.
      const first = (await list('?limit=3').expect(200)).body;
      const other = await list(`?limit=3&page=2&cursor=${first.next_cursor}`, b.token).expect(200);
      for (const row of other.body.orders as OrderRow[]) expect([created.b0, created.b1, created.b2]).toContain(row.order_id);
    });

    it('refuses a cursor it did not make, or one made for another sort, with a clear 400', async () => {
      const first = (await list('?limit=3').expect(200)).body;
      for (const bad of [
        'not-a-cursor',
        'x'.repeat(301),
        Buffer.from('{"f":"created_at","o":"desc","k":"yesterday","id":"x"}').toString('base64url'),
        Buffer.from('[1,2]').toString('base64url'),
        encodeOrderCursor({ f: 'created_at', o: 'desc', k: 1, id: 'nope' } as never),
        '%F0%9F%98%80',
      ]) {
        const res = await list(`?cursor=${bad}`).expect(400);
        expect(res.body.errors).toMatchObject({ cursor: ORDER_MESSAGES.cursor });
      }
      const res = await list(`?sortField=total&cursor=${first.next_cursor}`).expect(400);
      expect(res.body.errors).toMatchObject({ cursor: ORDER_MESSAGES.cursor });
      await list(`?cursor=${first.next_cursor}&cursor=${first.next_cursor}`).expect(400);
    });

    it('refuses a bad query with a message per field', async () => {
      const res = await list('?status=shipped&limit=1000&sortField=email&created_from=yesterday&page=0').expect(400);
      expect(res.body.errors).toMatchObject({
        status: ORDER_MESSAGES.status,
        limit: ORDER_MESSAGES.limit,
        sortField: ORDER_MESSAGES.sortField,
        created_from: ORDER_MESSAGES.date,
        page: ORDER_MESSAGES.page,
      });
      const empty = await list('?created_from=&created_to=2026-01-31T24:00').expect(400);
      expect(empty.body.errors).toEqual({ created_from: ORDER_MESSAGES.dateRequired, created_to: ORDER_MESSAGES.date });
      const range = await list('?created_from=2026-02-01T00:00:00Z&created_to=2026-01-01T00:00:00Z').expect(400);
      expect(range.body.errors).toMatchObject({ created_to: ORDER_MESSAGES.dateRange });
      await list(`?search=${'x'.repeat(201)}`).expect(400);
      await list('?search=a%00b').expect(400);
      await list('?unknown=1').expect(400);
    });
  });
});
