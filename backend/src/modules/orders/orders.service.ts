import { randomUUID } from 'node:crypto';
import { LockMode, QueryOrder, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  dateTimeInstant,
  splitTotal,
  encodeOrderCursor,
  ORDER_MESSAGES,
  parseDateTimeInput,
  type OrderCursor,
  type OrderLineKind,
  type OrderListQuery,
  type OrderSortField,
  type OrderStatus,
} from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { DiscountsService } from '../discounts/discounts.service';
import { LoyaltyLedgerService } from '../loyalty/loyalty-ledger.service';
import { Organization } from '../organizations/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { appointmentWhen } from '../scheduling/appointment-mailer';
import { AppointmentsService } from '../scheduling/appointments.service';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { EventsService } from '../scheduling/events.service';
import { WalletBookingService } from '../wallet/wallet-booking.service';
import { StudentsService } from '../students/students.service';
import { OrderFormSubmission } from './entities/order-form-submission.entity';
import { OrderLine } from './entities/order-line.entity';
import { OrderActivityService } from './order-activity.service';
import { statusAfterRefund } from './order-status';
import { SubscriptionsService } from './subscriptions.service';
import { RefundsService } from './refunds.service';
import { Order } from './entities/order.entity';

/** ORDER BY of each sort of the Orders page; the id breaks ties so pages never overlap. */
const ORDER_SORT_SQL: Record<OrderSortField, (dir: 'asc' | 'desc') => string> = {
  created_at: (dir) => `o.created_at ${dir}, o.id ${dir}`,
  order_number: (dir) => `o.order_number ${dir}, o.id ${dir}`,
  total: (dir) => `o.total_cents ${dir}, o.id ${dir}`,
};

/** The sort key of each sort as an exact integer: the cursor carries it (created_at in microseconds). */
const ORDER_SORT_KEY_SQL: Record<OrderSortField, string> = {
  created_at: `(extract(epoch from o.created_at) * 1000000)::bigint`,
  order_number: 'o.order_number',
  total: 'o.total_cents',
};

/** Rows after the cursor's row in the sort's order, on the same indexes as the sort (keyset paging). */
function keysetClause(cursor: OrderCursor): { sql: string; params: unknown[] } {
  const op = cursor.o === 'desc' ? '<' : '>';
  switch (cursor.f) {
    case 'created_at':
      return {
        sql: `(o.created_at, o.id) ${op} (timestamptz 'epoch' + ?::float8 * interval '1 microsecond', ?::uuid)`,
        params: [cursor.k, cursor.id],
      };
    case 'order_number':
      // Unique in the organization: the number alone orders the rows.
      return { sql: `o.order_number ${op} ?`, params: [cursor.k] };
    case 'total':
      return { sql: `(o.total_cents, o.id) ${op} (?, ?::uuid)`, params: [cursor.k, cursor.id] };
  }
}

/** An order as recorded by `recordOrder`: the total is the sum of its lines. */
export interface RecordedOrder {
  studentId: string;
  status: OrderStatus;
  source: string;
  refundedCents?: number;
  paymentIntentId?: string | null;
  receiptUrl?: string | null;
  createdAt?: Date;
  lines: {
    kind: OrderLineKind;
    eventId?: string | null;
    productId?: string | null;
    productPriceId?: string | null;
    description: string;
    unitPriceCents: number;
    quantity?: number;
    discountCents?: number;
    loyaltyPoints?: number;
  }[];
}

type OrderListRow = {
  id: string;
  order_number: number;
  status: Order['status'];
  source: string;
  total_cents: number;
  refunded_cents: number;
  created_at: Date;
  sort_key: string | number;
  student_id: string;
  first_name: string;
  last_name: string;
  email: string;
};

/** Thrown inside recordExternalSale's transaction to roll it back when the sale was recorded meanwhile. */
class DuplicateExternalSale extends Error {
  constructor(readonly orderId: string) {
    super('duplicate external sale');
  }
}

