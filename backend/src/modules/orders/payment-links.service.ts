import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES,
  formatCents,
  formatZonedDateTime,
  PAYMENT_LINK_MESSAGES,
  SESSION_CANCEL_MESSAGES,
  WORKBENCH_SOURCE,
} from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue';
import { MailService } from '../notifications/mail.service';
import { mailSubject } from '../notifications/mail-compose';
import { Organization } from '../organizations/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { PaymentsPort } from '../payments/payments.port';
import { appointmentWhen } from '../scheduling/appointment-mailer';
import { AppointmentReads } from '../scheduling/appointment-reads';
import { AppointmentsService } from '../scheduling/appointments.service';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { StudentsService } from '../students/students.service';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvents } from './order-events';
import { OrdersService } from './orders.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { storeSession } from './store-session.query';
import { crashPoint } from '../../common/crash-point';
import { EXPIRE_LINK_JOB, EXPIRY_GRACE_MS, ExpireLinkJob, linkRequestHash, PAGE_DEADLINE_JOB, PAYMENT_LINK_QUEUE } from './payment-link-jobs';
import { Clock } from '../../common/clock';

export { EXPIRE_LINK_JOB, PAGE_DEADLINE_JOB, PAYMENT_LINK_QUEUE } from './payment-link-jobs';
export type { ExpireLinkJob } from './payment-link-jobs';

export interface PaymentLinkSent {
  order_id: string;
  order_number: number;
  url: string;
  expires_at: string;
}

