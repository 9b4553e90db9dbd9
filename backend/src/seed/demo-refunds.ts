import { EntityManager } from '@mikro-orm/postgresql';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { productListQuerySchema } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { RequestContext } from '../common/request-context';
import { Order } from '../modules/orders/entities/order.entity';
import { OrdersService } from '../modules/orders/orders.service';
import { RefundsService } from '../modules/orders/refunds.service';
import type { CheckoutLine } from '../modules/payments/payments.port';
import { DemoPaymentsAdapter } from '../modules/payments/demo/demo-payments.adapter';
import { PaymentsPort } from '../modules/payments/payments.port';
import { ProductsService } from '../modules/products/products.service';
import { Enrollment } from '../modules/scheduling/entities/enrollment.entity';
import { StudentsService } from '../modules/students/students.service';

const DAY = 86400000;

/**
 * Money that can be refunded on `npm start` (issue 9, demo data): the demo studio saves a demo card
 * (a payment method on file; Another Studio has none, so the drawer's "Please add a payment method in
 * billing settings" can be seen), and three workbench orders are paid through the built-in demo
 * provider, so they have receipts and refunds reach its ledger. One of them is partly refunded through
 * the refunds service (ledger row and audit, by the owner). The seats of the soonest future session
 * that were bought (demo-enrollments) are charged through the provider too, so Remove student can
 * refund them. Only with the demo provider: a Stripe account's payments cannot be made up.
 */
export async function seedDemoRefunds(app: INestApplicationContext, ctx: RequestContext): Promise<void> {
  const port = app.get(PaymentsPort);
  if (!(port instanceof DemoPaymentsAdapter)) {
    new Logger('DemoSeed').log('Payments go through Stripe: no demo payments or card are seeded');
    return;
  }
  await ensureDemoCard(port, ctx);

  const { students } = await app.get(StudentsService).list(ctx, { page: 1, limit: 12 });
  const { items: products } = await app.get(ProductsService).list(ctx, productListQuerySchema.parse({ page: 1, limit: 20 }));
  const paid = products.filter((p) => p.unit_price > 0);
  if (students.length < 3 || paid.length === 0) return;

  const orders = app.get(OrdersService);
  const plan = [
    { product: paid[0], quantity: 1, daysAgo: 1, refund: null },
    { product: paid[1 % paid.length], quantity: 2, daysAgo: 2, refund: null },
    { product: paid[2 % paid.length], quantity: 3, daysAgo: 6, refund: { share: 1 / 3, reason: 'Requested by customer' } },
  ];
  for (const [i, entry] of plan.entries()) {
    const total = entry.product.unit_price * entry.quantity;
    const payment = await chargeThroughDemo(port, ctx, students[i], [{ name: entry.product.name, unitAmountCents: entry.product.unit_price, quantity: entry.quantity }]);
    if (!payment) continue;
    const order = await orders.recordOrder(ctx, {
      studentId: students[i].id,
      status: 'paid',
      source: 'workbench',
      paymentIntentId: payment.paymentIntentId,
      receiptUrl: payment.receiptUrl,
      createdAt: new Date(Date.now() - entry.daysAgo * DAY),
      lines: [
        {
          kind: 'product',
          productId: entry.product.product_id,
          description: entry.product.name,
          unitPriceCents: entry.product.unit_price,
          quantity: entry.quantity,
          loyaltyPoints: entry.product.earned_loyalty_points ?? 0,
        },
      ],
    });
    if (entry.refund) {
      await app.get(RefundsService).refund(ctx, order.id, { amount: Math.round(total * entry.refund.share), reason: entry.refund.reason });
    }
  }
  await chargeSoonestSeats(app, port, ctx);
}

/**
 * The demo studio's card on file, saved on the demo setup page once: a refund needs a payment method
 * on file (the refunds rule), so the seeded orders' refunds save it first.
 */
export async function ensureDemoCard(port: DemoPaymentsAdapter, ctx: RequestContext): Promise<void> {
  if ((await port.listPaymentMethods(ctx.organizationId)).length > 0) return;
  const setup = await port.createSetup({ organizationId: ctx.organizationId, successUrl: '/admin/settings/billing', cancelUrl: '/admin/settings/billing' });
  await port.pay(new URL(setup.url).pathname.split('/').pop()!);
}

/**
 * Charges an amount through the demo provider, as a payer clicking Pay would, for a seeded order:
 * answers the payment intent and its receipt, so refunds of that order reach the demo ledger.
 * The checkout names a throwaway order, so the payment-links handler leaves the seeded order alone.
 */
export async function chargeThroughDemo(
  port: DemoPaymentsAdapter,
  ctx: RequestContext,
  payer: { email: string },
  lines: CheckoutLine[],
): Promise<{ paymentIntentId: string; receiptUrl: string | null } | null> {
  const checkout = await port.createCheckout({
    organizationId: ctx.organizationId,
    orderId: randomUUID(),
    lines,
    customerEmail: payer.email,
    successUrl: '/',
    cancelUrl: '/',
    expiresAt: new Date(Date.now() + DAY),
  });
  const paymentIntentId = (await port.pay(checkout.sessionId))?.paymentId;
  return paymentIntentId ? { paymentIntentId, receiptUrl: await port.receiptUrl(paymentIntentId) } : null;
}

/**
 * The bought seats of the soonest future session with some: their orders (seeded by
 * demo-enrollments without a payment) are paid through the demo provider, with a receipt.
 */
async function chargeSoonestSeats(app: INestApplicationContext, port: DemoPaymentsAdapter, ctx: RequestContext): Promise<void> {
  const em = app.get(EntityManager).fork();
  const enrollments = await em.find(
    Enrollment,
    { organization: ctx.organizationId, status: 'active', event: { startsAt: { $gt: new Date() } }, orderId: { $ne: null } },
    { populate: ['event', 'student'], orderBy: { event: { startsAt: 'asc' } } },
  );
  let eventId: string | null = null;
  for (const enrollment of enrollments) {
    if (eventId && enrollment.event.id !== eventId) break;
    const order = await em.findOne(Order, { id: enrollment.orderId!, totalCents: { $gt: 0 }, paymentIntentId: null });
    if (!order) continue;
    eventId = enrollment.event.id;
    // chargeThroughDemo names a throwaway order: this one is paid already, no payment handler should act on it.
    const payment = await chargeThroughDemo(port, ctx, enrollment.student, [{ name: enrollment.event.name, unitAmountCents: order.totalCents, quantity: 1 }]);
    if (!payment) continue;
    order.paymentIntentId = payment.paymentIntentId;
    order.receiptUrl = payment.receiptUrl;
  }
  await em.flush();
}