/** Rolls recordExternalSale's transaction back when the sale cannot be seated. */
class ExternalSaleNotRecorded extends Error {
  constructor(readonly outcome: { kind: 'overbooked'; seatsLeft: number } | { kind: 'gone' }) {
    super(outcome.kind);
  }
}

/** Orders: the order drawer, the Orders page, and the direct-enroll order. Enrolling directly from the back office is a free order from source workbench. */
@Injectable()
export class OrdersService {
  constructor(
    private readonly em: EntityManager,
    private readonly students: StudentsService,
    private readonly enrollments: EnrollmentsService,
    private readonly activity: OrderActivityService,
    private readonly subscriptions: SubscriptionsService,
    private readonly refunds: RefundsService,
    private readonly organizations: OrganizationsService,
    private readonly discounts: DiscountsService,
    private readonly ledger: LoyaltyLedgerService,
    private readonly appointments: AppointmentsService,
    private readonly events: EventsService,
    private readonly walletBooking: WalletBookingService,
  ) {}

  /** Next order number of the organization; the counter row serialises concurrent orders. */
  async nextOrderNumber(em: EntityManager, organizationId: string): Promise<number> {
    const [row] = await em.execute<{ last_number: number }[]>(
      `insert into order_counter (organization_id, last_number) values (?, 1001)
       on conflict (organization_id) do update set last_number = order_counter.last_number + 1
       returning last_number`,
      [organizationId],
    );
    return Number(row.last_number);
  }

  /**
   * Enrolls the student in the session with a zero-total workbench order, in one transaction. With
   * `holdingId` (issue 24) the seat is booked on the student's membership or class pack: checked
   * under the student's wallet lock before the seat lock, and its use (naming the enrollment and the
   * order) written in the same transaction; a refused use writes nothing (404/409 from the wallet).
   */
  async enrollDirectly(ctx: RequestContext, studentId: string, eventId: string, holdingId?: string) {
    // A student of another organization (404), or a full session (most attempts when a class is in
    // demand), is refused here by one read, without a transaction or a wait on the seat lock; this
    // read may only refuse, enroll() decides in the lock.
    const refusal = await this.enrollments.refusalBeforeLock(ctx, studentId, eventId);
    if (refusal) throw refusal;
    const activityId = holdingId ? await this.events.activityOf(ctx.organizationId, eventId) : null;
    if (holdingId && !activityId) throw notFound('Event not found');
    const result = await this.em.transactional(async (em) => {
      const enrollment = await this.enrollments.enroll(ctx, em, studentId, eventId);
      // The holding, checked under the student's wallet lock taken after the session's seat lock
      // (the order every booking path takes them in, so two never wait on each other).
      const wallet = holdingId && activityId ? await this.walletBooking.check(ctx, em, { studentId, holdingId, activityId, partySize: 1 }) : null;
      const name = enrollment.eventName;
      // The order and its seat line in one statement that also takes the next number: the counter
      // row serialises every order of the organization until commit, so it is taken last, right
      // before the enrollment's link and the commit (numbers stay without gaps).
      const orderId = randomUUID();
      const [row] = await em.execute<{ order_number: number }[]>(
        `with n as (
           insert into order_counter (organization_id, last_number) values (?, 1001)
           on conflict (organization_id) do update set last_number = order_counter.last_number + 1
           returning last_number
         ), o as (
           insert into customer_order (id, organization_id, order_number, student_id, status, source, total_cents, event_id, description, created_at)
           select ?, ?, n.last_number, ?, 'paid', 'workbench', 0, ?, ?, ? from n
           returning id, order_number
         ), l as (
           insert into order_line (id, order_id, position, kind, event_id, description, unit_price_cents, quantity)
           select ?, o.id, 0, 'seat', ?, ?, 0, 1 from o
         )
         select order_number from o`,
        [ctx.organizationId, orderId, ctx.organizationId, studentId, eventId, name, new Date(), randomUUID(), eventId, name],
      );
      // The enrollment's link to its order belongs to the scheduling module (it owns the table):
      // one update right after the order exists, then the commit.
      await this.enrollments.linkOrder(ctx, em, enrollment.id, orderId);
      if (holdingId && wallet) await this.walletBooking.use(ctx, em, { studentId, holdingId, amount: wallet.amount, enrollmentId: enrollment.id, orderId });
      return {
        enrollment,
        order: { id: orderId, orderNumber: Number(row.order_number), totalCents: 0, source: 'workbench' as const },
      };
    });
    return result;
  }

