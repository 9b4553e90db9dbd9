/**
 * What the store checkout's parts share (issue 33, split from store-checkout.service.ts): the
 * public refusals, the buyer as typed, the order's token hash, the checkout form's answers (checked,
 * and read back), the store's session and appointment course found or refused, and the checkout's
 * answer. Pure functions and reads; no service.
 */
import { QueryOrder } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { HttpStatus } from '@nestjs/common';
import {
  APPOINTMENT_MESSAGES as AM,
  CHECKOUT_MESSAGES as M,
  answerErrors,
  formAnswersSchema,
  storedAnswerSets,
  toPublicCheckoutForm,
  type CheckoutPayload,
  type CheckoutQuote,
  type CheckoutResult,
  type priceParty,
  type StoreRefusal,
} from '@studio/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../../common/api-error';
import { requestHash } from '../../../common/idempotency/idempotency.store';
import { Organization } from '../../organizations/organization.entity';
import { OrderFormSubmission } from '../entities/order-form-submission.entity';
import { Order } from '../entities/order.entity';
import { storeAppointmentCourse, type StoreAppointmentCourseRow } from '../store-appointment.query';
import { storeSession, type StoreSessionRow } from '../store-session.query';
import type { ShownPlan } from '../store-wallet';

/** A party's price with its code, as the pricing gives it (StoreCheckoutPricing). */
export type Priced = ReturnType<typeof priceParty> & { code: string | null; codeId: string | null };

/** The checkout form's answers as they are kept with the order (checkAnswers). */
export type AnswerSets = ReturnType<typeof checkAnswers>;

/** The buyer as the students module finds or creates them (a lead magnet's may have no name). */
export const buyerOf = (input: CheckoutPayload) => ({
  first_name: input.first_name ?? '',
  last_name: input.last_name ?? '',
  email: input.email,
});

export type Buyer = ReturnType<typeof buyerOf>;

/** The order's copy of the buyer as typed (issue 31): the student's stored name is never changed by a checkout. */
export const typedBuyer = (buyer: Buyer) => ({
  buyerFirstName: buyer.first_name.slice(0, 100),
  buyerLastName: buyer.last_name.slice(0, 100),
  buyerEmail: buyer.email.trim(),
});

/** The hash kept of an order's secret token (its confirmation link's). */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a token's hash is the order's, in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A store checkout request's hash (its store and canonical body): the same request resumes its pending order. */
export const checkoutRequestHash = (organization: Organization, input: CheckoutPayload) => requestHash({ store: organization.id }, input);

export const invalidCode = (message: string) => new ApiError(HttpStatus.BAD_REQUEST, message, { discount_code: message });

export const pointsRefusal = (status: HttpStatus, field: 'points_token' | 'redeem_points', message: string) =>
  new ApiError(status, message, { [field]: message });

/** A public refusal of contracts' STORE_REFUSALS: the same words whoever the email belongs to (issue 31). */
export const storeRefusal = (refusal: StoreRefusal) => new ApiError(refusal.status, refusal.message, { [refusal.field]: refusal.message });

export const seatsRefusal = (seatsLeft: number) =>
  new ApiError(HttpStatus.CONFLICT, seatsLeft === 0 ? M.soldOut : M.onlyLeft(seatsLeft), {
    party_size: seatsLeft === 0 ? M.soldOut : M.onlyLeft(seatsLeft),
  });

/** 400 when the points proof belongs to another student than the checkout's buyer. */
export function requireProofOf(studentId: string, pointsStudentId: string | null): void {
  if (pointsStudentId && pointsStudentId !== studentId) throw pointsRefusal(HttpStatus.BAD_REQUEST, 'points_token', M.pointsTokenOtherEmail);
}

/** A bookable session of the store: 404 for none (or another organization's). */
export async function requireStoreSession(em: EntityManager, organization: Organization, eventId: string): Promise<StoreSessionRow> {
  const session = await storeSession(em, organization.id, eventId);
  if (!session) throw new ApiError(HttpStatus.NOT_FOUND, M.sessionNotFound);
  return session;
}

/**
 * A listed appointment course of the store with room for the party: 404 for none (or another
 * organization's), 400 for a scheduled course or a party larger than its capacity.
 */
export async function requireAppointmentCourse(
  em: EntityManager,
  organization: Organization,
  activityId: string,
  partySize: number,
): Promise<StoreAppointmentCourseRow> {
  const course = await storeAppointmentCourse(em, organization.id, activityId);
  if (!course) throw new ApiError(HttpStatus.NOT_FOUND, AM.courseNotFound);
  if (course.activity_type !== 'appointment')
    throw new ApiError(HttpStatus.BAD_REQUEST, AM.notAppointmentCourse, { activity_id: AM.notAppointmentCourse });
  if (partySize > course.capacity) {
    const message = M.partyCapacity(course.capacity);
    throw new ApiError(HttpStatus.BAD_REQUEST, message, { party_size: message });
  }
  return course;
}

/**
 * The checkout form's answers checked by the one schema built from the course's form (the page
 * uses the same): 400 with each message keyed `answers.<set>.<field id>`. A course without a form
 * refuses answers.
 */
export function checkAnswers(course: Pick<StoreSessionRow, 'form_collection_type' | 'form_fields'>, input: CheckoutPayload) {
  const form = toPublicCheckoutForm(course.form_collection_type, course.form_fields);
  const parsed = formAnswersSchema(form, input.party_size).safeParse(input.answers);
  if (!parsed.success) {
    const errors = answerErrors(parsed.error);
    throw new ApiError(HttpStatus.BAD_REQUEST, Object.values(errors)[0] ?? M.answersInvalid, errors);
  }
  return form ? storedAnswerSets(form, parsed.data) : [];
}

/** The checkout form's answers kept with the order: the order's set first, then ticket by ticket. */
export async function answerSets(em: EntityManager, organizationId: string, orderId: string) {
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

/** A quote's prices and what the holdings pay (the seats left are the caller's). */
export function quoteOf(priced: Priced, shown: ShownPlan): Omit<CheckoutQuote, 'seats_left'> {
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

/** The checkout's answer: the order, its payment page (or none) and its confirmation page. */
export function checkoutResult(order: Order, paymentUrl: string | null, confirmationUrl: string, holdUntil: Date | null): CheckoutResult {
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
