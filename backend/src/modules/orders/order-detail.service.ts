import { QueryOrder } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ORDER_MESSAGES } from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { DiscountsService } from '../discounts/discounts.service';
import { LoyaltyLedgerService } from '../loyalty/loyalty-ledger.service';
import { AppointmentReads } from '../scheduling/appointment-reads';
import { OrderFormSubmission } from './entities/order-form-submission.entity';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { RefundsService } from './refunds.service';
import { SubscriptionsService } from './subscriptions.service';

/*
 * One order as the order drawer shows it (spec 001 §3, GET /api/admin/order/{id}): its lines,
 * payment, history, subscriptions, refunds, checkout-form answers, discount code, points redeemed,
 * appointment and student, each read from the module that owns it.
 */
@Injectable()
export class OrderDetailService {
  constructor(
    private readonly em: EntityManager,
    private readonly activity: OrderActivityService,
    private readonly subscriptions: SubscriptionsService,
    private readonly refunds: RefundsService,
    private readonly discounts: DiscountsService,
    private readonly ledger: LoyaltyLedgerService,
    private readonly appointments: AppointmentReads,
  ) {}

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
}