  /**
   * Enrolls the student directly in a held appointment (issue 22): the appointment booked (its
   * confirmation mailed) and a zero-total workbench order with an appointment line, in one
   * transaction; the appointment names the order (AppointmentsService.attachOrder: scheduling owns
   * that table). 404 for another organization's student or appointment; 409 when the appointment is
   * for another student, already has an order, is no longer held or its hold ran out. With
   * `holdingId` (issue 24) it is booked on the student's membership (1 booking) or class pack (a
   * credit per person), its use written in the same transaction under the student's wallet lock.
   */
  async enrollAppointment(ctx: RequestContext, studentId: string, appointmentId: string, holdingId?: string) {
    await this.students.requireStudent(ctx, studentId);
    return this.em.transactional(async (em) => {
      const appointment = await this.appointments.lockForOrder(ctx, em, appointmentId, studentId);
      const wallet = holdingId
        ? await this.walletBooking.check(ctx, em, { studentId, holdingId, activityId: appointment.activityId, partySize: 1 + appointment.guestCount })
        : null;
      const view = await this.appointments.view(em, ctx.organizationId, appointment.id);
      const description = `${view.course_name}, ${appointmentWhen(view.starts_at, view.time_zone)}`;
      const orderId = randomUUID();
      // The order and its line in one statement that takes the next number last (as enrollDirectly).
      const [row] = await em.execute<{ order_number: number }[]>(
        `with n as (
           insert into order_counter (organization_id, last_number) values (?, 1001)
           on conflict (organization_id) do update set last_number = order_counter.last_number + 1
           returning last_number
         ), o as (
           insert into customer_order (id, organization_id, order_number, student_id, status, source, total_cents, description, created_at)
           select ?, ?, n.last_number, ?, 'paid', 'workbench', 0, ?, ? from n
           returning id, order_number
         ), l as (
           insert into order_line (id, order_id, position, kind, description, unit_price_cents, quantity)
           select ?, o.id, 0, 'appointment', ?, 0, 1 from o
         )
         select order_number from o`,
        [ctx.organizationId, orderId, ctx.organizationId, studentId, description, new Date(), randomUUID(), description],
      );
      await this.appointments.attachOrder(em, appointment, orderId);
      await this.appointments.book(ctx, em, appointment.id, { confirm: true });
      if (holdingId && wallet) await this.walletBooking.use(ctx, em, { studentId, holdingId, amount: wallet.amount, appointmentId: appointment.id, orderId });
      return {
        appointmentId: appointment.id,
        order: { id: orderId, orderNumber: Number(row.order_number), totalCents: 0, source: 'workbench' as const },
      };
    });
  }

