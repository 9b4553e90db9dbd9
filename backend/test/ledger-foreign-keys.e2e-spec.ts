import { MikroORM } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../src/config/config.schema';
import { buildOrmOptions } from '../src/database/mikro-orm.config';
import { WalletService } from '../src/modules/wallet/wallet.service';
import { demoPageOrder } from './support/checkout-fixtures';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

const MIGRATION = 'Migration20261201120000_ledger_foreign_keys';

/**
 * The ledgers' foreign keys (issue 32), on a database the app filled through its real paths: the
 * migration sets existing orphans to null and deletes no ledger row, stops naming what it cannot
 * clean (and changes nothing then), and afterwards the database refuses a deletion that would take
 * money history with it while the app's own deletions (a session and its removed seats) still work.
 */
describe('ledger foreign keys', () => {
  let t: TestApp;
  let db: Client;
  let token: string;
  let organizationId: string;
  let studentId: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  /** The rows the real paths wrote. */
  let paidOrder: string;
  let packHolding: string;
  let packSession: string;
  let packEnrollment: string;
  /** Another seat booked on the pack: its use is the one the orphan tests point at a gone seat. */
  let otherPackEnrollment: string;
  let orphanUse: { id: string; order_id: string };

  const sql = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[];
  const count = async (table: string) => Number((await sql<{ n: string }>(`select count(*) as n from ${table}`))[0].n);
  const ledgerCounts = async () =>
    Object.fromEntries(
      await Promise.all(
        ['order_refund', 'order_activity', 'loyalty_entry', 'wallet_holding', 'wallet_entry', 'discount_use'].map(async (n) => [n, await count(n)] as const),
      ),
    );
  const foreignKeys = async () =>
    (
      await sql<{ name: string }>(
        `select conname as name from pg_constraint where contype = 'f' and conrelid::regclass::text in
           ('order_refund', 'order_activity', 'loyalty_entry', 'wallet_holding', 'wallet_entry', 'discount_use', 'session_cancellation_seat')`,
      )
    ).map((r) => r.name);

  /** Runs the migration's down or up alone on the test's database, as the app's start would run it. */
  async function migrate(direction: 'up' | 'down'): Promise<void> {
    const config = loadConfig({ DATABASE_URL: t.config.DATABASE_URL!, SEED_DEMO: 'false', SERVE_WEB: 'false', RUN_WORKER: 'false', LOG_LEVEL: 'silent' });
    const { options } = await buildOrmOptions(config);
    const orm = await MikroORM.init({ ...options, pool: { min: 0, max: 1 } });
    try {
      await orm.getMigrator()[direction]({ migrations: [MIGRATION] });
    } finally {
      await orm.close(true);
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_APP_URL: 'http://studio.test' });
    db = new Client({ connectionString: t.config.DATABASE_URL });
    await db.connect();
    const owner = await t.organizationWithUser('owner', 'Ledger Ceramics');
    token = owner.token;
    organizationId = owner.organization.id;
    studentId = await addStudent(t, token);
    course = await schedulableCourse(t, token, 10);
    await t.http.put('/api/admin/loyalty-program').set('token', token).send({ status: 'active' }).expect(200);
    const setup = await t.http.post('/api/admin/payment-methods/setup').set('token', token).expect(200);
    await t.http.post(`${new URL(setup.body.url).pathname}/pay`).type('form').send('').expect(200);

    // An order earning points, paid on the demo page, then refunded in full: refund, reversal, activity.
    const order = await demoPageOrder(t, organizationId, {
      studentId,
      lines: [{ kind: 'product', description: 'Glaze kit', unitPriceCents: 4000, loyaltyPoints: 40 }],
    });
    await order.pay();
    paidOrder = order.orderId;
    await t.http.post(`/api/admin/order/${paidOrder}/refund`).set('token', token).send({ reason: 'Changed mind' }).expect(200);
    // A class pack the order bought, and a class booked on it through Add student: a use naming the seat and its order.
    packHolding = (
      await t.created.app.get(WalletService).grant({ organizationId, studentId, kind: 'pack', label: '5-class pack', amount: 5, orderId: paidOrder })
    ).holdingId;
    packSession = await scheduleSession(t, token, course, { price: 3000, daysFromNow: 20 });
    const bookOnPack = async (eventId: string) =>
      (await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId, holding_id: packHolding }).expect(201)).body
        .enrollment_id as string;
    packEnrollment = await bookOnPack(packSession);
    otherPackEnrollment = await bookOnPack(await scheduleSession(t, token, course, { price: 3000, daysFromNow: 21 }));
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it('down and up again on clean data: every ledger row kept, the foreign keys back', async () => {
    const before = await ledgerCounts();
    expect(before.wallet_entry).toBeGreaterThanOrEqual(2);
    const keys = await foreignKeys();
    expect(keys).toEqual(expect.arrayContaining(['wallet_entry_enrollment_id_fkey', 'loyalty_entry_refund_id_fkey', 'discount_use_order_id_fkey']));
    await migrate('down');
    expect(await foreignKeys()).not.toContain('wallet_entry_enrollment_id_fkey');
    await migrate('up');
    expect(await ledgerCounts()).toEqual(before);
    expect((await foreignKeys()).sort()).toEqual(keys.sort());
  });

  it('sets orphans of nullable columns to null and deletes no ledger row', async () => {
    await migrate('down');
    const gone = () => randomUUID();
    // As production data written without foreign keys may have it: references to rows that are not there.
    // Two loyalty entries (changing no balance) naming a refund and an order that are gone.
    const newest = `select organization_id, student_id, balance from loyalty_entry where student_id = $1 order by created_at desc, id desc limit 1`;
    const [failed] = await sql<{ id: string }>(
      `insert into loyalty_entry (id, organization_id, student_id, points, balance, reason, order_id, refund_id, created_at)
       select gen_random_uuid(), organization_id, student_id, 0, balance, 'refund_failed', $2, $3, clock_timestamp() from (${newest}) last returning id`,
      [studentId, paidOrder, gone()],
    );
    const [adjusted] = await sql<{ id: string }>(
      `insert into loyalty_entry (id, organization_id, student_id, points, balance, reason, order_id, created_at)
       select gen_random_uuid(), organization_id, student_id, 0, balance, 'adjusted', $2, clock_timestamp() from (${newest}) last returning id`,
      [studentId, gone()],
    );
    const [use] = await sql<{ id: string; order_id: string }>(`select id, order_id from wallet_entry where reason = 'use' and enrollment_id = $1`, [otherPackEnrollment]);
    orphanUse = use;
    await sql(`update wallet_entry set enrollment_id = $1 where id = $2`, [gone(), use.id]);
    await sql(`update wallet_entry set order_id = $1 where holding_id = $2 and reason = 'grant'`, [gone(), packHolding]);
    await sql(`update wallet_holding set order_id = $1, product_id = $2 where id = $3`, [gone(), gone(), packHolding]);
    await sql(`update order_refund set enrollment_id = $1 where order_id = $2`, [gone(), paidOrder]);
    const before = await ledgerCounts();

    await migrate('up');
    expect(await ledgerCounts()).toEqual(before);
    expect(await sql(`select order_id, refund_id from loyalty_entry where id = $1`, [failed.id])).toEqual([{ order_id: paidOrder, refund_id: null }]);
    expect(await sql(`select order_id from loyalty_entry where id = $1`, [adjusted.id])).toEqual([{ order_id: null }]);
    // The use keeps its order (what it still names); its gone booking is null.
    expect(await sql(`select enrollment_id, order_id from wallet_entry where id = $1`, [use.id])).toEqual([{ enrollment_id: null, order_id: use.order_id }]);
    expect(await sql(`select order_id from wallet_entry where holding_id = $1 and reason = 'grant'`, [packHolding])).toEqual([{ order_id: null }]);
    expect(await sql(`select order_id, product_id from wallet_holding where id = $1`, [packHolding])).toEqual([{ order_id: null, product_id: null }]);
    expect(await sql(`select enrollment_id from order_refund where order_id = $1`, [paidOrder])).toEqual([{ enrollment_id: null }]);
    // What was real is untouched.
    expect(await sql(`select reason from loyalty_entry where order_id = $1 and refund_id is not null`, [paidOrder])).toEqual([{ reason: 'refund_reversal' }]);
    expect(await sql(`select enrollment_id from wallet_entry where reason = 'use' and enrollment_id = $1`, [packEnrollment])).toHaveLength(1);
  });

  it('stops, naming them, on orphans it cannot clean (a use that would name nothing, a discount use of no order), and changes nothing', async () => {
    await migrate('down');
    // The use whose seat is gone (the test before) now names a gone order too: it would name nothing.
    const use = orphanUse;
    await sql(`update wallet_entry set order_id = $1 where id = $2`, [randomUUID(), use.id]);
    const [grant] = await sql<{ id: string }>(`select id from wallet_entry where holding_id = $1 and reason = 'grant'`, [packHolding]);
    await sql(`update wallet_entry set order_id = $1 where id = $2`, [randomUUID(), grant.id]);
    const before = await sql(`select * from wallet_entry order by seq`);

    await expect(migrate('up')).rejects.toThrow(/ledger_foreign_keys: 1 wallet_entry use row\(s\) name no existing order, enrollment or appointment/);
    // Nothing changed: not even the orphans it could have cleaned; the foreign keys are not there.
    expect(await sql(`select * from wallet_entry order by seq`)).toEqual(before);
    expect(await foreignKeys()).not.toContain('wallet_entry_order_id_fkey');

    await sql(`update wallet_entry set order_id = $1 where id = $2`, [use.order_id, use.id]);
    // A discount use of an order that is gone: order_id is its key, it cannot be null.
    const [code] = await sql<{ id: string }>(
      `insert into discount_code (id, organization_id, label, code, type, value, apply_logic)
       values (gen_random_uuid(), $1, 'Gone', 'GONE10', 'percentage', 10, 'once') returning id`,
      [organizationId],
    );
    await sql(`insert into discount_use (order_id, organization_id, discount_code_id) values ($1, $2, $3)`, [randomUUID(), organizationId, code.id]);
    await expect(migrate('up')).rejects.toThrow(/ledger_foreign_keys: 1 discount_use row\(s\) name an order that does not exist/);
    await sql(`delete from discount_use where discount_code_id = $1`, [code.id]);
    await migrate('up');
    expect(await sql(`select order_id from wallet_entry where id = $1`, [grant.id])).toEqual([{ order_id: null }]);
    expect(await foreignKeys()).toContain('wallet_entry_order_id_fkey');
  });

  it('refuses to delete an order, a holding, a refund or a student that ledger rows name; a row naming nothing is refused', async () => {
    const refused = (text: string, params: unknown[]) => expect(sql(text, params)).rejects.toMatchObject({ code: '23503' });
    await refused(`delete from customer_order where id = $1`, [paidOrder]);
    await refused(`delete from wallet_holding where id = $1`, [packHolding]);
    await refused(`delete from order_refund where order_id = $1`, [paidOrder]);
    await refused(`delete from student where id = $1`, [studentId]);
    await refused(
      `insert into loyalty_entry (id, organization_id, student_id, points, balance, reason, order_id) values (gen_random_uuid(), $1, $2, 1, 1, 'earned', $3)`,
      [organizationId, studentId, randomUUID()],
    );
    expect(await sql(`select count(*)::int as n from order_refund where order_id = $1`, [paidOrder])).toEqual([{ n: 1 }]);
  });

  it("the app's own deletion still works: a session deleted with its removed seats keeps their refunds and credit uses, naming their orders", async () => {
    // A seat bought with a payment link paid on the demo page, removed with a refund.
    const session = await scheduleSession(t, token, course, { price: 4500, daysFromNow: 30 });
    const buyer = await addStudent(t, token);
    const link = (await t.http.post(`/api/admin/orders/invoice/${buyer}`).set('token', token).send({ event_id: session }).expect(201)).body;
    await t.http.post(`${new URL(link.url).pathname}/pay`).type('form').send('').expect(200);
    const [seat] = (await t.http.get(`/api/admin/enrollment/event/${session}`).set('token', token).expect(200)).body.enrollments;
    await t.http.delete(`/api/admin/enrollment/${seat.enrollment_id}`).set('token', token).send({ refund: { amount: 4500, reason: 'Other' } }).expect(204);
    const [refund] = await sql<{ id: string; enrollment_id: string }>(`select id, enrollment_id from order_refund where order_id = $1`, [link.order_id]);
    expect(refund.enrollment_id).toBe(seat.enrollment_id);
    // The seat booked on the pack, removed (its credit given back): the use and its return name it.
    await t.http.delete(`/api/admin/enrollment/${packEnrollment}`).set('token', token).expect(204);
    const packSeat = (await sql<{ id: string }>(`select id from wallet_entry where enrollment_id = $1 order by seq`, [packEnrollment])).map((r) => r.id);
    expect(packSeat).toHaveLength(2);

    await t.http.delete(`/api/admin/events/${session}`).set('token', token).expect(200);
    await t.http.delete(`/api/admin/events/${packSession}`).set('token', token).expect(200);
    expect(await sql(`select count(*)::int as n from enrollment where id in ($1, $2)`, [seat.enrollment_id, packEnrollment])).toEqual([{ n: 0 }]);
    expect(await sql(`select order_id, enrollment_id, amount_cents from order_refund where id = $1`, [refund.id])).toEqual([
      { order_id: link.order_id, enrollment_id: null, amount_cents: 4500 },
    ]);
    const uses = await sql<{ reason: string; enrollment_id: string | null; order_id: string | null }>(
      `select reason, enrollment_id, order_id from wallet_entry where id = any($1::uuid[]) order by seq`,
      [packSeat],
    );
    expect(uses.map((u) => [u.reason, u.enrollment_id, u.order_id !== null])).toEqual([
      ['use', null, true],
      ['return', null, true],
    ]);
  });
});
