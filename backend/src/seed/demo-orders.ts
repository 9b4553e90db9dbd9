import { EntityManager } from '@mikro-orm/postgresql';
import { INestApplicationContext } from '@nestjs/common';
import { productListQuerySchema, type OrderStatus } from '@studio/contracts';
import { RequestContext } from '../common/request-context';
import { DemoPaymentsAdapter } from '../modules/payments/demo/demo-payments.adapter';
import { PaymentsPort } from '../modules/payments/payments.port';
import { chargeThroughDemo, ensureDemoCard } from './demo-refunds';
import { LoyaltyLedgerService } from '../modules/loyalty/loyalty-ledger.service';
import { OrdersService, type RecordedOrder } from '../modules/orders/orders.service';
import { RefundsService } from '../modules/orders/refunds.service';
import { ProductsService } from '../modules/products/products.service';
import { Event } from '../modules/scheduling/entities/event.entity';
import { StudentsService } from '../modules/students/students.service';

const DAY = 86400000;

/**
 * Orders beside the seats of demo-enrollments: every status of spec 001 §4, from the workbench and
 * from Eventbrite, product and seat lines, a partly refunded order and two refunded ones.
 *
 * Paid and refunded workbench orders were charged through the built-in demo payment provider, so
 * they have receipts and can be refunded. The refunded ones were paid, then refunded by the owner
 * through the refunds service, as the order drawer does: each refund is a row of the refunds ledger
 * (amount, reason, who, succeeded, the provider's refund id) and a refund in the demo provider's
 * ledger, and the order's refunded amount and status follow from them. Without the demo provider
 * (Stripe configured) no money can be made up: the refunded orders are left out.
 */
export async function seedDemoOrders(app: INestApplicationContext, ctx: RequestContext): Promise<void> {
  const orders = app.get(OrdersService);
  const port = app.get(PaymentsPort);
  const ledger = app.get(LoyaltyLedgerService);
  // The seats sold before order lines existed get theirs.
  await orders.addMissingSeatLines(ctx.organizationId);

  const { students } = await app.get(StudentsService).list(ctx, { page: 1, limit: 12 });
  const { items: products } = await app.get(ProductsService).list(ctx, productListQuerySchema.parse({ page: 1, limit: 20 }));
  // Read only, for a seat line's session and price.
  const sessions = await app
    .get(EntityManager)
    .find(Event, { organization: ctx.organizationId, startsAt: { $gt: new Date() } }, { orderBy: { startsAt: 'asc' }, limit: 3 });
  const paidProducts = products.filter((p) => p.unit_price > 0);
  if (students.length < 8 || paidProducts.length === 0 || sessions.length === 0) return;

  type Line = RecordedOrder['lines'][number];
  const product = (i: number, quantity = 1, discountCents = 0): Line => {
    const p = paidProducts[i % paidProducts.length];
    return {
      kind: 'product',
      productId: p.product_id,
      description: p.name,
      unitPriceCents: p.unit_price,
      quantity,
      discountCents,
      loyaltyPoints: p.earned_loyalty_points ?? 0,
    };
  };
  const seat = (i: number): Line => {
    const e = sessions[i % sessions.length];
    return { kind: 'seat', eventId: e.id, description: e.name, unitPriceCents: e.priceCents };
  };

  /** A refund made after the payment: a third of the total ('third') or all of it, and why. */
  type Refund = { share: 'third' | 'all'; reason: string };
  const plan: { status: Exclude<OrderStatus, 'partial_refund' | 'refunded'>; source: string; lines: Line[]; refund?: Refund; daysAgo: number }[] = [
    { status: 'paid', source: 'workbench', lines: [product(0)], daysAgo: 1 },
    { status: 'paid', source: 'workbench', lines: [product(1, 2, 500)], daysAgo: 2 },
    { status: 'paid', source: 'workbench', lines: [seat(0), product(0)], daysAgo: 3 },
    { status: 'paid', source: 'workbench', lines: [product(2, 3)], refund: { share: 'third', reason: 'Requested by customer' }, daysAgo: 5 },
    { status: 'paid', source: 'workbench', lines: [product(0)], refund: { share: 'all', reason: 'Kit out of stock' }, daysAgo: 8 },
    { status: 'pending', source: 'workbench', lines: [seat(1)], daysAgo: 0 },
    { status: 'failed', source: 'workbench', lines: [product(1)], daysAgo: 4 },
    { status: 'fraudulent', source: 'workbench', lines: [product(2)], daysAgo: 12 },
    { status: 'paid', source: 'eventbrite', lines: [seat(2)], daysAgo: 6 },
    { status: 'paid', source: 'eventbrite', lines: [seat(0)], daysAgo: 9 },
    // A seat bought in the back office, refunded in full when the student could not come.
    { status: 'paid', source: 'workbench', lines: [seat(1)], refund: { share: 'all', reason: 'Student could not attend' }, daysAgo: 14 },
  ];

  const demo = port instanceof DemoPaymentsAdapter ? port : null;
  // A refund needs a payment method on file (the refunds rule): the demo card, saved once.
  if (demo) await ensureDemoCard(demo, ctx);
  const refunds = app.get(RefundsService);

  for (const [i, entry] of plan.entries()) {
    // Without the demo provider a refund cannot be made up: leave the refunded orders out.
    if (entry.refund && !demo) continue;
    const total = entry.lines.reduce((sum, l) => sum + l.unitPriceCents * (l.quantity ?? 1) - (l.discountCents ?? 0), 0);
    const charged = entry.source === 'workbench' && entry.status === 'paid';
    const studentId = students[i % students.length].id;
    // Workbench money goes through the built-in demo provider (so its refunds reach the demo ledger);
    // with Stripe configured, seeded orders cannot have real payments and show "Payment never charged".
    const payment =
      charged && demo
        ? await chargeThroughDemo(demo, ctx, students[i % students.length], [{ name: entry.lines.map((l) => l.description).join(', '), unitAmountCents: total, quantity: 1 }])
        : null;
    if (entry.refund && !payment) continue;
    const order = await orders.recordOrder(ctx, {
      studentId,
      status: entry.status,
      source: entry.source,
      lines: entry.lines,
      paymentIntentId: payment?.paymentIntentId ?? null,
      receiptUrl: payment?.receiptUrl ?? null,
      createdAt: new Date(Date.now() - entry.daysAgo * DAY - (i + 1) * 3600000),
    });
    // Paid orders earned their product lines' points (the programme is active in the demo studio).
    const points = entry.lines.reduce((sum, l) => sum + (l.loyaltyPoints ?? 0) * (l.quantity ?? 1), 0);
    if (entry.status === 'paid') await ledger.earnForOrder(ctx.organizationId, studentId, order.id, points);
    if (entry.refund) {
      // As the order drawer refunds: a ledger row, the demo provider's refund, the order's amount and
      // status; a full refund takes the order's points back (loyalty listens to order.refunded).
      const amount = entry.refund.share === 'all' ? total : Math.floor(total / 3);
      await refunds.refund(ctx, order.id, { amount, reason: entry.refund.reason }, `seed-refund-${order.id}`);
    }
  }
  // An admin's adjustment beside the earned points.
  await ledger.setBalance(ctx, students[1].id, 1250);
}
