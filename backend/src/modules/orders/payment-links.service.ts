import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES,
  formatCents,
  formatZonedDateTime,
  PAYMENT_LINK_MESSAGES,
  SESSION_CANCEL_MESSAGES,
  WORKBENCH_SOURCE,
  type OrderActivityAction,
} from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MailService } from '../notifications/mail.service';
import { Organization } from '../organizations/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { PaymentEvent, PaymentEvents } from '../payments/payment-events';
import { PaymentsPort } from '../payments/payments.port';
import { appointmentWhen } from '../scheduling/appointment-mailer';
import { AppointmentsService } from '../scheduling/appointments.service';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { StudentsService } from '../students/students.service';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvents } from './order-events';
import { OrdersService } from './orders.service';
import { RefundsService } from './refunds.service';
import { isUuid } from '../../common/uuid-param.pipe';
import { storeSession } from './store-session.query';

export const PAYMENT_LINK_QUEUE = 'payment-links';
export const EXPIRE_LINK_JOB = 'expire-link';
/** The expiry job runs this long after the link's expiry, so the provider has marked it expired too. */
const EXPIRY_GRACE_MS = 5_000;

/** The expiry job's payload: ids only. */
export interface ExpireLinkJob {
  orderId: string;
  organizationId: string;
}

export interface PaymentLinkSent {
  order_id: string;
  order_number: number;
  url: string;
  expires_at: string;
}

type Ended = 'payment_link_expired' | 'payment_link_cancelled';
type EndedEvent = Extract<PaymentEvent, { type: 'checkout.expired' | 'checkout.cancelled' }>;

/**
 * Payment links (Add student, "Send payment link"): a pending workbench order with a seat line, the
 * seat held until the link expires, a checkout with the provider, and the link mailed to the student.
 * The outcome arrives as a PaymentEvent (the demo page's Pay and Cancel, Stripe's webhooks) or from the
 * expiry job that asks the provider: paid enrolls the student; expired or cancelled fails the order
 * and frees the seat. An order's state only moves forward from pending, so a repeated or late event
 * changes nothing.
 */
@Injectable()
export class PaymentLinksService implements OnModuleInit {
  private readonly logger = new Logger('PaymentLinks');

  constructor(
    private readonly em: EntityManager,
    private readonly orders: OrdersService,
    private readonly students: StudentsService,
    private readonly organizations: OrganizationsService,
    private readonly seats: EnrollmentsService,
    private readonly activity: OrderActivityService,
    private readonly refunds: RefundsService,
    private readonly payments: PaymentsPort,
    private readonly events: PaymentEvents,
    private readonly orderEvents: OrderEvents,
    private readonly mail: MailService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly appointments: AppointmentsService,
  ) {}

  onModuleInit(): void {
    this.events.on('payment.succeeded', 'orders.payment-links', (e) =>
      this.paid(e.organizationId, e.orderId, e.sessionId, e.paymentIntentId, e.amountCents),
    );
    const endedBy = (action: Ended) => (e: EndedEvent) =>
      this.ended(e.organizationId, e.orderId, e.sessionId, action);
    this.events.on('checkout.expired', 'orders.payment-links', endedBy('payment_link_expired'));
    this.events.on('checkout.cancelled', 'orders.payment-links', endedBy('payment_link_cancelled'));
    // The link's own effects, from the transactions that make the link (the outbox): none is lost to
    // a crash right after a commit.
    this.orderEvents.on('payment_link.created', 'orders.payment-links', (e) =>
      this.scheduleExpiry(e.organizationId, e.orderId, new Date(e.expiresAt)),
    );
    this.orderEvents.on('payment_link.sent', 'orders.payment-links', (e) =>
      this.mailLink(e.organizationId, e.orderId, e.url),
    );
    this.queue.process(PAYMENT_LINK_QUEUE, async (job) => {
      if (job.name === EXPIRE_LINK_JOB) await this.reconcile(job.data as ExpireLinkJob);
    });
  }