  /**
   * An order sold on another platform (source `eventbrite`): the buyer becomes (or is) a student,
   * enrolled with the seats bought under the session's seat lock, with a paid order of that source.
   * Idempotent per external id: the same sale again answers `duplicate`. A sale the session has no
   * seats left for writes nothing and answers `overbooked` (the sync module records the conflict).
   */
  async recordExternalSale(
    ctx: Pick<RequestContext, 'organizationId'>,
    input: {
      source: 'eventbrite';
      externalId: string;
      eventId: string;
      buyer: { first_name: string; last_name: string; email: string };
      seats: number;
      totalCents: number;
      createdAt?: Date;
    },
  ): Promise<
    | { kind: 'recorded'; orderId: string; enrollmentId: string }
    | { kind: 'duplicate'; orderId: string }
    | { kind: 'overbooked'; seatsLeft: number }
    | { kind: 'gone' }
  > {
    const result = await this.em.transactional(async (em) => {
      const known = () =>
        em.findOne(Order, { organization: ctx.organizationId, source: input.source, externalId: input.externalId });
      const before = await known();
      if (before) return { kind: 'duplicate' as const, orderId: before.id };
      const student = await this.students.findOrCreateByEmail(ctx, em, input.buyer);
      const seat = await this.enrollments.enrollExternal(ctx, em, student, input.eventId, input.seats);
      // Nothing is kept (not even the buyer's new student row) when no seat is sold; a second
      // delivery of a sale recorded while it waited for the lock is that sale, not a conflict.
      if (seat.kind !== 'enrolled') {
        const recorded = await known();
        if (recorded) throw new DuplicateExternalSale(recorded.id);
        throw new ExternalSaleNotRecorded(seat);
      }
      // Inside the lock: a second delivery of the same sale waited here and now sees the first.
      const raced = await known();
      if (raced) throw new DuplicateExternalSale(raced.id);
      const name = seat.enrollment.event.name;
      const order = em.create(Order, {
        organization: em.getReference(Organization, ctx.organizationId),
        orderNumber: await this.nextOrderNumber(em, ctx.organizationId),
        student,
        status: 'paid',
        source: input.source,
        externalId: input.externalId,
        totalCents: input.totalCents,
        eventId: input.eventId,
        description: name,
        createdAt: input.createdAt ?? new Date(),
      });
      // The seats as lines that sum to the total to the cent (the remainder on one line).
      for (const line of splitTotal(input.totalCents, input.seats))
        em.create(OrderLine, { order, kind: 'seat', eventId: input.eventId, description: name, ...line });
      await em.flush();
      await this.enrollments.linkOrder(ctx, em, seat.enrollment.id, order.id, { keepExisting: true });
      return { kind: 'recorded' as const, orderId: order.id, enrollmentId: seat.enrollment.id, enrollment: seat.enrollment };
    }).catch(async (error: unknown) => {
      if (error instanceof DuplicateExternalSale) return { kind: 'duplicate' as const, orderId: error.orderId };
      if (error instanceof ExternalSaleNotRecorded) return error.outcome;
      if (error instanceof UniqueConstraintViolationException) {
        const order = await this.em.fork().findOne(Order, { organization: ctx.organizationId, source: input.source, externalId: input.externalId });
        if (order) return { kind: 'duplicate' as const, orderId: order.id };
      }
      throw error;
    });
    if (result.kind === 'recorded') return { kind: 'recorded', orderId: result.orderId, enrollmentId: result.enrollmentId };
    return result;
  }

