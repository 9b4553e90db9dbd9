import { LockMode, QueryOrder } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as AM,
  CHECKOUT_MESSAGES as M,
  discountRefusal,
  formatCents,
  formatZonedDateTime,
  priceParty,
  pointsToCents,
  WORKBENCH_SOURCE,
  walletMoneyRefusal,
  answerErrors,
  formAnswersSchema,
  storedAnswerSets,
  toPublicCheckoutForm,
  type CheckoutPayload,
  type CheckoutQuote,
  type CheckoutQuotePayload,
  type CheckoutResult,
  type PublicOrder,
  productBuyerErrors,
  giftRecipientErrors,
  STORE_WAIVER_MESSAGES as W,
  STORE_REFUSALS,
  type StoreRefusal,
  type StoreWaiverRequest,
  type StoreWaiverStart,
  type StoreWaiverStatus,
} from '@studio/contracts';
import { createEvent } from 'ics';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError, notFound } from '../../common/api-error';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { DiscountsService } from '../discounts/discounts.service';
import { LoyaltyCodesService } from '../loyalty/loyalty-codes.service';
import { LoyaltyLedgerService } from '../loyalty/loyalty-ledger.service';
import { LoyaltyService } from '../loyalty/loyalty.service';
import { MailService } from '../notifications/mail.service';
import { Organization } from '../organizations/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { PaymentsPort } from '../payments/payments.port';
import { AppointmentSlotsService } from '../scheduling/appointment-slots.service';
import { AppointmentsService } from '../scheduling/appointments.service';
import { EnrollmentsService } from '../scheduling/enrollments.service';
import { seatsTaken } from '../scheduling/seats';
import { StudentsService } from '../students/students.service';
import { WaiversService } from '../waivers/waivers.service';
import { OrderFormSubmission } from './entities/order-form-submission.entity';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderActivityService } from './order-activity.service';
import { OrderEvents } from './order-events';
import { OrdersService } from './orders.service';
import { storeSession, type StoreSessionRow } from './store-session.query';
import { StoreWalletPayment, type ShownPlan } from './store-wallet';
import {
  storeAppointmentCourse,
  storeOrderAppointment,
  type StoreAppointmentCourseRow,
  type StoreOrderAppointmentRow,
} from './store-appointment.query';
import { ProductsService } from '../products/products.service';
import { SubscriptionsService } from './subscriptions.service';
import { WaitlistService } from '../waitlist/waitlist.service';
import { BookingLinksService } from '../booking-links/booking-links.service';
import { requestHash } from '../../common/idempotency/idempotency.store';
import { PaymentLinksService } from './payment-links.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { bookingMailHtml, manageLinkLine } from '../booking-links/manage-link-mail';
import { crashPoint } from '../../common/crash-point';

/** What a booking's checkout knows before its transaction (a session's seats or an appointment's time). */
interface StoreBooking {
  orderId: string;
  token: string;
  /** The request's hash: the same request again resumes this order (issue 31). */
  requestHash: string;
  expiresAt: Date;
  partySize: number;
  /** The checkout form's answers, as checkAnswers gives them. */
  answers: ReturnType<StoreCheckoutService['checkAnswers']>;
  /** The buyer as typed for this order (issue 31). */
  buyer: ReturnType<typeof buyerOf>;
}

/** A party's price, as price() gives it. */
type Priced = Awaited<ReturnType<StoreCheckoutService['price']>>;

