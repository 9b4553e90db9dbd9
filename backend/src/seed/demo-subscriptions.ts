import { INestApplicationContext } from '@nestjs/common';
import { productListQuerySchema } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { RequestContext } from '../common/request-context';
import { OrdersService } from '../modules/orders/orders.service';
import { SubscriptionsService } from '../modules/orders/subscriptions.service';
import { DemoPaymentsAdapter } from '../modules/payments/demo/demo-payments.adapter';
import { PaymentsPort } from '../modules/payments/payments.port';
import { ProductsService } from '../modules/products/products.service';
import { StudentsService } from '../modules/students/students.service';

const DAY = 86400000;

/** Calendar months later, as a monthly plan bills. */
function monthsLater(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * Subscriptions of the demo studio's subscription product, on the built-in demo provider: an active
 * one with three paid invoices, bought with an order (so the order drawer lists it), and a cancelled
 * one (cancelled by the owner, so its history says who). Skipped when Stripe is configured: the demo
 * ledger is then not the provider that would cancel them.
 */
export async function seedDemoSubscriptions(app: INestApplicationContext, ctx: RequestContext): Promise<void> {
  const port = app.get(PaymentsPort);
  if (!(port instanceof DemoPaymentsAdapter)) return;
  const { items: products } = await app.get(ProductsService).list(ctx, productListQuerySchema.parse({ page: 1, limit: 20 }));
  const plan = products.find((p) => p.category === 'subscription' && p.renewal_interval_unit);
  const { students } = await app.get(StudentsService).list(ctx, { page: 1, limit: 12 });
  if (!plan || students.length < 2) return;
  const subscriptions = app.get(SubscriptionsService);
  const interval = { intervalUnit: plan.renewal_interval_unit!, intervalCount: plan.renewal_interval_quantity ?? 1 };

  const open = async (studentId: string, startedAt: Date, orderId: string | null) => {
    const providerSubscriptionId = await port.openSubscription(ctx.organizationId, plan.unit_price, startedAt);
    const sub = await subscriptions.open(ctx, {
      studentId,
      orderId,
      productId: plan.product_id,
      planName: plan.name,
      amountCents: plan.unit_price,
      ...interval,
      provider: 'demo',
      providerSubscriptionId,
      currentPeriodEnd: monthsLater(startedAt, 3),
      createdAt: startedAt,
    });
    return { sub, providerSubscriptionId };
  };
  const paid = (providerSubscriptionId: string, paidAt: Date) =>
    subscriptions.recordInvoice({
      type: 'subscription.invoice_paid',
      provider: 'demo',
      providerSubscriptionId,
      organizationId: ctx.organizationId,
      providerInvoiceId: `din_${randomBytes(12).toString('hex')}`,
      amountCents: plan.unit_price,
      currency: 'usd',
      paidAt,
      hostedInvoiceUrl: null,
      periodEnd: null,
    });

  // Active: bought with an order 70 days ago, billed monthly since (three paid invoices).
  const start = new Date(Date.now() - 70 * DAY);
  const order = await app.get(OrdersService).recordOrder(ctx, {
    studentId: students[0].id,
    status: 'paid',
    source: 'workbench',
    createdAt: start,
    lines: [{ kind: 'product', productId: plan.product_id, description: plan.name, unitPriceCents: plan.unit_price, loyaltyPoints: plan.earned_loyalty_points ?? 0 }],
  });
  const active = await open(students[0].id, start, order.id);
  for (const month of [0, 1, 2]) await paid(active.providerSubscriptionId, monthsLater(start, month));

  // Cancelled by the owner after one paid month.
  const cancelledStart = new Date(Date.now() - 40 * DAY);
  const cancelled = await open(students[1].id, cancelledStart, null);
  await paid(cancelled.providerSubscriptionId, cancelledStart);
  await subscriptions.cancel(ctx, cancelled.sub.id);
}
