import { startTestApp, TestApp } from './test-app';

type OrderRow = {
  order_number: number;
  status: string;
  source: string;
  total_cents: number;
  refunded_cents: number;
  payment_intent_id: string | null;
  ledger_cents: number;
};
type LedgerRow = {
  order_number: number;
  amount_cents: number;
  reason: string;
  actor_user_id: string | null;
  status: string;
  provider_refund_id: string | null;
  payment_intent_id: string | null;
};
type ProviderRow = { id: string; payment_id: string; amount_cents: number };

/**
 * The demo seed's money adds up (issue 19): every refunded order has its refunds ledger rows, and
 * every ledger row its refund at the demo payment provider, and the other way round.
 */
describe('demo seed: refunds add up', () => {
  let t: TestApp;
  let orders: OrderRow[];
  let ledger: LedgerRow[];
  let provider: ProviderRow[];

  beforeAll(async () => {
    t = await startTestApp({
      SEED_DEMO: 'true',
      PUBLIC_APP_URL: 'http://studio.test',
      MEDIA_DIR: `/tmp/studio-media-seed-refunds-${process.pid}`,
    });
    expect(t.created.seeded).toBe(true);
    const sql = <T>(query: string) => t.withEm((em) => em.getConnection().execute<T[]>(query));
    orders = await sql<OrderRow>(
      `select o.order_number, o.status, o.source, o.total_cents, o.refunded_cents, o.payment_intent_id,
              coalesce((select sum(r.amount_cents) from order_refund r where r.order_id = o.id and r.status = 'succeeded'), 0)::int as ledger_cents
         from customer_order o order by o.organization_id, o.order_number`,
    );
    ledger = await sql<LedgerRow>(
      `select o.order_number, r.amount_cents, r.reason, r.actor_user_id, r.status, r.provider_refund_id, o.payment_intent_id
         from order_refund r join customer_order o on o.id = r.order_id order by o.order_number, r.created_at`,
    );
    provider = await sql<ProviderRow>(
      `select id, payment_id, amount_cents from demo_refund order by created_at`,
    );
  });
  afterAll(() => t.close());

  it('seeds refunded and partly refunded orders', () => {
    const count = (status: string) =>
      orders.filter((o) => o.status === status && o.refunded_cents > 0).length;
    expect(count('refunded')).toBeGreaterThanOrEqual(2);
    expect(count('partial_refund')).toBeGreaterThanOrEqual(2);
  });

  it('for every order, the succeeded refunds of its ledger add up to refunded_cents', () => {
    const wrong = orders
      .filter((o) => o.ledger_cents !== o.refunded_cents)
      .map((o) => `#${o.order_number}: ledger ${o.ledger_cents}, order ${o.refunded_cents}`);
    expect(wrong).toEqual([]);
  });

  it('an order is refunded when all of it is, partly refunded when some of it is', () => {
    for (const o of orders.filter((x) => x.refunded_cents > 0)) {
      expect({ order: o.order_number, status: o.status }).toEqual({
        order: o.order_number,
        status: o.refunded_cents === o.total_cents ? 'refunded' : 'partial_refund',
      });
    }
  });

  it('every ledger row says how much, why, who, succeeded, and the provider refund it made', () => {
    expect(ledger.length).toBeGreaterThan(0);
    for (const row of ledger) {
      expect(row).toEqual({
        order_number: row.order_number,
        amount_cents: expect.any(Number),
        reason: expect.stringMatching(/\S/),
        actor_user_id: expect.any(String),
        status: 'succeeded',
        provider_refund_id: expect.stringMatching(/^dre_/),
        payment_intent_id: expect.stringMatching(/^dpi_/),
      });
      expect(row.amount_cents).toBeGreaterThan(0);
    }
  });

  it('every ledger row has its refund at the demo provider, on the order’s payment, for the same amount, and the other way round', () => {
    const atProvider = new Map(provider.map((p) => [p.id, p]));
    for (const row of ledger) {
      expect({ order: row.order_number, refund: atProvider.get(row.provider_refund_id!) ?? null }).toEqual({
        order: row.order_number,
        refund: {
          id: row.provider_refund_id,
          payment_id: row.payment_intent_id,
          amount_cents: row.amount_cents,
        },
      });
    }
    const inLedger = new Set(ledger.map((r) => r.provider_refund_id));
    expect(provider.filter((p) => !inLedger.has(p.id))).toEqual([]);
  });
});