/** The confirmation's calendar file of a store order's booking (a session or an appointment), in UTC. */
function orderCalendarFile(order: Order, title: string, period: { starts_at: string | Date; ends_at: string | Date }, where: string): string {
  const ics = createEvent({
    uid: `${order.id}@studio`,
    title,
    start: new Date(period.starts_at).getTime(),
    end: new Date(period.ends_at).getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    endInputType: 'utc',
    endOutputType: 'utc',
    location: where.slice(0, 500),
    description: `${order.organization.name}: order #${order.orderNumber}`,
    organizer: { name: order.organization.name },
  });
  if (ics.error || !ics.value) throw ics.error ?? new Error('No calendar file');
  return ics.value;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
/** A store checkout request's hash (its store and canonical body): the same request resumes its pending order. */
const checkoutRequestHash = (organization: Organization, input: CheckoutPayload) => requestHash({ store: organization.id }, input);
const invalidCode = (message: string) =>
  new ApiError(HttpStatus.BAD_REQUEST, message, { discount_code: message });
const pointsRefusal = (status: HttpStatus, field: 'points_token' | 'redeem_points', message: string) =>
  new ApiError(status, message, { [field]: message });
/** A public refusal of contracts' STORE_REFUSALS: the same words whoever the email belongs to (issue 31). */
const storeRefusal = (refusal: StoreRefusal) =>
  new ApiError(refusal.status, refusal.message, { [refusal.field]: refusal.message });
const seatsRefusal = (seatsLeft: number) =>
  new ApiError(HttpStatus.CONFLICT, seatsLeft === 0 ? M.soldOut : M.onlyLeft(seatsLeft), {
    party_size: seatsLeft === 0 ? M.soldOut : M.onlyLeft(seatsLeft),
  });

/**
 * The store's checkout of a session (issue 21): the buyer's party, priced on the server by the one
 * pricing function, its seats held under the session's seat lock while the buyer pays through the
 * payments port (the payment links' hold and settlement: paid enrolls, expired or cancelled frees
 * the seats), or booked at once when nothing is due. The order is the studio's own sale (source
 * workbench), so the admin can refund it; its page opens only with the secret token in the buyer's
 * confirmation link.
 */
@Injectable()
export class StoreCheckoutService implements OnModuleInit {
  private readonly logger = new Logger('StoreCheckout');

  constructor(
    private readonly em: EntityManager,
    private readonly orders: OrdersService,
    private readonly students: StudentsService,
    private readonly seats: EnrollmentsService,
    private readonly discounts: DiscountsService,
    private readonly organizations: OrganizationsService,
    private readonly payments: PaymentsPort,
    private readonly orderEvents: OrderEvents,
    private readonly activity: OrderActivityService,
    private readonly mail: MailService,
    private readonly products: ProductsService,
    private readonly links: BookingLinksService,
    private readonly subscriptions: SubscriptionsService,
    private readonly waivers: WaiversService,
    private readonly loyalty: LoyaltyService,
    private readonly ledger: LoyaltyLedgerService,
    private readonly pointsCodes: LoyaltyCodesService,
    private readonly appointments: AppointmentsService,
    private readonly appointmentSlots: AppointmentSlotsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly waitlist: WaitlistService,
    private readonly storeWallet: StoreWalletPayment,
    private readonly settlement: PaymentSettlementService,
    private readonly paymentLinks: PaymentLinksService,
  ) {}

  onModuleInit(): void {
    // The confirmation follows the move to paid (the outbox): at least once, mailed once (its key).
    this.orderEvents.on('store_order.paid', 'orders.store-confirmation', (e) =>
      this.confirm(e.organizationId, e.orderId),
    );
    // A subscription product's paid order: the subscription its checkout started.
    this.orderEvents.on('store_order.paid', 'orders.store-subscription', (e) =>
      this.startSubscription(e.organizationId, e.orderId),
    );
    // A paid store order that used a code counts in the code's uses (once per order).
    this.orderEvents.on('store_order.paid', 'orders.store-discount-use', (e) =>
      this.countDiscountUse(e.organizationId, e.orderId),
    );
  }

  /** What the party would cost now, and the seats left: display only, the checkout prices again. */
  async quote(organization: Organization, input: CheckoutQuotePayload): Promise<CheckoutQuote> {
    if (input.activity_id) return this.quoteAppointment(organization, input);
    const session = await this.requireSession(organization, input.event_id!);
    const proof = await this.pointsStudent(organization, input);
    const { priced, shown } = await this.priceWithWallet(organization, session, input, session.price_cents, proof);
    const taken = (await seatsTaken(this.em, [session.event_id])).get(session.event_id)?.seats ?? 0;
    return { ...quoteOf(priced, shown), seats_left: Math.max(0, session.capacity - taken) };
  }

  async checkout(organization: Organization, input: CheckoutPayload): Promise<CheckoutResult> {
    if (input.product_id) return this.checkoutProduct(organization, input.product_id, input);
    if (input.activity_id) return this.checkoutAppointment(organization, input);
    const eventId = input.event_id!;
    const ctx = { organizationId: organization.id };
    const session = await this.requireSession(organization, eventId);
    const answers = this.checkAnswers(session, input);
    const pointsStudentId = await this.pointsStudent(organization, input);
    const paying = !session.free;
    const pay = { partySize: input.party_size, email: input.email, activityId: session.activity_id, free: !paying };
    const hash = checkoutRequestHash(organization, input);
    const resumed = await this.resumable(organization.id, hash);
    if (resumed) return this.payForBooking(organization, resumed, resumed.totalCents - resumed.walletCents, { ...pay, ...(await this.payOf(resumed)) });
    const holdMinutes = this.config.STORE_HOLD_MINUTES;
    const expiresAt = new Date(Date.now() + holdMinutes * 60_000);
    const orderId = randomUUID();
    const token = await this.links.orderToken(orderId);

    const { order, total } = await this.em.transactional(async (em) => {
      const student = await this.students.findOrCreateByEmail(ctx, em, buyerOf(input));
      // The buyer's earlier checkout of this session still waiting for payment (another request:
      // another party, code or answers) gives way to this one: ended, its seats released and its
      // page closed, so one buyer holds one checkout of a session (issue 31: no 409 to a retry).
      await this.replacePendingCheckouts(em, organization.id, student.id, session.event_id);
      // The course's waiver, signed by the buyer before paying (in this checkout, or earlier): the
      // seat then starts signed and no signing link is mailed. The waiver is the buyer's: the
      // guests of the party (party_size above 1) are seats of the buyer's enrollment, not students,
      // so they sign nothing here.
      await this.requireWaiver(em, organization, student, session.required_waiver_id, input.waiver_token, pointsStudentId);
      if (pointsStudentId && pointsStudentId !== student.id)
        throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsTokenOtherEmail);
      // The seats under the session's seat lock; the price is the one read inside it. A waitlist
      // claim (issue 23) takes over the seats its offer holds: no new hold, so nobody can take them.
      const held = input.claim_token
        ? await this.waitlist.claimForCheckout(em, organization.id, {
            token: input.claim_token,
            eventId: session.event_id,
            partySize: input.party_size,
            student,
            orderId,
            expiresAt,
          })
        : await this.seats.hold(ctx, em, {
            student,
            eventId: session.event_id,
            orderId,
            expiresAt,
            seats: input.party_size,
            full: seatsRefusal,
            ownBooking: () => storeRefusal(STORE_REFUSALS.seatsNotHeld),
          });
      const { priced, shown } = await this.priceWithWallet(organization, session, input, session.free ? 0 : held.priceCents, pointsStudentId, em);
      const booking = { orderId, token, requestHash: hash, expiresAt, partySize: input.party_size, answers, buyer: buyerOf(input) };
      const order = await this.writeStoreOrder(em, organization, student, priced, booking, {
        kind: 'seat',
        eventId: session.event_id,
        description: held.eventName,
      }, shown);
      await this.settleInCheckout(em, organization, student.id, order, priced, booking, pointsStudentId, shown);
      return { order, total: shown.plan.due_cents };
    });

    return this.payForBooking(organization, order, total, { ...pay, token, expiresAt });
  }

  /** An appointment course's quote (issue 22): the party at a start the engine offers now. */
  private async quoteAppointment(organization: Organization, input: CheckoutQuotePayload): Promise<CheckoutQuote> {
    const course = await this.requireAppointmentCourse(organization, input.activity_id!, input.party_size);
    await this.requireOffered(organization, course, new Date(input.starts_at!));
    const proof = await this.pointsStudent(organization, input);
    const { priced, shown } = await this.priceWithWallet(organization, course, input, course.price_cents, proof);
    return { ...quoteOf(priced, shown), seats_left: course.capacity };
  }

  /**
   * The checkout of an appointment course's time (issue 22): one party (the buyer and guests) at a
   * start the engine offers now, priced like a session's. Inside the checkout's transaction the
   * order is written and the time held for it (AppointmentsService.hold, until the store's hold
   * ends): the loser of a race for the time gets 409 "taken" and no order, nothing charged. Paid,
   * the payment links' settlement books it (convertHold); abandoned or expired, it is released;
   * nothing due, it is booked at once.
   */
  private async checkoutAppointment(organization: Organization, input: CheckoutPayload): Promise<CheckoutResult> {
    const ctx = { organizationId: organization.id };
    const startsAt = new Date(input.starts_at!);
    const course = await this.requireAppointmentCourse(organization, input.activity_id!, input.party_size);
    const answers = this.checkAnswers(course, input);
    const pointsStudentId = await this.pointsStudent(organization, input);
    const pay = { partySize: input.party_size, email: input.email, activityId: course.activity_id, free: false };
    const hash = checkoutRequestHash(organization, input);
    const resumed = await this.resumable(organization.id, hash);
    if (resumed) return this.payForBooking(organization, resumed, resumed.totalCents - resumed.walletCents, { ...pay, ...(await this.payOf(resumed)) });
    await this.requireOffered(organization, course, startsAt);
    const expiresAt = new Date(Date.now() + this.config.STORE_HOLD_MINUTES * 60_000);
    const orderId = randomUUID();
    const token = await this.links.orderToken(orderId);

    const { order, total } = await this.em.transactional(async (em) => {
      const student = await this.students.findOrCreateByEmail(ctx, em, buyerOf(input));
      // The course's waiver, signed by the buyer before paying (the guests sign nothing here).
      await this.requireWaiver(em, organization, student, course.required_waiver_id, input.waiver_token, pointsStudentId);
      if (pointsStudentId && pointsStudentId !== student.id)
        throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsTokenOtherEmail);
      const { priced, shown } = await this.priceWithWallet(organization, course, input, course.price_cents, pointsStudentId, em);
      const booking = { orderId, token, requestHash: hash, expiresAt, partySize: input.party_size, answers, buyer: buyerOf(input) };
      const order = await this.writeStoreOrder(em, organization, student, priced, booking, {
        kind: 'appointment',
        description: course.name,
      }, shown);
      // The time, held for the order (the appointment references it): a time another checkout
      // holds answers 409 "taken" here and this whole checkout rolls back.
      await this.appointments.hold(ctx, em, {
        activityId: course.activity_id,
        startsAt,
        studentId: student.id,
        orderId,
        guestCount: input.party_size - 1,
        expiresAt,
      });
      await this.settleInCheckout(em, organization, student.id, order, priced, booking, pointsStudentId, shown);
      return { order, total: shown.plan.due_cents };
    });

    return this.payForBooking(organization, order, total, { ...pay, token, expiresAt });
  }

  /**
   * A listed appointment course of the store with room for the party: 404 for none (or another
   * organization's), 400 for a scheduled course or a party larger than its capacity.
   */
  private async requireAppointmentCourse(
    organization: Organization,
    activityId: string,
    partySize: number,
  ): Promise<StoreAppointmentCourseRow> {
    const course = await storeAppointmentCourse(this.em, organization.id, activityId);
    if (!course) throw new ApiError(HttpStatus.NOT_FOUND, AM.courseNotFound);
    if (course.activity_type !== 'appointment')
      throw new ApiError(HttpStatus.BAD_REQUEST, AM.notAppointmentCourse, { activity_id: AM.notAppointmentCourse });
    if (partySize > course.capacity) {
      const message = M.partyCapacity(course.capacity);
      throw new ApiError(HttpStatus.BAD_REQUEST, message, { party_size: message });
    }
    return course;
  }

  /** 409 unless the engine offers the start now: "taken" when another appointment has it. */
  private async requireOffered(organization: Organization, course: StoreAppointmentCourseRow, startsAt: Date): Promise<void> {
    const state = await this.appointmentSlots.offerState(organization.id, course.activity_id, startsAt);
    if (state === 'offered') return;
    const message = state === 'taken' ? AM.taken : AM.notOffered;
    throw new ApiError(HttpStatus.CONFLICT, message, { starts_at: message });
  }

  /**
   * The course's waiver signed for the buyer, when it requires one, in the checkout's transaction:
   * a signing of this checkout's email (it becomes the student's), or, for a buyer who proved the
   * email (`provenStudentId`), a signature the student made before.
   */
  private async requireWaiver(
    em: EntityManager,
    organization: Organization,
    student: Order['student'],
    templateId: string | null,
    token: string | undefined,
    provenStudentId: string | null,
  ): Promise<void> {
    if (!templateId) return;
    const refusal = await this.waivers.acceptForCheckout(em, {
      organizationId: organization.id,
      templateId,
      student: { id: student.id, email: student.email },
      token,
      proven: provenStudentId === student.id,
    });
    if (refusal) {
      const message = refusal === 'token' ? W.tokenInvalid : W.notSigned;
      throw new ApiError(HttpStatus.BAD_REQUEST, message, { waiver_token: message });
    }
  }

  /**
   * An appointment order's confirmation (store_order.paid, issue 22): the course's own text, the
   * time in the location's zone (named), where it is, a calendar file at the appointment's
   * instants and the receipt. Mailed once per order (its key).
   */
  private async confirmAppointment(order: Order, appointment: StoreOrderAppointmentRow): Promise<void> {
    const em = this.em.fork();
    const zone = appointment.timezone;
    const when = formatZonedDateTime(appointment.starts_at, zone);
    const where = appointment.online ? 'Online' : `${appointment.location_name}, ${appointment.address}`;
    const party = appointment.guest_count + 1;
    const ics = { value: orderCalendarFile(order, appointment.course_name, appointment, where) };
    const manage = await this.links.urlFor(order.organization.id, 'appointment', appointment.appointment_id);
    const text = [
      `Hello ${greeted(order)},`,
      '',
      `Your appointment for ${appointment.course_name} is booked (${party === 1 ? '1 person' : `${party} people`}).`,
      '',
      `When: ${when}`,
      `Where: ${where}`,
      ...(appointment.auto_email.trim() ? ['', appointment.auto_email.trim()] : []),
      '',
      ...(await this.paidLines(order)),
      ...(order.receiptUrl ? [`Receipt: ${order.receiptUrl}`] : []),
      ...answerLines(await this.answerSets(em, order.organization.id, order.id)),
      '',
      manageLinkLine(manage),
      '',
      order.organization.name,
    ].join('\n');
    await this.mail.enqueue({
      to: order.student.email,
      subject: `You're booked: ${oneLine(appointment.course_name)}`.slice(0, 300),
      text,
      html: bookingMailHtml(text, manage),
      attachments: [
        {
          filename: 'booking.ics',
          contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
          content: ics.value,
        },
      ],
      dedupeKey: `store-confirmation:${order.id}`,
    });
  }

  /**
   * A product's checkout (issue 21): one of it, priced here at its current price. One-time: a
   * pending order paid on the payment page and settled like a payment link's (paid: points,
   * confirmation with the receipt). Subscription: the same, with the provider's checkout in
   * subscription mode (the paid order starts the subscription). Lead magnet: nothing to pay, the
   * order is recorded paid at 0 and its confirmation mails the download. The buyer is found by
   * email (case-insensitive) or created, which feeds the mailing lists as any new student.
   */
  private async checkoutProduct(
    organization: Organization,
    productId: string,
    input: CheckoutPayload,
  ): Promise<CheckoutResult> {
    const ctx = { organizationId: organization.id };
    const found = await this.products.storeProduct(organization.id, productId);
    if (!found) throw notFound(M.productNotFound);
    const { product, price } = found;
    const giftCard = price.grant === 'giftCard';
    const nameErrors = { ...productBuyerErrors(price.category, input), ...giftRecipientErrors(giftCard, input) };
    if (Object.keys(nameErrors).length > 0)
      throw new ApiError(HttpStatus.BAD_REQUEST, Object.values(nameErrors)[0], nameErrors);
    const free = price.category === 'leadMagnet';
    const total = free ? 0 : price.amountCents;
    const subscription = price.category === 'subscription' && price.renewalIntervalUnit ? price : null;
    // Gift cards and credit may pay a one-time product (issue 24), not a subscription nor a gift card.
    const byCard = walletMoneyRefusal({ category: price.category, grant: price.grant });
    if (byCard && (input.use_wallet_money || input.gift_card_code))
      throw new ApiError(HttpStatus.BAD_REQUEST, byCard, { [input.gift_card_code ? 'gift_card_code' : 'use_wallet_money']: byCard });
    const proofStudentId = await this.pointsStudent(organization, input);
    const hash = checkoutRequestHash(organization, input);
    const resumed = await this.resumable(organization.id, hash);
    const orderId = resumed?.id ?? randomUUID();
    const token = await this.links.orderToken(orderId);
    const expiresAt = resumed?.linkExpiresAt ?? new Date(Date.now() + this.config.STORE_HOLD_MINUTES * 60_000);

    const order = resumed ?? await this.em.transactional(async (em) => {
      const student = await this.students.findOrCreateByEmail(ctx, em, buyerOf(input));
      if (proofStudentId && proofStudentId !== student.id)
        throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsTokenOtherEmail);
      // What the buyer's gift cards and credit pay, under their wallet lock; the card pays the rest.
      const shown = await this.storeWallet.plan(organization.id, proofStudentId, input, null, 1, total, em);
      const due = shown.plan.due_cents;
      const order = em.create(Order, {
        id: orderId,
        organization: em.getReference(Organization, organization.id),
        orderNumber: await this.orders.nextOrderNumber(em, organization.id),
        student,
        status: due > 0 ? 'pending' : 'paid',
        source: WORKBENCH_SOURCE,
        totalCents: total,
        walletCents: shown.walletCents,
        description: product.name,
        linkExpiresAt: due > 0 ? expiresAt : null,
        accessTokenHash: tokenHash(token),
        checkoutRequestHash: hash,
        ...typedBuyer(buyerOf(input)),
      });
      const points = free ? 0 : (price.earnedLoyaltyPoints ?? 0);
      em.create(OrderLine, {
        order,
        kind: 'product',
        productId: product.id,
        productPriceId: price.id,
        description: product.name,
        unitPriceCents: total,
        quantity: 1,
        loyaltyPoints: points,
        // A gift card's recipient (issue 24): the wallet grants and mails the card to them once paid.
        ...(giftCard
          ? { recipientName: input.recipient_name ?? null, recipientEmail: input.recipient_email?.toLowerCase() ?? null, giftMessage: input.gift_message || null }
          : {}),
      });
      await em.flush();
      await this.storeWallet.useMoney(em, organization.id, student.id, orderId, shown);
      if (due > 0) {
        // Its expiry job settles the order when the payment page runs out, whatever happens next.
        await this.orderEvents.publish(em, {
          type: 'payment_link.created',
          organizationId: organization.id,
          orderId,
          expiresAt: expiresAt.toISOString(),
          pageDueBy: this.paymentLinks.pageDueBy(),
        });
      } else {
        await this.orderEvents.publish(em, {
          type: 'order.paid',
          organizationId: organization.id,
          orderId,
          studentId: student.id,
          // Paid in full by gift cards or credit, the product earns its points as a card payment would.
          loyaltyPoints: points,
        });
        await this.orderEvents.publish(em, { type: 'store_order.paid', organizationId: organization.id, orderId });
      }
      return order;
    });

    const pages = this.organizations.appStoreUrl(organization);
    const confirmationUrl = `${pages}/checkout/complete?order=${order.id}&token=${token}`;
    const due = order.totalCents - order.walletCents;
    if (due === 0) return this.result(order, null, confirmationUrl, null);
    return this.startPayment(order, {
        organizationId: organization.id,
        orderId: order.id,
        lines: [{ name: product.name.slice(0, 250), unitAmountCents: due, quantity: 1 }],
        customerEmail: input.email,
        successUrl: confirmationUrl,
        cancelUrl: `${pages}/checkout?product_id=${product.id}`,
        expiresAt,
        ...(subscription
          ? {
              subscription: {
                intervalUnit: subscription.renewalIntervalUnit!,
                intervalCount: subscription.renewalIntervalQuantity ?? 1,
                studentId: order.student.id,
                productId: product.id,
                productPriceId: price.id,
                planName: product.name,
              },
            }
          : {}),
    });
  }

  /**
   * A booking's store order (a session's seats or an appointment's time), pending, with its one line
   * and the form's answers (each field's label as it is now; per order: one set; per ticket: one
   * each), in the checkout's transaction. Its page opens with the confirmation link's token only.
   */
  private async writeStoreOrder(
    em: EntityManager,
    organization: Organization,
    student: Order['student'],
    priced: Priced,
    booking: StoreBooking,
    what: { kind: 'seat'; eventId: string; description: string } | { kind: 'appointment'; description: string },
    shown: ShownPlan,
  ): Promise<Order> {
    const eventId = what.kind === 'seat' ? what.eventId : undefined;
    const order = em.create(Order, {
      id: booking.orderId,
      organization: em.getReference(Organization, organization.id),
      orderNumber: await this.orders.nextOrderNumber(em, organization.id),
      student,
      status: 'pending',
      source: WORKBENCH_SOURCE,
      totalCents: priced.total,
      walletCents: shown.walletCents,
      ...(eventId ? { eventId } : {}),
      description: what.description,
      linkExpiresAt: shown.plan.due_cents > 0 ? booking.expiresAt : null,
      accessTokenHash: tokenHash(booking.token),
      checkoutRequestHash: booking.requestHash,
      discountCodeId: priced.codeId,
      ...typedBuyer(booking.buyer),
    });
    em.create(OrderLine, {
      order,
      kind: what.kind,
      ...(eventId ? { eventId } : {}),
      description: what.description,
      unitPriceCents: priced.line.unit_price_cents,
      quantity: booking.partySize,
      discountCents: priced.discount,
    });
    for (const set of booking.answers)
      em.create(OrderFormSubmission, {
        organization: order.organization,
        order,
        ticket: set.ticket,
        answers: set.answers,
        createdAt: new Date(),
      });
    await em.flush();
    // Gift cards and credit pay their part now (under the wallet lock `priceWithWallet` took); an
    // order that ends unpaid gives it back (order.failed, the wallet module).
    await this.storeWallet.useMoney(em, organization.id, student.id, order.id, shown);
    return order;
  }

  /**
   * The rest of a booking's checkout transaction, once its seats or time are held for the order:
   * the points spent, under the student's ledger lock (a balance spent meanwhile is 409 and the whole
   * checkout rolls back); then, with something due, the expiry job that settles the order at the
   * hold's end whatever happens next; with nothing due, the booking made now (convertHold: the seats
   * or the appointment) and announced as paid (points, the confirmation mail).
   */
  private async settleInCheckout(
    em: EntityManager,
    organization: Organization,
    studentId: string,
    order: Order,
    priced: Priced,
    booking: StoreBooking,
    pointsStudentId: string | null,
    shown: ShownPlan,
  ): Promise<void> {
    const organizationId = organization.id;
    const orderId = order.id;
    if (pointsStudentId && priced.pointsRedeemed > 0)
      await this.ledger.redeemForOrder(em, organizationId, studentId, orderId, priced.pointsRedeemed);
    if (shown.plan.due_cents > 0) {
      await this.orderEvents.publish(em, {
        type: 'payment_link.created',
        organizationId,
        orderId,
        expiresAt: booking.expiresAt.toISOString(),
        pageDueBy: this.paymentLinks.pageDueBy(),
      });
      return;
    }
    const booked = await this.seats.convertHold({ organizationId }, em, orderId);
    // A membership's booking or a pack's credits, used for the booking made now (once per booking).
    await this.storeWallet.useForBooking(em, organizationId, studentId, orderId, shown, {
      ...(booked.outcome === 'enrolled' ? { enrollmentId: booked.enrollmentId } : {}),
      ...(booked.outcome === 'appointment_booked' ? { appointmentId: booked.appointmentId } : {}),
    });
    order.status = 'paid';
    await em.flush();
    await this.orderEvents.publish(em, { type: 'order.paid', organizationId, orderId, studentId, loyaltyPoints: 0 });
    await this.orderEvents.publish(em, { type: 'store_order.paid', organizationId, orderId });
  }

  /**
   * After a booking's checkout committed: the confirmation page when nothing is due, else the
   * payment page (startPayment). A payment page that cannot start fails the order: its seats or
   * time are released (the seat writer releases either) and the points it redeemed given back
   * (order.failed, the loyalty module from the outbox).
   */
  private payForBooking(
    organization: Organization,
    order: Order,
    total: number,
    pay: { token: string; expiresAt: Date; partySize: number; email: string; activityId: string; free: boolean },
  ): Promise<CheckoutResult> {
    const pages = this.organizations.appStoreUrl(organization);
    const confirmationUrl = `${pages}/checkout/complete?order=${order.id}&token=${pay.token}`;
    if (total === 0 || pay.free) return Promise.resolve(this.result(order, null, confirmationUrl, null));
    return this.startPayment(
      order,
      {
        organizationId: organization.id,
        orderId: order.id,
        lines: [{ name: `${order.description} × ${pay.partySize}`.slice(0, 250), unitAmountCents: total, quantity: 1 }],
        customerEmail: pay.email,
        successUrl: confirmationUrl,
        cancelUrl: `${pages}/activity/${pay.activityId}`,
        expiresAt: pay.expiresAt,
      },
      async (em) => {
        await this.seats.releaseHold({ organizationId: organization.id }, em, order.id);
        await this.orderEvents.publish(em, { type: 'order.failed', organizationId: organization.id, orderId: order.id });
      },
    );
  }

  /**
   * The payment page of a pending store order: its session id kept on the order, or, when the
   * provider cannot start it, the order failed (with `onFailure` in the same transaction: a
   * session's hold released) and the buyer told so (502).
   */
  private async startPayment(
    order: Order,
    checkout: Parameters<PaymentsPort['createCheckout']>[0],
    onFailure?: (em: EntityManager) => Promise<void>,
  ): Promise<CheckoutResult> {
    // Resumed with its page recorded: the same page again.
    if (order.checkoutSessionId && order.checkoutUrl) return this.result(order, order.checkoutUrl, checkout.successUrl, checkout.expiresAt);
    crashPoint('checkout.before-page');
    let started: { sessionId: string; url: string };
    try {
      // Keyed by the order and its expiry at the provider: a resumed checkout gets the same page.
      started = await this.payments.createCheckout(checkout);
    } catch (error) {
      this.logger.error(`Checkout of store order ${order.id} failed: ${(error as Error).message}`);
      await this.em.fork().transactional(async (em) => {
        // Only an order still without a page: a resumed twin of this call may have made it meanwhile.
        const failed = await em.nativeUpdate(Order, { id: order.id, status: 'pending', checkoutSessionId: null }, { status: 'failed' });
        if (failed > 0) await onFailure?.(em);
      });
      throw new ApiError(HttpStatus.BAD_GATEWAY, M.paymentFailed);
    }
    // Recorded only while the order is pending (its hold alive); otherwise the page is closed at once.
    const { recorded, order: now } = await this.settlement.recordPage(checkout.organizationId, order.id, started);
    if (recorded) return this.result(order, started.url, checkout.successUrl, checkout.expiresAt);
    // Paid meanwhile (a resumed retry after the buyer paid): the order as it stands.
    if (now?.status === 'paid') return this.result(now, null, checkout.successUrl, null);
    throw new ApiError(HttpStatus.CONFLICT, M.checkoutEnded);
  }

  /** A pending store order the same request made (a retry whose answer was lost, with any Idempotency-Key), or null. */
  private resumable(organizationId: string, hash: string): Promise<Order | null> {
    return this.em.fork().findOne(
      Order,
      { organization: organizationId, checkoutRequestHash: hash, status: 'pending', linkExpiresAt: { $gt: new Date() } },
      { populate: ['organization'] },
    );
  }

  /** What a resumed order's payment page is made with: its token and its hold's end. */
  private async payOf(order: Order): Promise<{ token: string; expiresAt: Date }> {
    return { token: await this.links.orderToken(order.id), expiresAt: order.linkExpiresAt! };
  }

  /**
   * Ends the buyer's other store checkouts of the session still waiting for payment (in the caller's
   * transaction, each under its row lock, before the new hold): their seats released, their pages
   * closed (a payment that still arrives is refunded). A payment link the studio sent is left alone.
   */
  private async replacePendingCheckouts(em: EntityManager, organizationId: string, studentId: string, eventId: string): Promise<void> {
    const pending = await em.find(
      Order,
      { organization: organizationId, student: studentId, eventId, status: 'pending', accessTokenHash: { $ne: null } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    for (const order of pending) await this.settlement.endLocked(em, order, 'payment_link_cancelled', 'Replaced by a newer checkout of the same buyer', true);
  }

  /** store_order.paid of a subscription product: the subscription its checkout started (once). */
  private async startSubscription(organizationId: string, orderId: string): Promise<void> {
    const em = this.em.fork();
    const order = await em.findOne(Order, { id: orderId, organization: organizationId });
    if (!order?.checkoutSessionId) return;
    const line = await em.findOne(OrderLine, { order: order.id, kind: 'product' });
    if (!line?.productId) return;
    const sold = await this.products.soldProduct(organizationId, line.productId, line.productPriceId ?? null);
    const price = sold?.price;
    if (!price || price.category !== 'subscription' || !price.renewalIntervalUnit) return;
    await this.subscriptions.startFromCheckout({
      organizationId,
      orderId: order.id,
      studentId: order.student.id,
      productId: line.productId,
      productPriceId: price.id,
      planName: line.description,
      amountCents: line.unitPriceCents,
      intervalUnit: price.renewalIntervalUnit,
      intervalCount: price.renewalIntervalQuantity ?? 1,
      checkoutSessionId: order.checkoutSessionId,
      paymentIntentId: order.paymentIntentId ?? null,
      receiptUrl: order.receiptUrl ?? null,
    });
  }

  /**
   * POST waiver (issue 21, step 4): a new signing of the course's waiver for the buyer as typed,
   * through the waivers module. It says nothing about the email's owner and creates no student
   * (issue 31): the checkout that uses the signature finds or creates the student. Only a buyer who
   * proved the email (points_token of points/verify, for this email's student) and signed this
   * waiver before has nothing to sign.
   */
  async waiver(organization: Organization, input: StoreWaiverRequest): Promise<StoreWaiverStart> {
    // A session's course, or an appointment course (issue 22).
    const templateId = input.event_id
      ? (await this.requireSession(organization, input.event_id)).required_waiver_id
      : (await this.requireAppointmentCourse(organization, input.activity_id!, 1)).required_waiver_id;
    if (!templateId) throw new ApiError(HttpStatus.BAD_REQUEST, W.notRequired);
    const started = await this.waivers.startForCheckout({
      organizationId: organization.id,
      templateId,
      signer: { email: input.email, name: `${input.first_name} ${input.last_name}` },
      provenStudentId: await this.provenStudent(organization, input.points_token, input.email),
    });
    return { signed: started.signed, signing_url: started.signUrl, waiver_token: started.token };
  }

  /** The student a valid proof token was given to, when it is this email's student; null otherwise. */
  private async provenStudent(organization: Organization, token: string | undefined, email: string): Promise<string | null> {
    if (!token) return null;
    const proven = await this.pointsCodes.studentForToken(organization.id, token);
    if (!proven) return null;
    const student = await this.students.findByEmail(organization.id, email);
    return student?.id === proven ? proven : null;
  }

  /** GET waiver/status: the signing named by the token, in this store; 404 for any other token. */
  async waiverStatus(organization: Organization, token: string): Promise<StoreWaiverStatus> {
    const submission = await this.waivers.checkoutSubmission(organization.id, token);
    if (!submission) throw notFound(W.notFound);
    return { status: submission.status, signed: submission.status === 'completed' };
  }

  /** The order as its buyer sees it, for whoever holds its token; anything else is 404. */
  async order(organization: Organization, orderId: string, token: string): Promise<PublicOrder> {
    const em = this.em.fork();
    const order = await em.findOne(
      Order,
      { id: orderId, organization: organization.id },
      { populate: ['student'] },
    );
    if (!order?.accessTokenHash || !sameHash(order.accessTokenHash, tokenHash(token)))
      throw notFound(M.orderNotFound);
    const lines = await em.find(OrderLine, { order: order.id }, { orderBy: { position: 'asc' } });
    const session = order.eventId
      ? await storeSession(em, organization.id, order.eventId, { bookable: false })
      : null;
    const appointment = order.eventId ? null : await storeOrderAppointment(em, organization.id, order.id);
    const answers = await this.answerSets(em, organization.id, order.id);
    const subtotal = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
    const discount = lines.reduce((sum, l) => sum + l.discountCents, 0);
    const productLine = lines.find((l) => l.kind === 'product' && l.productId);
    const sold = productLine
      ? await this.products.soldProduct(organization.id, productLine.productId!, productLine.productPriceId ?? null)
      : null;
    const pointsCents = pointsToCents(await this.ledger.redeemedForOrder(organization.id, order.id));
    return {
      order_number: order.orderNumber,
      status: order.status,
      store_name: organization.name,
      // What the buyer typed for this order, never the stored student's (issue 31); older orders kept none.
      buyer: { first_name: order.buyerFirstName ?? order.student.firstName, email: order.buyerEmail ?? order.student.email },
      lines: lines.map((l) => ({
        description: l.description,
        quantity: l.quantity,
        unit_price_cents: l.unitPriceCents,
        discount_cents: l.discountCents,
      })),
      subtotal_cents: subtotal,
      discount_cents: discount,
      points_cents: pointsCents,
      total_cents: order.totalCents,
      session: session
        ? {
            name: session.name,
            starts_at: new Date(session.starts_at).toISOString(),
            ends_at: new Date(session.ends_at).toISOString(),
            timezone: session.timezone,
            location_name: session.location_name,
            address: session.online ? '' : session.address,
            online: session.online,
            party_size: lines.find((l) => l.kind === 'seat')?.quantity ?? 1,
          }
        : null,
      appointment: appointment
        ? {
            course_name: appointment.course_name,
            starts_at: new Date(appointment.starts_at).toISOString(),
            ends_at: new Date(appointment.ends_at).toISOString(),
            timezone: appointment.timezone,
            location_name: appointment.location_name,
            address: appointment.online ? '' : appointment.address,
            online: appointment.online,
            party_size: appointment.guest_count + 1,
            status: appointment.status,
          }
        : null,
      product: productLine
        ? {
            name: productLine.description,
            kind: sold?.price?.category ?? 'oneTime',
            renewal_interval_unit: sold?.price?.renewalIntervalUnit ?? null,
            renewal_interval_quantity: sold?.price?.renewalIntervalQuantity ?? null,
            image_url: sold?.imageUrl ?? null,
          }
        : null,
      receipt_url: order.receiptUrl ?? null,
      paid_with: await this.storeWallet.paidWith(organization.id, order.id),
      card_cents: Math.max(0, order.totalCents - order.walletCents),
      answers,
    };
  }

  /** The checkout form's answers kept with the order: the order's set first, then ticket by ticket. */
  private async answerSets(em: EntityManager, organizationId: string, orderId: string) {
    const sets = await em.find(
      OrderFormSubmission,
      { order: orderId, organization: organizationId },
      { orderBy: { ticket: QueryOrder.ASC_NULLS_FIRST, createdAt: 'asc', id: 'asc' } },
    );
    return sets.map((f) => ({
      ticket: f.ticket ?? null,
      answers: f.answers.map((a) => ({ label: a.label, value: a.value })),
    }));
  }

  /**
   * The checkout form's answers checked by the one schema built from the course's form (the page
   * uses the same): 400 with each message keyed `answers.<set>.<field id>`. A course without a form
   * refuses answers.
   */
  private checkAnswers(session: Pick<StoreSessionRow, 'form_collection_type' | 'form_fields'>, input: CheckoutPayload) {
    const form = toPublicCheckoutForm(session.form_collection_type, session.form_fields);
    const parsed = formAnswersSchema(form, input.party_size).safeParse(input.answers);
    if (!parsed.success) {
      const errors = answerErrors(parsed.error);
      throw new ApiError(HttpStatus.BAD_REQUEST, Object.values(errors)[0] ?? M.answersInvalid, errors);
    }
    return form ? storedAnswerSets(form, parsed.data) : [];
  }

  /**
   * The student whose points the quote or checkout spends, by the proof token of points/verify, or
   * null when none is sent. Points named without a token, a token that is not (or no longer) valid,
   * a programme turned off, or more points than the balance are refused.
   */
  private async pointsStudent(
    organization: Organization,
    input: Pick<CheckoutQuotePayload, 'points_token' | 'redeem_points' | 'cover_booking' | 'use_wallet_money'>,
  ): Promise<string | null> {
    if (!input.points_token) {
      if (input.redeem_points) throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsNeedCode);
      this.storeWallet.requireProof(input, null);
      return null;
    }
    const studentId = await this.pointsCodes.studentForToken(organization.id, input.points_token);
    if (!studentId) throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsTokenInvalid);
    // The proof also lets the student's holdings pay (issue 24): the programme matters only for points.
    if (input.redeem_points && !(await this.loyalty.isActive(organization.id)))
      throw pointsRefusal(HttpStatus.BAD_REQUEST, 'redeem_points', M.pointsNotActive);
    const balance = await this.ledger.balance(organization.id, studentId);
    if ((input.redeem_points ?? 0) > balance)
      throw pointsRefusal(HttpStatus.CONFLICT, 'redeem_points', M.pointsInsufficient(balance));
    return studentId;
  }

  /** store_order.paid: the code the order used counts one more use (once per order). */
  private async countDiscountUse(organizationId: string, orderId: string): Promise<void> {
    const order = await this.em.fork().findOne(Order, { id: orderId, organization: organizationId });
    if (order?.discountCodeId) await this.discounts.countOrderUse(organizationId, order.discountCodeId, order.id);
  }

  private async requireSession(organization: Organization, eventId: string): Promise<StoreSessionRow> {
    const session = await storeSession(this.em, organization.id, eventId);
    if (!session) throw new ApiError(HttpStatus.NOT_FOUND, M.sessionNotFound);
    return session;
  }

  /** The party's price with the code, by the one pricing function; a code that gives nothing says why. */
  private async price(
    organization: Organization,
    session: Pick<StoreSessionRow, 'activity_id' | 'name' | 'free'>,
    input: Pick<CheckoutQuotePayload, 'discount_code' | 'party_size' | 'points_token' | 'redeem_points'>,
    unitPriceCents: number,
  ) {
    const at = new Date();
    let rule = null;
    if (input.discount_code) {
      rule = await this.discounts.ruleByCode({ organizationId: organization.id }, input.discount_code);
      if (!rule) throw invalidCode(M.codeUnknown);
      const refusal = discountRefusal(rule, session.activity_id, at);
      if (refusal) throw invalidCode(refusal);
    }
    const priced = priceParty({
      description: session.name,
      activityId: session.activity_id,
      unitPriceCents: session.free ? 0 : unitPriceCents,
      partySize: input.party_size,
      rule,
      at,
      redeemPoints: input.points_token ? input.redeem_points : 0,
    });
    return { ...priced, code: rule?.code ?? null, codeId: rule?.id ?? null };
  }

  /**
   * The price, then what the student's holdings pay of it (issue 24) in the written order: a
   * membership or pack covering the booking makes it cost nothing more (no points, no code counted:
   * the order's total is 0); gift cards and credit pay what they can of the rest. With `em` (a
   * checkout) the holdings are read under the student's wallet lock, and a cover asked for but not
   * possible now is refused.
   */
  private async priceWithWallet(
    organization: Organization,
    course: Pick<StoreSessionRow, 'activity_id' | 'name' | 'free' | 'category_id'>,
    input: CheckoutQuotePayload,
    unitPriceCents: number,
    proofStudentId: string | null,
    em?: EntityManager,
  ): Promise<{ priced: Priced; shown: ShownPlan }> {
    const priced = await this.price(organization, course, input, unitPriceCents);
    if (input.cover_booking) {
      // The total before points: a covered booking spends none.
      const covered = { activity_id: course.activity_id, category_id: course.category_id };
      const beforePoints = priced.total + priced.pointsCents;
      const shown = await this.storeWallet.plan(organization.id, proofStudentId, { cover_booking: true }, covered, input.party_size, beforePoints, em);
      if (shown.plan.booking)
        return {
          priced: { ...priced, discount: 0, total: 0, pointsRedeemed: 0, pointsCents: 0, code: null, codeId: null, line: { ...priced.line, discount_cents: 0 } },
          shown,
        };
    }
    // Gift cards and credit pay what they can of the total after points; the card the rest.
    const money = await this.storeWallet.plan(
      organization.id,
      proofStudentId,
      { use_wallet_money: input.use_wallet_money, gift_card_code: input.gift_card_code },
      null,
      input.party_size,
      priced.total,
      em,
    );
    return { priced, shown: money };
  }

  /**
   * What a confirmation says was paid: the card's part ("Order #12: $20.00 paid.", or "free"), and
   * what the buyer's holdings paid ("Paid with 10-class pack: 1 credit.").
   */
  private async paidLines(order: Order): Promise<string[]> {
    const card = Math.max(0, order.totalCents - order.walletCents);
    const paidWith = await this.storeWallet.paidWith(order.organization.id, order.id);
    const covered = paidWith.length > 0 && card === 0;
    return [
      `Order #${order.orderNumber}: ${card > 0 ? `${formatCents(card)} paid` : covered ? 'nothing more to pay' : 'free'}.`,
      ...paidWith.map((p) => `Paid with ${p.label}: ${p.amount}.`),
    ];
  }

  private result(
    order: Order,
    paymentUrl: string | null,
    confirmationUrl: string,
    holdUntil: Date | null,
  ): CheckoutResult {
    return {
      order_id: order.id,
      order_number: order.orderNumber,
      status: order.status,
      total_cents: order.totalCents,
      payment_url: paymentUrl,
      confirmation_url: confirmationUrl,
      hold_expires_at: holdUntil?.toISOString() ?? null,
      due_cents: Math.max(0, order.totalCents - order.walletCents),
    };
  }

  /**
   * store_order.paid: the confirmation mail with the course's own text (auto_email), the
   * session's time in its location's zone, where it is (or its meeting link), a calendar file and the
   * receipt. Mailed once per order (its key), however often the announcement is delivered.
   */
  private async confirm(organizationId: string, orderId: string): Promise<void> {
    const em = this.em.fork();
    const order = await em.findOne(
      Order,
      { id: orderId, organization: organizationId },
      { populate: ['student', 'organization'] },
    );
    if (!order?.accessTokenHash) return;
    if (!order.eventId) {
      const appointment = await storeOrderAppointment(em, organizationId, order.id);
      return appointment ? this.confirmAppointment(order, appointment) : this.confirmProduct(order);
    }
    const session = await storeSession(em, organizationId, order.eventId, { bookable: false });
    if (!session) return;
    const lines = await em.find(OrderLine, { order: order.id });
    const party = lines.find((l) => l.kind === 'seat')?.quantity ?? 1;
    // A mail's reader may be anywhere: the zone is always named.
    const when = formatZonedDateTime(session.starts_at, session.timezone);
    const where = session.online
      ? `Online${session.meeting_join_url ? `: ${session.meeting_join_url}` : ''}`
      : `${session.location_name}, ${session.address}`;
    const ics = { value: orderCalendarFile(order, session.name, session, where) };
    const enrollmentId = await this.seats.activeForOrder(organizationId, order.id);
    const manage = enrollmentId ? await this.links.urlFor(organizationId, 'enrollment', enrollmentId) : null;
    const text = [
      `Hello ${greeted(order)},`,
      '',
      `You're booked in ${session.name} (${party === 1 ? '1 seat' : `${party} seats`}).`,
      '',
      `When: ${when}`,
      `Where: ${where}`,
      ...(session.auto_email.trim() ? ['', session.auto_email.trim()] : []),
      '',
      ...(await this.paidLines(order)),
      ...(order.receiptUrl ? [`Receipt: ${order.receiptUrl}`] : []),
      ...answerLines(await this.answerSets(em, organizationId, order.id)),
      ...(manage ? ['', manageLinkLine(manage)] : []),
      '',
      order.organization.name,
    ].join('\n');
    await this.mail.enqueue({
      to: order.student.email,
      subject: `You're booked: ${oneLine(session.name)}`.slice(0, 300),
      text,
      ...(manage ? { html: bookingMailHtml(text, manage) } : {}),
      attachments: [
        {
          filename: 'booking.ics',
          contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
          content: ics.value,
        },
      ],
      dedupeKey: `store-confirmation:${order.id}`,
    });
  }

  /**
   * A product order's confirmation (store_order.paid): the receipt of a paid one (a subscription's
   * says what it renews at), the download of a lead magnet. Mailed once per order (its key).
   */
  private async confirmProduct(order: Order): Promise<void> {
    const em = this.em.fork();
    const line = await em.findOne(OrderLine, { order: order.id, kind: 'product' });
    if (!line?.productId) return;
    const sold = await this.products.soldProduct(order.organization.id, line.productId, line.productPriceId ?? null);
    const kind = sold?.price?.category ?? 'oneTime';
    const name = oneLine(line.description);
    const studio = order.organization.name;
    const hello = greeted(order) ? `Hello ${greeted(order)},` : 'Hello,';
    if (kind === 'leadMagnet') {
      const download = sold?.product.downloadUrl ?? null;
      await this.mail.enqueue({
        to: order.student.email,
        subject: `Your download: ${name}`.slice(0, 300),
        text: [
          hello,
          '',
          download
            ? `Here is ${name}: ${download}`
            : `Thank you for asking for ${name}. ${studio} will send it to you shortly.`,
          '',
          studio,
        ].join('\n'),
        dedupeKey: `store-download:${order.id}`,
      });
      return;
    }
    const renews =
      kind === 'subscription' && sold?.price?.renewalIntervalUnit
        ? ` It renews at ${renewalText(order.totalCents, sold.price.renewalIntervalUnit, sold.price.renewalIntervalQuantity ?? 1)} until you cancel.`
        : '';
    await this.mail.enqueue({
      to: order.student.email,
      subject: `Thank you for your order: ${name}`.slice(0, 300),
      text: [
        hello,
        '',
        `Thank you for buying ${name}.${renews}`,
        ...(line.recipientEmail ? ['', `Your gift card was sent to ${line.recipientEmail}.`] : []),
        '',
        ...(await this.paidLines(order)),
        ...(order.receiptUrl ? [`Receipt: ${order.receiptUrl}`] : []),
        '',
        studio,
      ].join('\n'),
      dedupeKey: `store-confirmation:${order.id}`,
    });
  }
}