  /**
   * A sale recorded by recordExternalSale was refunded or cancelled on the other platform: its seats
   * are given back (the buyer's party shrinks, their enrollment is removed when no seat is left)
   * and the order is marked refunded, with a line in its history, in one transaction under the
   * session's seat lock, the lock enrolment takes. Idempotent: an order already refunded answers
   * `already` and changes nothing; a sale never recorded answers `unknown`.
   */
  async releaseExternalSale(
    ctx: Pick<RequestContext, 'organizationId'>,
    input: {
      source: 'eventbrite';
      externalId: string;
      reason: string;
      /**
       * Only some seats of the sale: `seats` of them go, the order's refunded amount becomes
       * `refundedCents` (what those tickets cost, never above the total) and its status
       * partial_refund. `claim` is the caller's own check and change, in this transaction under the
       * order's lock: false means another delivery did it already, and nothing changes.
       */
      partial?: { seats: number; refundedCents: number; claim: (em: EntityManager) => Promise<boolean> };
    },
  ): Promise<{ kind: 'released'; orderId: string; enrollment: 'released' | 'removed' | 'nothing_held' } | { kind: 'already'; orderId: string } | { kind: 'unknown' }> {
    const found = await this.em.findOne(Order, { organization: ctx.organizationId, source: input.source, externalId: input.externalId });
    if (!found) return { kind: 'unknown' };
    // Read without a lock, this may only say "nothing to do"; the transaction decides.
    if (found.status === 'refunded') return { kind: 'already', orderId: found.id };
    const seatLines = await this.em.find(OrderLine, { order: found.id, kind: 'seat' });
    const partial = input.partial;
    const seats = partial ? partial.seats : Math.max(1, seatLines.reduce((sum, l) => sum + (l.quantity ?? 1), 0));
    const result = await this.em.transactional(async (em) => {
      const claim = async () => {
        const order = await em.findOne(Order, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (!order || order.status === 'refunded') return false;
        if (partial && !(await partial.claim(em))) return false;
        const refundedTo = partial ? Math.min(order.totalCents, Math.max(order.refundedCents, partial.refundedCents)) : order.totalCents;
        const amount = refundedTo - order.refundedCents;
        order.status = statusAfterRefund(order.totalCents, refundedTo, order.status, partial ? 'part' : 'whole');
        order.refundedCents = refundedTo;
        this.activity.record(em, {
          organizationId: ctx.organizationId,
          orderId: order.id,
          action: 'refund',
          amountCents: amount,
          detail: input.reason,
        });
        await em.flush();
        return true;
      };
      if (!found.eventId) {
        return (await claim())
          ? { kind: 'released' as const, orderId: found.id, enrollment: 'nothing_held' as const, removed: null }
          : { kind: 'already' as const, orderId: found.id };
      }
      const released = await this.enrollments.releaseExternal(
        ctx,
        em,
        { eventId: found.eventId, studentId: found.student.id, seats },
        claim,
      );
      if (released.outcome === 'not_claimed') return { kind: 'already' as const, orderId: found.id };
      return { kind: 'released' as const, orderId: found.id, enrollment: released.outcome, removed: released.removed };
    });
    if (result.kind === 'already') return result;
    return { kind: 'released', orderId: result.orderId, enrollment: result.enrollment };
  }

  /**
   * Records an order with its lines as it stands (the demo data, and the synced orders later).
   * The number comes from the organization's counter.
   */
  async recordOrder(ctx: RequestContext, input: RecordedOrder) {
    return this.em.transactional(async (em) => {
      const student = await this.students.requireStudent(ctx, input.studentId);
      const total = input.lines.reduce((sum, l) => sum + l.unitPriceCents * (l.quantity ?? 1) - (l.discountCents ?? 0), 0);
      const order = em.create(Order, {
        organization: em.getReference(Organization, ctx.organizationId),
        orderNumber: await this.nextOrderNumber(em, ctx.organizationId),
        student,
        status: input.status,
        source: input.source,
        totalCents: total,
        refundedCents: input.refundedCents ?? 0,
        eventId: input.lines.find((l) => l.kind === 'seat')?.eventId ?? null,
        description: input.lines.map((l) => l.description).join(', '),
        paymentIntentId: input.paymentIntentId ?? null,
        receiptUrl: input.receiptUrl ?? null,
        createdAt: input.createdAt ?? new Date(),
      });
      input.lines.forEach((line, position) => em.create(OrderLine, { ...line, order, position }));
      await em.flush();
      return order;
    });
  }

  /**
   * A booking moved to another session (issue 23: rescheduled, or moved by the studio): the payment
   * moves with it, so its order's seat line (and the order's session) name the new session, in the
   * caller's transaction (the one that moved the seat). Only the line that named the old session
   * moves; doing it twice changes nothing.
   */
  async moveBookingLine(
    em: EntityManager,
    organizationId: string,
    orderId: string,
    move: { fromEventId: string; toEventId: string; description: string },
  ): Promise<void> {
    const [order] = await em.execute<{ id: string }[]>(
      `update customer_order set event_id = ?, description = ?
        where id = ? and organization_id = ? and (event_id = ? or event_id = ?) returning id`,
      [move.toEventId, move.description, orderId, organizationId, move.fromEventId, move.toEventId],
    );
    if (!order) return;
    await em.execute(
      `update order_line set event_id = ?, description = ? where order_id = ? and kind = 'seat' and event_id = ?`,
      [move.toEventId, move.description, orderId, move.fromEventId],
    );
  }

  /** Gives every order of the organization that has a session and no line its seat line (orders made before lines existed). */
  async addMissingSeatLines(organizationId: string): Promise<void> {
    await this.em.execute(
      `insert into order_line (id, order_id, position, kind, event_id, description, unit_price_cents, quantity)
       select gen_random_uuid(), o.id, 0, 'seat', o.event_id, o.description, o.total_cents, 1
       from customer_order o
       where o.organization_id = ? and o.event_id is not null
         and not exists (select 1 from order_line l where l.order_id = o.id)`,
      [organizationId],
    );
  }

  /** One order of the caller's organization with its lines and student (spec 001 §3); another organization's answers 404. */
  async get(ctx: RequestContext, id: string) {
    const order = await this.em.findOne(Order, { id, organization: ctx.organizationId }, { populate: ['student'] });
    if (!order) throw notFound(ORDER_MESSAGES.notFound);
    const [lines, activity, subscriptions, refunds, submissions, discount, pointsRedeemed] = await Promise.all([
      this.em.find(OrderLine, { order: order.id }, { orderBy: { position: 'asc', id: 'asc' } }),
      this.activity.list(ctx.organizationId, { orderId: order.id }),
      this.subscriptions.listForOrder(ctx.organizationId, order.id),
      this.refunds.list(ctx.organizationId, order.id),
      this.em.find(
        OrderFormSubmission,
        { order: order.id, organization: ctx.organizationId },
        { orderBy: { ticket: QueryOrder.ASC_NULLS_FIRST, createdAt: 'asc', id: 'asc' } },
      ),
      order.discountCodeId ? this.discounts.findById(ctx.organizationId, order.discountCodeId) : null,
      this.ledger.redeemedForOrder(ctx.organizationId, order.id),
    ]);
    const appointment = await this.appointments.viewForOrder(this.em, ctx.organizationId, order.id);
    const s = order.student;
    return {
      order_id: order.id,
      order_number: order.orderNumber,
      status: order.status,
      source: order.source,
      description: order.description,
      total: order.totalCents,
      refunded_amount: order.refundedCents,
      stripe_payment_intent_id: order.paymentIntentId ?? null,
      paymentIntent: order.paymentIntentId || order.receiptUrl ? { charges: { receipt_url: order.receiptUrl ?? null } } : null,
      created_at: order.createdAt.toISOString(),
      discount_code: discount?.code ?? null,
      points_redeemed: pointsRedeemed,
      Subscription: subscriptions,
      submissions: submissions.map((f) => ({
        submission_id: f.id,
        created_at: f.createdAt.toISOString(),
        ticket: f.ticket ?? null,
        answers: f.answers.map((a) => ({ label: a.label, value: a.value })),
      })),
      Student: { student_id: s.id, first_name: s.firstName, last_name: s.lastName, email: s.email, phone: s.phone ?? null },
      lines: lines.map((l) => ({
        line_id: l.id,
        kind: l.kind,
        event_id: l.eventId ?? null,
        product_id: l.productId ?? null,
        product_price_id: l.productPriceId ?? null,
        description: l.description,
        unit_price: l.unitPriceCents,
        quantity: l.quantity,
        discount: l.discountCents,
        total: l.unitPriceCents * l.quantity - l.discountCents,
        loyalty_points: l.loyaltyPoints,
      })),
      activity,
      refunds,
      appointment: appointment
        ? {
            appointment_id: appointment.id,
            activity_id: appointment.activity_id,
            course_name: appointment.course_name,
            starts_at: new Date(appointment.starts_at).toISOString(),
            ends_at: new Date(appointment.ends_at).toISOString(),
            time_zone: appointment.time_zone,
            status: appointment.status,
          }
        : null,
    };
  }

  /**
   * A page of the organization's orders: search (order number, student name or email), filters
   * (status, source, created range), sort and paging, all in SQL on the indexes of the order-details migration.
   */
  async list(ctx: RequestContext, query: OrderListQuery) {
    const clauses = ['o.organization_id = ?'];
    const params: unknown[] = [ctx.organizationId];
    const term = query.search?.toLowerCase();
    if (term) {
      const number = /^#?\d{1,9}$/.test(term) ? Number(term.replace('#', '')) : null;
      const byName = `lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`;
      if (number !== null) {
        clauses.push(`(o.order_number = ? or ${byName})`);
        params.push(number);
      } else clauses.push(byName);
      params.push(`%${likeEscape(term)}%`);
    }
    if (query.status) {
      clauses.push('o.status = ?');
      params.push(query.status);
    }
    if (query.source) {
      clauses.push('o.source = ?');
      params.push(query.source);
    }
    // A wall-clock bound ("2026-01-31T00:00") is read in the organization's zone.
    const wallClock = [query.created_from, query.created_to].some((d) => d && parseDateTimeInput(d)?.kind === 'wall');
    const zone = wallClock ? (await this.organizations.current(ctx)).timezone : null;
    if (query.created_from) {
      clauses.push('o.created_at >= ?');
      params.push(dateTimeInstant(query.created_from, zone));
    }
    if (query.created_to) {
      clauses.push('o.created_at < ?');
      params.push(dateTimeInstant(query.created_to, zone));
    }
    const from = 'customer_order o join student s on s.id = o.student_id';
    const where = clauses.join(' and ');
    const connection = this.em.getConnection();
    // With a cursor the page starts after its row (no OFFSET) and the count is not run again: the
    // page keeps the total of the first page it showed.
    const keyset = query.cursor ? keysetClause(query.cursor) : null;
    const [rows, count] = await Promise.all([
      connection.execute<OrderListRow[]>(
        `select o.id, o.order_number, o.status, o.source, o.total_cents, o.refunded_cents, o.created_at,
                s.id as student_id, s.first_name, s.last_name, s.email, ${ORDER_SORT_KEY_SQL[query.sortField]} as sort_key
         from ${from} where ${where}${keyset ? ` and ${keyset.sql}` : ''}
         order by ${ORDER_SORT_SQL[query.sortField](query.sortOrder)} limit ?${keyset ? '' : ' offset ?'}`,
        keyset ? [...params, ...keyset.params, query.limit] : [...params, query.limit, (query.page - 1) * query.limit],
      ),
      keyset ? null : connection.execute<{ total: string }[]>(`select count(*) as total from ${from} where ${where}`, params),
    ]);
    const last = rows.length === query.limit ? rows[rows.length - 1] : undefined;
    return {
      items: rows.map((r) => ({
        order_id: r.id,
        order_number: Number(r.order_number),
        status: r.status,
        source: r.source,
        total: Number(r.total_cents),
        refunded_amount: Number(r.refunded_cents),
        created_at: new Date(r.created_at).toISOString(),
        Student: { student_id: r.student_id, first_name: r.first_name, last_name: r.last_name, email: r.email },
      })),
      total: count ? Number(count[0].total) : null,
      nextCursor: last
        ? encodeOrderCursor({ f: query.sortField, o: query.sortOrder, k: Number(last.sort_key), id: last.id })
        : null,
    };
  }
}
