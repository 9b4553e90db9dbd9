import { Order } from '../../src/modules/orders/entities/order.entity';
import { OrdersService, type RecordedOrder } from '../../src/modules/orders/orders.service';
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

/**
 * An order of `lines` for the student as a payment link's buyer pays it on the demo provider's page:
 * recorded pending by the orders module, its page made by the demo provider (the real port) and
 * recorded on the order as a link's is. `pay` posts the page's Pay (again: a repeated click); the
 * payment settles the order (payment.succeeded, then the orders module's order.paid through the
 * outbox: points, grants). The way to a paid order of product lines, which no admin call sells.
 */
export async function demoPageOrder(
  t: TestApp,
  organizationId: string,
  input: { studentId: string; lines: RecordedOrder['lines']; source?: string },
): Promise<{ orderId: string; pay: () => Promise<void> }> {
  const ctx = { organizationId, userId: '', role: 'owner' as const, sessionId: 'test' };
  const pending = await t.withEm(() =>
    t.created.app.get(OrdersService).recordOrder(ctx, { studentId: input.studentId, status: 'pending', source: input.source ?? 'workbench', lines: input.lines }),
  );
  const expiresAt = new Date(Date.now() + 23 * 3600_000);
  const checkout = await t.created.app.get(PaymentsPort).createCheckout({
    organizationId,
    orderId: pending.id,
    lines: input.lines.map((l) => ({ name: l.description, unitAmountCents: l.unitPriceCents, quantity: l.quantity ?? 1 })),
    customerEmail: 'buyer@example.test',
    successUrl: 'http://studio.test/paid',
    cancelUrl: 'http://studio.test/cancelled',
    expiresAt,
  });
  await t.withEm((em) => em.nativeUpdate(Order, { id: pending.id }, { checkoutSessionId: checkout.sessionId, linkExpiresAt: expiresAt }));
  const page = new URL(checkout.url).pathname;
  return { orderId: pending.id, pay: async () => void (await t.http.post(`${page}/pay`).type('form').send('').expect(200)) };
}

/** An order of `lines` for the student, paid on the demo provider's page (demoPageOrder): its id, once paid. */
export async function paidOnDemoPage(
  t: TestApp,
  organizationId: string,
  input: { studentId: string; lines: RecordedOrder['lines']; source?: string },
): Promise<string> {
  const order = await demoPageOrder(t, organizationId, input);
  await order.pay();
  const paid = await t.withEm((em) => em.findOneOrFail(Order, { id: order.orderId }, { refresh: true }));
  if (paid.status !== 'paid') throw new Error(`order ${order.orderId} is ${paid.status} after its page was paid`);
  return order.orderId;
}

/**
 * A seat of the session bought the real way at the Stripe fake: the studio sends the student a
 * payment link (Send payment link: a pending order holding the seat, its Checkout Session at the
 * fake), the student pays it on Stripe's page and its webhooks are delivered (`deliverAll`): the
 * payment settles the order and the held seat becomes the enrollment.
 */
export async function paidSeatThroughLink(
  t: TestApp,
  fake: FakeStripe,
  deliverAll: (...events: Event[]) => Promise<void>,
  token: string,
  input: { studentId: string; eventId: string },
): Promise<{ enrollmentId: string; orderId: string; paymentIntentId: string }> {
  const link = (await t.http.post(`/api/admin/orders/invoice/${input.studentId}`).set('token', token).send({ event_id: input.eventId }).expect(201)).body;
  const sent = await t.withEm((em) => em.findOneOrFail(Order, { id: link.order_id }, { refresh: true }));
  const from = fake.events.length;
  fake.completeCheckout(sent.checkoutSessionId!);
  await deliverAll(...(fake.events.slice(from) as Event[]));
  const paid = await t.withEm((em) => em.findOneOrFail(Order, { id: link.order_id }, { refresh: true }));
  if (paid.status !== 'paid' || !paid.paymentIntentId) throw new Error(`order ${paid.id} is ${paid.status} after its link was paid`);
  const seats = (await t.http.get(`/api/admin/enrollment/event/${input.eventId}`).set('token', token).expect(200)).body.enrollments as {
    enrollment_id: string;
    student_id: string;
  }[];
  const seat = seats.find((e) => e.student_id === input.studentId);
  if (!seat) throw new Error(`no seat of ${input.studentId} after its link was paid`);
  return { enrollmentId: seat.enrollment_id, orderId: link.order_id as string, paymentIntentId: paid.paymentIntentId };
}
