import { Order } from '../../src/modules/orders/entities/order.entity';
import { OrdersService } from '../../src/modules/orders/orders.service';
import { PaymentsPort } from '../../src/modules/payments/payments.port';
import { TestApp } from '../test-app';
import { FakeStripe } from './fake-stripe';

type Event = Record<string, unknown> & { id: string };

/**
 * An order of a glaze kit earning `points`, paid the real way at the Stripe fake: recorded pending,
 * sent as a link (a Checkout Session naming it, recorded on the order), completed at the fake and its
 * webhooks delivered (`deliverAll` waits until they and what they announce are handled). The
 * payment settles the order, and the orders module's order.paid earns the points (the outbox).
 */
export async function paidThroughCheckout(
  t: TestApp,
  fake: FakeStripe,
  deliverAll: (...events: Event[]) => Promise<void>,
  org: { organizationId: string; userId: string },
  input: { studentId: string; cents: number; totalCents?: number; points: number },
): Promise<{ id: string; paymentIntentId: string }> {
  const ctx = { organizationId: org.organizationId, userId: org.userId, role: 'owner' as const, sessionId: 'test' };
  const pending = await t.withEm(() =>
    t.created.app.get(OrdersService).recordOrder(ctx, {
      studentId: input.studentId,
      status: 'pending',
      source: 'workbench',
      lines: [{ kind: 'product', description: 'Glaze kit', unitPriceCents: input.totalCents ?? input.cents, loyaltyPoints: input.points }],
    }),
  );
  const expiresAt = new Date(Date.now() + 23 * 3600_000);
  const checkout = await t.created.app.get(PaymentsPort).createCheckout({
    organizationId: org.organizationId,
    orderId: pending.id,
    lines: [{ name: 'Glaze kit', unitAmountCents: input.cents, quantity: 1 }],
    customerEmail: 'ana@example.test',
    successUrl: 'http://studio.test/paid',
    cancelUrl: 'http://studio.test/cancelled',
    expiresAt,
  });
  await t.withEm((em) => em.nativeUpdate(Order, { id: pending.id }, { checkoutSessionId: checkout.sessionId, linkExpiresAt: expiresAt }));
  const from = fake.events.length;
  fake.completeCheckout(checkout.sessionId);
  await deliverAll(...(fake.events.slice(from) as Event[]));
  const paid = await t.withEm((em) => em.findOneOrFail(Order, { id: pending.id }, { refresh: true }));
  if (paid.status !== 'paid' || !paid.paymentIntentId) throw new Error(`order ${pending.id} is ${paid.status} after its checkout was paid`);
  return { id: pending.id, paymentIntentId: paid.paymentIntentId };
}
