/**
 * The one writer of a store checkout's order (issue 33, split from store-checkout.service.ts): the
 * order's id, secret token and hold (new, or a resumed order's), the buyer found or created, the
 * order with its one line (a session's seats, an appointment's time or a product) and the form's
 * answers, the wallet's part paid, all in the checkout's transaction; and the pending checkouts a
 * retry resumes or a newer checkout replaces. Every checkout flow writes its order here.
 */
import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { WORKBENCH_SOURCE, type CheckoutPayload } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../../common/clock';
import { APP_CONFIG } from '../../../config/config.module';
import { AppConfig } from '../../../config/config.schema';
import { BookingLinksService } from '../../booking-links/booking-links.service';
import { Organization } from '../../organizations/organization.entity';
import { StudentsService } from '../../students/students.service';
import { OrderFormSubmission } from '../entities/order-form-submission.entity';
import { OrderLine } from '../entities/order-line.entity';
import { Order } from '../entities/order.entity';
import { OrdersService } from '../orders.service';
import { PaymentSettlementService } from '../payment-settlement.service';
import { StoreWalletPayment, type ShownPlan } from '../store-wallet';
import { buyerOf, checkoutRequestHash, tokenHash, typedBuyer, type AnswerSets, type Buyer, type Priced } from './checkout-shared';

/** An order's id, the secret token of its confirmation link, and when its hold (its payment page) ends. */
export interface BegunOrder {
  orderId: string;
  token: string;
  expiresAt: Date;
}

/** What a checkout writes: the order and its one line. */
export interface StoreOrderDraft {
  begun: BegunOrder;
  /** The request's hash: the same request again resumes this order (issue 31). */
  requestHash: string;
  student: Order['student'];
  /** The buyer as typed for this order (issue 31). */
  buyer: Buyer;
  /** Pending while something is due (or a booking not yet made); a product paid in full now is paid. */
  status: 'pending' | 'paid';
  totalCents: number;
  /** What the wallet pays (its part is used here) and what is left due. */
  shown: ShownPlan;
  description: string;
  /** A session's order names its session. */
  eventId?: string;
  discountCodeId?: string | null;
  line: {
    kind: 'seat' | 'appointment' | 'product';
    unitPriceCents: number;
    quantity: number;
    discountCents?: number;
    productId?: string;
    productPriceId?: string;
    loyaltyPoints?: number;
    recipientName?: string | null;
    recipientEmail?: string | null;
    giftMessage?: string | null;
  };
  /** The checkout form's answers (each field's label as it is now; per order: one set; per ticket: one each). */
  answers?: AnswerSets;
}

/** A booking's draft (a session's seats or an appointment's time): pending, its one line the party at the price. */
export function bookingDraft(
  booking: Pick<StoreOrderDraft, 'begun' | 'requestHash' | 'student' | 'shown' | 'answers'> & { input: CheckoutPayload; priced: Priced },
  what: { kind: 'seat' | 'appointment'; description: string; eventId?: string },
): StoreOrderDraft {
  const { input, priced } = booking;
  return {
    begun: booking.begun,
    requestHash: booking.requestHash,
    student: booking.student,
    buyer: buyerOf(input),
    status: 'pending',
    totalCents: priced.total,
    shown: booking.shown,
    description: what.description,
    ...(what.eventId ? { eventId: what.eventId } : {}),
    discountCodeId: priced.codeId,
    line: { kind: what.kind, unitPriceCents: priced.line.unit_price_cents, quantity: input.party_size, discountCents: priced.discount },
    answers: booking.answers,
  };
}

@Injectable()
export class StoreOrderWriter {
  constructor(
    private readonly em: EntityManager,
    private readonly orders: OrdersService,
    private readonly students: StudentsService,
    private readonly storeWallet: StoreWalletPayment,
    private readonly settlement: PaymentSettlementService,
    private readonly links: BookingLinksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * The pending store order the same request made (a retry whose answer was lost, with any
   * Idempotency-Key), or null; and the order's id, token and hold: the resumed order's own, or a new
   * order's (the store's hold from now).
   */
  async resumable(organization: Organization, input: CheckoutPayload): Promise<{ hash: string; resumed: Order | null; begun: BegunOrder }> {
    const hash = checkoutRequestHash(organization, input);
    const resumed = await this.em.fork().findOne(
      Order,
      { organization: organization.id, checkoutRequestHash: hash, status: 'pending', linkExpiresAt: { $gt: this.clock.now() } },
      { populate: ['organization'] },
    );
    return { hash, resumed, begun: await this.begin(resumed) };
  }

  /** A new order's id, token and hold (the store's hold from now); a resumed order's own. */
  private async begin(resumed: Order | null): Promise<BegunOrder> {
    const orderId = resumed?.id ?? randomUUID();
    const token = await this.links.orderToken(orderId);
    const expiresAt = resumed?.linkExpiresAt ?? this.clock.inMs(this.config.STORE_HOLD_MINUTES * 60_000);
    return { orderId, token, expiresAt };
  }

  /** The checkout's buyer, found by email (case-insensitive) or created, in the checkout's transaction. */
  buyer(em: EntityManager, organization: Organization, input: CheckoutPayload): Promise<Order['student']> {
    return this.students.findOrCreateByEmail({ organizationId: organization.id }, em, buyerOf(input));
  }

  /**
   * The store order with its one line and the form's answers, in the checkout's transaction; then
   * the gift cards and credit pay their part (under the wallet lock the pricing took; an order that
   * ends unpaid gives it back: order.failed, the wallet module). Its page opens with the
   * confirmation link's token only.
   */
  async write(em: EntityManager, organization: Organization, draft: StoreOrderDraft): Promise<Order> {
    const { begun, shown, eventId } = draft;
    const order = em.create(Order, {
      id: begun.orderId,
      organization: em.getReference(Organization, organization.id),
      orderNumber: await this.orders.nextOrderNumber(em, organization.id),
      student: draft.student,
      status: draft.status,
      source: WORKBENCH_SOURCE,
      totalCents: draft.totalCents,
      walletCents: shown.walletCents,
      ...(eventId ? { eventId } : {}),
      description: draft.description,
      linkExpiresAt: shown.plan.due_cents > 0 ? begun.expiresAt : null,
      accessTokenHash: tokenHash(begun.token),
      checkoutRequestHash: draft.requestHash,
      ...(draft.discountCodeId !== undefined ? { discountCodeId: draft.discountCodeId } : {}),
      ...typedBuyer(draft.buyer),
    });
    em.create(OrderLine, { order, ...(eventId ? { eventId } : {}), description: draft.description, ...draft.line });
    for (const set of draft.answers ?? [])
      em.create(OrderFormSubmission, {
        organization: order.organization,
        order,
        ticket: set.ticket,
        answers: set.answers,
        createdAt: new Date(),
      });
    await em.flush();
    await this.storeWallet.useMoney(em, organization.id, draft.student.id, order.id, shown);
    return order;
  }

  /**
   * Ends the buyer's other store checkouts of the session still waiting for payment (in the caller's
   * transaction, each under its row lock, before the new hold): their seats released, their pages
   * closed (a payment that still arrives is refunded). A payment link the studio sent is left alone.
   */
  async replacePendingCheckouts(em: EntityManager, organizationId: string, studentId: string, eventId: string): Promise<void> {
    const pending = await em.find(
      Order,
      { organization: organizationId, student: studentId, eventId, status: 'pending', accessTokenHash: { $ne: null } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    for (const order of pending) await this.settlement.endLocked(em, order, 'payment_link_cancelled', 'Replaced by a newer checkout of the same buyer', true);
  }
}
