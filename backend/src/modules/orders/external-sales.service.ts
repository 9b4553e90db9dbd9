import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { splitTotal } from '@studio/contracts';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { StudentsService } from '../students/students.service';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { statusAfterRefund } from './order-status';
import { OrdersService } from './orders.service';

/*
 * Sales made on another platform (Eventbrite, through the sync module): recorded as paid orders of
 * that source with the buyer enrolled under the session's seat lock, once per external id, and
 * released (seats given back, the order marked refunded) when the platform refunds them.
 */

/** Thrown inside record's transaction to roll it back when the sale was recorded meanwhile. */
class DuplicateExternalSale extends Error {
  constructor(readonly orderId: string) {
    super('duplicate external sale');
  }
}

/** Rolls record's transaction back when the sale cannot be seated. */
class ExternalSaleNotRecorded extends Error {
  constructor(readonly outcome: { kind: 'overbooked'; seatsLeft: number } | { kind: 'gone' }) {
    super(outcome.kind);
  }
}

@Injectable()
export class ExternalSalesService {
  constructor(
    private readonly em: EntityManager,
    private readonly students: StudentsService,
    private readonly enrollments: EnrollmentsService,
    private readonly activity: OrderActivityService,
    private readonly orders: OrdersService,
  ) {}

  /**
   * An order sold on another platform (source `eventbrite`): the buyer becomes (or is) a student,
   * enrolled with the seats bought under the session's seat lock, with a paid order of that source.
   * Idempotent per external id: the same sale again answers `duplicate`. A sale the session has no
   * seats left for writes nothing and answers `overbooked` (the sync module records the conflict).
   */
  async record(
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
        orderNumber: await this.orders.nextOrderNumber(em, ctx.organizationId),
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
   * A sale recorded by `record` was refunded or cancelled on the other platform: its seats
   * are given back (the buyer's party shrinks, their enrollment is removed when no seat is left)
   * and the order is marked refunded, with a line in its history, in one transaction under the
   * session's seat lock, the lock enrolment takes. Idempotent: an order already refunded answers
   * `already` and changes nothing; a sale never recorded answers `unknown`.
   */
  async release(
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
}