/**
 * Payment links (Add student, "Send payment link"): a pending workbench order with a seat line, the
 * seat held until the link expires, a checkout with the provider, and the link mailed to the student.
 * Also the jobs every pending order with a payment page has (store checkouts too): the expiry job that
 * asks the provider what became of the page at its expiry, and the page deadline (issue 31) that
 * releases the hold of an order whose page was never made. How a payment or an end is applied is
 * PaymentSettlementService's.
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
    private readonly settlement: PaymentSettlementService,
    private readonly payments: PaymentsPort,
    private readonly orderEvents: OrderEvents,
    private readonly mail: MailService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly appointments: AppointmentsService,
    private readonly appointmentReads: AppointmentReads,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // The link's own effects, from the transactions that make the link (the outbox): none is lost to
    // a crash right after a commit.
    this.orderEvents.on('payment_link.created', 'orders.payment-links', (e) =>
      this.scheduleExpiry(e.organizationId, e.orderId, new Date(e.expiresAt), e.pageDueBy ? new Date(e.pageDueBy) : null),
    );
    this.orderEvents.on('payment_link.sent', 'orders.payment-links', (e) =>
      this.mailLink(e.organizationId, e.orderId, e.url),
    );
    this.queue.process(PAYMENT_LINK_QUEUE, async (job) => {
      if (job.name === EXPIRE_LINK_JOB) await this.reconcile(job.data as ExpireLinkJob);
      if (job.name === PAGE_DEADLINE_JOB) {
        const { organizationId, orderId } = job.data as ExpireLinkJob;
        await this.settlement.pageDeadline(organizationId, orderId);
      }
    });
  }

  /**
   * Sends the student a payment link for the session. The order, its line and the held seat commit
   * together (under the session's seat lock), with payment_link.created (its expiry job is queued
   * from it: whatever happens next, the order is settled at the link's expiry); then the provider's
   * checkout is created (outside the lock) and recorded on the order with payment_link.sent (the
   * link is mailed from it).
   */
  async send(ctx: RequestContext, studentId: string, eventId: string, clientKey?: string): Promise<PaymentLinkSent> {
    const requestHash = linkRequestHash(ctx, clientKey);
    const resumed = await this.resumable(ctx, requestHash);
    if (resumed) return this.startCheckout(ctx, resumed, resumed.student, resumed.linkExpiresAt!);
    const expiresAt = this.clock.inMs(this.config.PAYMENT_LINK_TTL_HOURS * 3600_000);
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
        checkoutRequestHash: requestHash,
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
        pageDueBy: this.pageDueBy(),
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
  async sendAppointment(ctx: RequestContext, studentId: string, appointmentId: string, clientKey?: string): Promise<PaymentLinkSent> {
    const requestHash = linkRequestHash(ctx, clientKey);
    const resumed = await this.resumable(ctx, requestHash);
    if (resumed) return this.startCheckout(ctx, resumed, resumed.student, resumed.linkExpiresAt!);
    const expiresAt = this.clock.inMs(this.config.PAYMENT_LINK_TTL_HOURS * 3600_000);
    const { order, student } = await this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, studentId);
      const appointment = await this.appointments.lockForOrder(ctx, em as EntityManager, appointmentId, studentId);
      const view = await this.appointmentReads.view(em as EntityManager, ctx.organizationId, appointment.id);
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
        checkoutRequestHash: requestHash,
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
        pageDueBy: this.pageDueBy(),
      });
      return { order, student };
    });
    return this.startCheckout(ctx, order, student, expiresAt);
  }

  /** When a new order's payment page must be recorded by, or its hold is released (PAYMENT_PAGE_TIMEOUT_SECONDS from now). */
  pageDueBy(): string {
    return this.clock.inMs(this.config.PAYMENT_PAGE_TIMEOUT_SECONDS * 1000).toISOString();
  }

  /**
   * The pending link order an earlier call with the same Idempotency-Key made (its answer was lost:
   * the process died after the hold, before or after the page): resumed, so the retry answers the same
   * link instead of 409 "already waiting". Null without a key, or when none is pending.
   */
  private async resumable(ctx: RequestContext, requestHash: string | null): Promise<Order | null> {
    if (!requestHash) return null;
    return this.em.fork().findOne(
      Order,
      { organization: ctx.organizationId, checkoutRequestHash: requestHash, status: 'pending', accessTokenHash: null },
      { populate: ['student'] },
    );
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
    const sent = (url: string): PaymentLinkSent => ({
      order_id: order.id,
      order_number: order.orderNumber,
      url,
      expires_at: expiresAt.toISOString(),
    });
    // Resumed with its page recorded (and mailed then): the same link again, nothing mailed twice.
    if (order.checkoutSessionId && order.checkoutUrl) return sent(order.checkoutUrl);
    crashPoint('link.before-page');
    let checkout: { sessionId: string; url: string };
    try {
      // The buyer comes back to the studio's store (its own site, or PUBLIC_APP_URL/s/{slug}).
      // (No trailing slash: "/s/{slug}/" is not a store page, and the payer landed on the admin's sign-in: issue 25.)
      const back = this.organizations.storeUrl(await this.organizations.current(ctx));
      // The pay page names the session and when it is (issue 25: it did not say which session).
      const when = await this.sessionWhen(this.em, ctx.organizationId, order.eventId ?? null);
      // Keyed by the order and its expiry at the provider: a resumed call gets the same page.
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
      await this.settlement.failWithoutPage(ctx.organizationId, order.id, 'The payment provider refused the link');
      throw new ApiError(HttpStatus.BAD_GATEWAY, PAYMENT_LINK_MESSAGES.providerFailed);
    }
    // Recorded only while the order is pending, with the history line and payment_link.sent (the mail)
    // in the same transaction: a link is mailed only once its page is the order's.
    const { recorded } = await this.settlement.recordPage(ctx.organizationId, order.id, checkout, async (em) => {
      this.activity.record(em, {
        organizationId: ctx.organizationId,
        orderId: order.id,
        action: 'payment_link_sent',
        actorUserId: ctx.userId,
        amountCents: order.totalCents,
        detail: student.email,
      });
      await this.orderEvents.publish(em, { type: 'payment_link.sent', organizationId: ctx.organizationId, orderId: order.id, url: checkout.url });
    });
    if (!recorded) throw new ApiError(HttpStatus.CONFLICT, PAYMENT_LINK_MESSAGES.linkEnded);
    return sent(checkout.url);
  }

  /** payment_link.created: the job that settles the link at its expiry (one per order, by its id). */
  private async scheduleExpiry(organizationId: string, orderId: string, expiresAt: Date, pageDueBy: Date | null): Promise<void> {
    // The page deadline (issue 31): an order whose checkout died before its page releases its hold.
    if (pageDueBy)
      await this.queue.add<ExpireLinkJob>(
        PAYMENT_LINK_QUEUE,
        PAGE_DEADLINE_JOB,
        { orderId, organizationId },
        { jobId: `payment-page-deadline-${orderId}`, delayMs: Math.max(0, pageDueBy.getTime() - this.clock.nowMs()), attempts: 10, backoffMs: 10_000 },
      );
    await this.queue.add<ExpireLinkJob>(
      PAYMENT_LINK_QUEUE,
      EXPIRE_LINK_JOB,
      { orderId, organizationId },
      {
        jobId: `payment-link-expiry-${orderId}`,
        delayMs: Math.max(0, expiresAt.getTime() - this.clock.nowMs()) + EXPIRY_GRACE_MS,
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
    const appointment = await this.appointmentReads.viewForOrder(em, organizationId, order.id);
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
      subject: mailSubject`Your payment link for ${order.description}`,
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
   * The expiry job: asks the provider what became of the page and applies it. A page the provider
   * still calls open after its expiry throws, so the job is retried later. An order that ended
   * unpaid while its page stayed open (the session cancelled before the close reached the provider)
   * is asked too: a payment found there is recorded and refunded (issue 31: no payment is kept
   * without what it bought, even when its announcement was lost).
   */
  async reconcile(job: ExpireLinkJob): Promise<void> {
    const order = await this.em.fork().findOne(Order, { id: job.orderId, organization: job.organizationId });
    if (!order) return;
    const unpaidEnd = order.status === 'failed' && !order.paymentIntentId && order.checkoutSessionId;
    if (order.status !== 'pending' && !unpaidEnd) return;
    if (!order.checkoutSessionId) {
      await this.settlement.ended(job.organizationId, order.id, null, 'payment_link_expired');
      return;
    }
    const state = await this.payments.retrieveCheckout(order.checkoutSessionId);
    if (state.status === 'paid' && state.paymentIntentId) {
      await this.settlement.paid(job.organizationId, order.id, state.sessionId, state.paymentIntentId, state.amountTotalCents);
    } else if (state.status === 'expired' || state.status === 'cancelled') {
      await this.settlement.ended(
        job.organizationId,
        order.id,
        state.sessionId,
        state.status === 'expired' ? 'payment_link_expired' : 'payment_link_cancelled',
      );
    } else if (!order.linkExpiresAt || order.linkExpiresAt.getTime() <= this.clock.nowMs()) {
      throw new Error(`Checkout ${order.checkoutSessionId} of order ${order.id} is still open after its expiry`);
    }
  }

  /**
   * The studio cancelled the session (issue 23): every unpaid link (and store checkout) still holding
   * seats in it ends as the payer's Cancel would (the order failed, its seats released, order.failed
   * announced: points it redeemed come back), and its page is closed at the provider (issue 31). A
   * payment that completes anyway books nothing and is refunded in full (PaymentSettlementService).
   */
  async cancelForSession(organizationId: string, eventId: string): Promise<number> {
    const pending = await this.em.getConnection().execute<{ id: string }[]>(
      `select id from customer_order
        where organization_id = ? and event_id = ? and status = 'pending' and link_expires_at is not null`,
      [organizationId, eventId],
    );
    for (const order of pending)
      await this.settlement.ended(organizationId, order.id, null, 'payment_link_cancelled', SESSION_CANCEL_MESSAGES.linkCancelled, true);
    return pending.length;
  }
}