  /**
   * Sends the student a payment link for the session. The order, its line and the held seat commit
   * together (under the session's seat lock), with payment_link.created (its expiry job is queued
   * from it: whatever happens next, the order is settled at the link's expiry); then the provider's
   * checkout is created (outside the lock) and recorded on the order with payment_link.sent (the
   * link is mailed from it).
   */
  async send(ctx: RequestContext, studentId: string, eventId: string): Promise<PaymentLinkSent> {
    const expiresAt = new Date(Date.now() + this.config.PAYMENT_LINK_TTL_HOURS * 3600_000);
    const { order, student } = await this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, studentId);
      const orderId = randomUUID();
      const held = await this.seats.hold(ctx, em, { student, eventId, orderId, expiresAt });
      // Thrown after the hold: the transaction rolls back, the seat with it.
      if (held.priceCents <= 0) throw new ApiError(HttpStatus.CONFLICT, PAYMENT_LINK_MESSAGES.freeSession);
      const order = em.create(Order, {
        id: orderId,
        organization: em.getReference(Organization, ctx.organizationId),
        orderNumber: await this.orders.nextOrderNumber(em, ctx.organizationId),
        student,
        status: 'pending',
        source: WORKBENCH_SOURCE,
        totalCents: held.priceCents,
        eventId,
        description: held.eventName,
        linkExpiresAt: expiresAt,
      });
      em.create(OrderLine, {
        order,
        kind: 'seat',
        eventId,
        description: held.eventName,
        unitPriceCents: held.priceCents,
      });
      await em.flush();
      await this.orderEvents.publish(em as EntityManager, {
        type: 'payment_link.created',
        organizationId: ctx.organizationId,
        orderId,
        expiresAt: expiresAt.toISOString(),
      });
      return { order, student };
    });
    return this.startCheckout(ctx, order, student, expiresAt);
  }

  /**
   * Sends the student a payment link for a held appointment (issue 22) at the course's price: the
   * pending order and its appointment line commit with the appointment linked to the order and its
   * hold kept until the link's expiry (payment_link.created in the same transaction); then the
   * checkout as for a session. Paid → booked (convertHold), expired or cancelled → the time freed
   * (releaseHold). 404 for another organization's student or appointment; 409 as enroll refuses an
   * appointment, or for a free course.
   */
  async sendAppointment(ctx: RequestContext, studentId: string, appointmentId: string): Promise<PaymentLinkSent> {
    const expiresAt = new Date(Date.now() + this.config.PAYMENT_LINK_TTL_HOURS * 3600_000);
    const { order, student } = await this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, studentId);
      const appointment = await this.appointments.lockForOrder(ctx, em as EntityManager, appointmentId, studentId);
      const view = await this.appointments.view(em as EntityManager, ctx.organizationId, appointment.id);
      const priceCents = Number(view.price_cents);
      if (priceCents <= 0) throw new ApiError(HttpStatus.CONFLICT, APPOINTMENT_MESSAGES.freeCourse);
      const description = `${view.course_name}, ${appointmentWhen(view.starts_at, view.time_zone)}`;
      const orderId = randomUUID();
      const order = em.create(Order, {
        id: orderId,
        organization: em.getReference(Organization, ctx.organizationId),
        orderNumber: await this.orders.nextOrderNumber(em as EntityManager, ctx.organizationId),
        student,
        status: 'pending',
        source: WORKBENCH_SOURCE,
        totalCents: priceCents,
        description,
        linkExpiresAt: expiresAt,
      });
      em.create(OrderLine, { order, kind: 'appointment', description, unitPriceCents: priceCents });
      await em.flush();
      // Scheduling's table: the appointment names its order, its time kept as long as the link.
      await this.appointments.attachOrder(em as EntityManager, appointment, orderId, expiresAt);
      await this.orderEvents.publish(em as EntityManager, {
        type: 'payment_link.created',
        organizationId: ctx.organizationId,
        orderId,
        expiresAt: expiresAt.toISOString(),
      });
      return { order, student };
    });
    return this.startCheckout(ctx, order, student, expiresAt);
  }

  /**
   * The provider's checkout for the link's order (outside any lock), recorded on the order with
   * payment_link.sent (the link is mailed from it); a refusal fails the order and frees what it held.
   */
  private async startCheckout(
    ctx: RequestContext,
    order: Order,
    student: { email: string },
    expiresAt: Date,
  ): Promise<PaymentLinkSent> {
    let checkout: { sessionId: string; url: string };
    try {
      // The buyer comes back to the studio's store (its own site, or PUBLIC_APP_URL/s/{slug}).
      // (No trailing slash: "/s/{slug}/" is not a store page, and the payer landed on the admin's sign-in: issue 25.)
      const back = this.organizations.storeUrl(await this.organizations.current(ctx));
      // The pay page names the session and when it is (issue 25: it did not say which session).
      const when = await this.sessionWhen(this.em, ctx.organizationId, order.eventId ?? null);
      checkout = await this.payments.createCheckout({
        organizationId: ctx.organizationId,
        orderId: order.id,
        lines: [{ name: `${order.description}${when ? `, ${when}` : ''}`.slice(0, 250), unitAmountCents: order.totalCents, quantity: 1 }],
        customerEmail: student.email,
        successUrl: back,
        cancelUrl: back,
        expiresAt,
      });
    } catch (error) {
      this.logger.error(`Checkout of order ${order.id} failed: ${(error as Error).message}`);
      await this.ended(
        ctx.organizationId,
        order.id,
        null,
        'payment_link_cancelled',
        'The payment provider refused the link',
      );
      throw new ApiError(HttpStatus.BAD_GATEWAY, PAYMENT_LINK_MESSAGES.providerFailed);
    }

    await this.em.fork().transactional(async (em) => {
      await em.nativeUpdate(Order, { id: order.id }, { checkoutSessionId: checkout.sessionId });
      this.activity.record(em, {
        organizationId: ctx.organizationId,
        orderId: order.id,
        action: 'payment_link_sent',
        actorUserId: ctx.userId,
        amountCents: order.totalCents,
        detail: student.email,
      });
      await this.orderEvents.publish(em as EntityManager, {
        type: 'payment_link.sent',
        organizationId: ctx.organizationId,
        orderId: order.id,
        url: checkout.url,
      });
    });
    return {
      order_id: order.id,
      order_number: order.orderNumber,
      url: checkout.url,
      expires_at: expiresAt.toISOString(),
    };
  }

  /** payment_link.created: the job that settles the link at its expiry (one per order, by its id). */
  private async scheduleExpiry(organizationId: string, orderId: string, expiresAt: Date): Promise<void> {
    await this.queue.add<ExpireLinkJob>(
      PAYMENT_LINK_QUEUE,
      EXPIRE_LINK_JOB,
      { orderId, organizationId },
      {
        jobId: `payment-link-expiry-${orderId}`,
        delayMs: Math.max(0, expiresAt.getTime() - Date.now()) + EXPIRY_GRACE_MS,
        attempts: 10,
        backoffMs: 30_000,
      },
    );
  }

  /** payment_link.sent: the link mailed to the student (once per order, by the mail's dedupe key). */
  private async mailLink(organizationId: string, orderId: string, url: string): Promise<void> {
    const em = this.em.fork();
    const order = await em.findOne(
      Order,
      { id: orderId, organization: organizationId },
      { populate: ['student', 'organization'] },
    );
    // Still worth mailing only while the link is open.
    if (!order || order.status !== 'pending' || !order.linkExpiresAt) return;
    const student = order.student;
    const organization = order.organization;
    const expiresAt = order.linkExpiresAt;
    // An appointment's link (issue 22) says which course, with whom and when (the location's zone).
    const appointment = await this.appointments.viewForOrder(em, organizationId, order.id);
    // A session's link says when the session is, in its location's zone (issue 25).
    const sessionWhen = appointment ? null : await this.sessionWhen(em, organizationId, order.eventId ?? null);
    const until = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: organization.timezone,
      timeZoneName: 'short',
    }).format(expiresAt);
    await this.mail.enqueue({
      to: student.email,
      subject: `Your payment link for ${oneLine(order.description)}`.slice(0, 300),
      text: [
        `Hello ${student.firstName},`,
        '',
        appointment
          ? `${organization.name} has saved you a time for ${appointment.course_name} with ${appointment.instructor_name}: ${appointmentWhen(appointment.starts_at, appointment.time_zone)}. To confirm it, pay ${formatCents(order.totalCents)} here:`
          : `${organization.name} has saved you a seat in ${order.description}${sessionWhen ? ` on ${sessionWhen}` : ''}. To confirm it, pay ${formatCents(order.totalCents)} here:`,
        '',
        url,
        '',
        `The link and your ${appointment ? 'time' : 'seat'} are held until ${until}.`,
      ].join('\n'),
      dedupeKey: `payment-link:${order.id}`,
    });
  }

  /** When a session is, as its mails say it: "Tue, Dec 15, 2026, 6:00 PM PST" in its location's zone; null for none. */
  private async sessionWhen(em: EntityManager, organizationId: string, eventId: string | null): Promise<string | null> {
    if (!eventId) return null;
    const session = await storeSession(em, organizationId, eventId, { bookable: false });
    if (!session) return null;
    return formatZonedDateTime(session.starts_at, session.timezone);
  }

  /**
   * The expiry job: asks the provider what became of the link and applies it. A link the provider
   * still calls open after its expiry throws, so the job is retried later.
   */
  async reconcile(job: ExpireLinkJob): Promise<void> {
    const order = await this.em.fork().findOne(Order, { id: job.orderId, organization: job.organizationId });
    if (!order || order.status !== 'pending') return;
    if (!order.checkoutSessionId) {
      await this.ended(job.organizationId, order.id, null, 'payment_link_expired');
      return;
    }
    const state = await this.payments.retrieveCheckout(order.checkoutSessionId);
    if (state.status === 'paid' && state.paymentIntentId) {
      await this.paid(
        job.organizationId,
        order.id,
        state.sessionId,
        state.paymentIntentId,
        state.amountTotalCents,
      );
    } else if (state.status === 'expired' || state.status === 'cancelled') {
      await this.ended(
        job.organizationId,
        order.id,
        state.sessionId,
        state.status === 'expired' ? 'payment_link_expired' : 'payment_link_cancelled',
      );
    } else if (!order.linkExpiresAt || order.linkExpiresAt.getTime() <= Date.now()) {
      throw new Error(
        `Checkout ${order.checkoutSessionId} of order ${order.id} is still open after its expiry`,
      );
    }
  }

  /**
   * Paid: pending → paid, the held seats become the enrollment, the receipt is kept. A payment that
   * completed after its hold ran out and its seats were taken books nothing: the session is never
   * overbooked, and the whole payment is refunded at once (RefundsService.refundUnseated) instead of
   * announcing the order as paid (no points, no booking confirmation).
   */
  private async paid(
    organizationId: string,
    orderId: string | null,
    sessionId: string,
    paymentIntentId: string,
    amountCents: number,
  ): Promise<void> {
    const receiptUrl = await this.payments.receiptUrl(paymentIntentId).catch((error: Error) => {
      this.logger.warn(`No receipt for ${paymentIntentId}: ${error.message}`);
      return null;
    });
    const unseated = await this.em.fork().transactional(async (em) => {
      const order = await this.lockedLinkOrder(em, organizationId, orderId, sessionId);
      if (!order) return null;
      order.status = 'paid';
      order.paymentIntentId = paymentIntentId;
      order.receiptUrl = receiptUrl;
      let refusal: string | null = null;
      try {
        // The held seat becomes the enrollment; scheduling announces it in this transaction.
        // An appointment's confirmation is its own for a payment link; a store order's is store_order.paid's.
        await this.seats.convertHold({ organizationId }, em, order.id, { confirmAppointment: !order.accessTokenHash });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // The payment completed as the hold ran out and the seats went to someone else.
        refusal = error.message;
        this.logger.warn(`Order ${order.id} paid without a seat: ${error.message}; refunding it`);
      }
      this.activity.record(em, {
        organizationId,
        orderId: order.id,
        action: 'payment_received',
        amountCents,
        detail: refusal ? `The student is not enrolled: ${refusal}. The payment is refunded.` : '',
      });
      await em.flush();
      if (refusal) return order.id;
      const lines = await em.find(OrderLine, { order: order.id });
      // Once per move to paid, with the move (the outbox): loyalty points and the like.
      await this.orderEvents.publish(em as EntityManager, {
        type: 'order.paid',
        organizationId,
        orderId: order.id,
        studentId: order.student.id,
        loyaltyPoints: lines.reduce((sum, l) => sum + l.loyaltyPoints * l.quantity, 0),
      });
      // A store order's confirmation (a payment link's order has none: the studio sent the link).
      if (order.accessTokenHash)
        await this.orderEvents.publish(em as EntityManager, { type: 'store_order.paid', organizationId, orderId: order.id });
      return null;
    });
    if (!unseated) return;
    // Outside the transaction (the provider is asked outside any): a failure here leaves the refund
    // requested in the ledger, which the refund reconciler finishes.
    await this.refunds.refundUnseated(organizationId, unseated).catch((error: Error) => {
      this.logger.error(`Refund of unseated order ${unseated} not finished now: ${error.message}`);
    });
  }

  /**
   * The studio cancelled the session (issue 23): every unpaid link (and store checkout) still holding
   * seats in it is cancelled as the payer's Cancel would: the order failed, its seats released,
   * order.failed announced (points it redeemed come back). Once: an order no longer pending is left
   * alone. A payment that completes anyway books nothing and is refunded in full (convertHold refuses
   * a cancelled session; paid() refunds what found no seat).
   */
  async cancelForSession(organizationId: string, eventId: string): Promise<number> {
    const pending = await this.em.getConnection().execute<{ id: string }[]>(
      `select id from customer_order
        where organization_id = ? and event_id = ? and status = 'pending' and link_expires_at is not null`,
      [organizationId, eventId],
    );
    for (const order of pending)
      await this.ended(organizationId, order.id, null, 'payment_link_cancelled', SESSION_CANCEL_MESSAGES.linkCancelled);
    return pending.length;
  }

  /** Expired or cancelled: pending → failed, the held seat is freed, order.failed announced. */
  private async ended(
    organizationId: string,
    orderId: string | null,
    sessionId: string | null,
    action: Ended,
    detail = '',
  ): Promise<void> {
    await this.em.fork().transactional(async (em) => {
      const order = await this.lockedLinkOrder(em, organizationId, orderId, sessionId);
      if (!order) return;
      order.status = 'failed';
      await this.seats.releaseHold({ organizationId }, em, order.id);
      this.activity.record(em, {
        organizationId,
        orderId: order.id,
        action: action satisfies OrderActivityAction,
        detail,
      });
      await em.flush();
      // With the move to failed (the outbox): the points a store order redeemed are given back.
      await this.orderEvents.publish(em as EntityManager, { type: 'order.failed', organizationId, orderId: order.id });
    });
  }

  /**
   * The pending payment-link order an outcome is about, locked, or null: unknown, another
   * organization's, another checkout's (an order is only moved by its own link), or no longer
   * pending (a repeat or a late event).
   */
  private async lockedLinkOrder(
    em: EntityManager,
    organizationId: string,
    orderId: string | null,
    sessionId: string | null,
  ): Promise<Order | null> {
    if (orderId !== null && !isUuid(orderId)) return null;
    if (orderId === null && sessionId === null) return null;
    const where = orderId
      ? { id: orderId, organization: organizationId }
      : { checkoutSessionId: sessionId, organization: organizationId };
    const order = await em.findOne(Order, where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!order || order.status !== 'pending' || !order.linkExpiresAt) return null;
    if (sessionId !== null && order.checkoutSessionId && order.checkoutSessionId !== sessionId) return null;
    return order;
  }
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();
