/**
 * The store's checkout of an appointment course's time (issue 22; split out in issue 33): one party
 * (the buyer and guests) at a start the engine offers now, priced like a session's; and its quote.
 * Inside the checkout's transaction the order is written and the time held for it
 * (AppointmentHolds.hold, until the store's hold ends): the loser of a race for the time gets 409
 * "taken" and no order, nothing charged. Paid, the payment links' settlement books it
 * (convertHold); abandoned or expired, it is released; nothing due, it is booked at once.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus, Injectable } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as AM,
  type CheckoutPayload,
  type CheckoutQuote,
  type CheckoutQuotePayload,
  type CheckoutResult,
} from '@studio/contracts';
import { ApiError } from '../../../common/api-error';
import { Organization } from '../../organizations/organization.entity';
import { AppointmentSlotsService } from '../../scheduling/appointment-slots.service';
import { AppointmentHolds } from '../../scheduling/appointment-holds.service';
import type { StoreAppointmentCourseRow } from '../store-appointment.query';
import { StoreCheckoutPricing } from './checkout-pricing';
import { StoreCheckoutSettle } from './checkout-settle';
import { checkAnswers, quoteOf, requireAppointmentCourse, requireProofOf } from './checkout-shared';
import { StoreCheckoutWaiver } from './checkout-waiver';
import { bookingDraft, StoreOrderWriter } from './order-writer';
import { StorePaymentStart } from './payment-start';

@Injectable()
export class AppointmentCheckout {
  constructor(
    private readonly em: EntityManager,
    private readonly appointments: AppointmentHolds,
    private readonly appointmentSlots: AppointmentSlotsService,
    private readonly pricing: StoreCheckoutPricing,
    private readonly writer: StoreOrderWriter,
    private readonly waiver: StoreCheckoutWaiver,
    private readonly settle: StoreCheckoutSettle,
    private readonly payment: StorePaymentStart,
  ) {}

  /** An appointment course's quote (issue 22): the party at a start the engine offers now. */
  async quote(organization: Organization, input: CheckoutQuotePayload): Promise<CheckoutQuote> {
    const course = await requireAppointmentCourse(this.em, organization, input.activity_id!, input.party_size);
    await this.requireOffered(organization, course, new Date(input.starts_at!));
    const proof = await this.pricing.pointsStudent(organization, input);
    const { priced, shown } = await this.pricing.priceWithWallet(organization, course, input, course.price_cents, proof);
    return { ...quoteOf(priced, shown), seats_left: course.capacity };
  }

  async checkout(organization: Organization, input: CheckoutPayload): Promise<CheckoutResult> {
    const ctx = { organizationId: organization.id };
    const startsAt = new Date(input.starts_at!);
    const course = await requireAppointmentCourse(this.em, organization, input.activity_id!, input.party_size);
    const answers = checkAnswers(course, input);
    const pointsStudentId = await this.pricing.pointsStudent(organization, input);
    const pay = { partySize: input.party_size, email: input.email, activityId: course.activity_id, free: false };
    const { hash, resumed, begun } = await this.writer.resumable(organization, input);
    const { orderId, expiresAt } = begun;
    if (resumed) return this.payment.forBooking(organization, resumed, resumed.totalCents - resumed.walletCents, { ...pay, token: begun.token, expiresAt });
    await this.requireOffered(organization, course, startsAt);

    const { order, total } = await this.em.transactional(async (em) => {
      const student = await this.writer.buyer(em, organization, input);
      // The course's waiver, signed by the buyer before paying (the guests sign nothing here).
      await this.waiver.requireSigned(em, organization, student, course.required_waiver_id, input.waiver_token, pointsStudentId);
      requireProofOf(student.id, pointsStudentId);
      const { priced, shown } = await this.pricing.priceWithWallet(organization, course, input, course.price_cents, pointsStudentId, em);
      const draft = { begun, requestHash: hash, student, shown, answers, input, priced };
      const order = await this.writer.write(em, organization, bookingDraft(draft, { kind: 'appointment', description: course.name }));
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
      await this.settle.booking(em, order, student.id, priced, shown, pointsStudentId, expiresAt);
      return { order, total: shown.plan.due_cents };
    });

    return this.payment.forBooking(organization, order, total, { ...pay, token: begun.token, expiresAt });
  }

  /** 409 unless the engine offers the start now: "taken" when another appointment has it. */
  private async requireOffered(organization: Organization, course: StoreAppointmentCourseRow, startsAt: Date): Promise<void> {
    const state = await this.appointmentSlots.offerState(organization.id, course.activity_id, startsAt);
    if (state === 'offered') return;
    const message = state === 'taken' ? AM.taken : AM.notOffered;
    throw new ApiError(HttpStatus.CONFLICT, message, { starts_at: message });
  }
}