/** The buyer as the students module finds or creates them (a lead magnet's may have no name). */
const buyerOf = (input: CheckoutPayload) => ({
  first_name: input.first_name ?? '',
  last_name: input.last_name ?? '',
  email: input.email,
});

/** The order's copy of the buyer as typed (issue 31): the student's stored name is never changed by a checkout. */
const typedBuyer = (buyer: ReturnType<typeof buyerOf>) => ({
  buyerFirstName: buyer.first_name.slice(0, 100),
  buyerLastName: buyer.last_name.slice(0, 100),
  buyerEmail: buyer.email.trim(),
});

/** Whom a store order's confirmation greets: the first name typed for it (the student's on older orders). */
const greeted = (order: Order) => oneLine(order.buyerFirstName ?? order.student.firstName);

/** A quote's prices and what the holdings pay (the seats left are the caller's). */
function quoteOf(priced: Priced, shown: ShownPlan): Omit<CheckoutQuote, 'seats_left'> {
  return {
    lines: [priced.line],
    subtotal_cents: priced.subtotal,
    discount_cents: priced.discount,
    total_cents: priced.total,
    discount_code: priced.code,
    points_redeemed: priced.pointsRedeemed,
    points_cents: priced.pointsCents,
    covered_by: shown.covered_by,
    wallet_money: shown.wallet_money,
    due_cents: shown.plan.due_cents,
  };
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/** "$89.00 every month", "$10.00 every 2 weeks". */
function renewalText(cents: number, unit: string, count: number): string {
  const singular = unit.replace(/s$/, '');
  return `${formatCents(cents)} every ${count === 1 ? singular : `${count} ${unit}`}`;
}

/** The answers in the confirmation mail: "Your answers", then label: value (per ticket, under Ticket N). */
function answerLines(sets: { ticket: number | null; answers: { label: string; value: string }[] }[]): string[] {
  if (!sets.some((set) => set.answers.length > 0)) return [];
  const lines = ['', 'Your answers:'];
  for (const set of sets) {
    if (set.ticket !== null) lines.push(`Ticket ${set.ticket}:`);
    for (const a of set.answers) {
      // A multi-line answer stays on its line; an unanswered field shows a dash.
      const value = a.value.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).join(' / ') || '—';
      lines.push(`${set.ticket !== null ? '  ' : ''}${oneLine(a.label)}: ${value}`);
    }
  }
  return lines;
}
