/**
 * The store's checkout of a session (issue 21; split out in issue 33): the buyer's party, priced on
 * the server by the one pricing function, its seats held under the session's seat lock (or a
 * waitlist offer's seats taken over) while the buyer pays through the payments port (paid enrolls,
 * expired or cancelled frees the seats), or booked at once when nothing is due; and its quote. It
 * composes the pricing, the order writer, the waiver check, the settle step and the payment start.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  STORE_REFUSALS,
  type CheckoutPayload,
  type CheckoutQuote,
  type CheckoutQuotePayload,
  type CheckoutResult,
} from '@studio/contracts';
import { Organization } from '../../organizations/organization.entity';
import { EnrollmentsService } from '../../scheduling/enrollments.service';
import { seatsTaken } from '../../scheduling/seats';
import { WaitlistService } from '../../waitlist/waitlist.service';
import { StoreCheckoutPricing } from './checkout-pricing';
import { StoreCheckoutSettle } from './checkout-settle';
import { checkAnswers, quoteOf, requireProofOf, requireStoreSession, seatsRefusal, storeRefusal } from './checkout-shared';
import { StoreCheckoutWaiver } from './checkout-waiver';
import { bookingDraft, StoreOrderWriter } from './order-writer';
import { StorePaymentStart } from './payment-start';

@Injectable()
export class SessionCheckout {
  constructor(
    private readonly em: EntityManager,
    private readonly seats: EnrollmentsService,
    private readonly waitlist: WaitlistService,
    private readonly pricing: StoreCheckoutPricing,
    private readonly writer: StoreOrderWriter,
    private readonly waiver: StoreCheckoutWaiver,
    private readonly settle: StoreCheckoutSettle,
    private readonly payment: StorePaymentStart,
  ) {}

  /** What the party would cost now, and the seats left: display only, the checkout prices again. */
  async quote(organization: Organization, input: CheckoutQuotePayload): Promise<CheckoutQuote> {
    const session = await requireStoreSession(this.em, organization, input.event_id!);
    const proof = await this.pricing.pointsStudent(organization, input);
    const { priced, shown } = await this.pricing.priceWithWallet(organization, session, input, session.price_cents, proof);
    const taken = (await seatsTaken(this.em, [session.event_id])).get(session.event_id)?.seats ?? 0;
    return { ...quoteOf(priced, shown), seats_left: Math.max(0, session.capacity - taken) };
  }

  async checkout(organization: Organization, input: CheckoutPayload): Promise<CheckoutResult> {
    const ctx = { organizationId: organization.id };
    const session = await requireStoreSession(this.em, organization, input.event_id!);
    const answers = checkAnswers(session, input);
    const pointsStudentId = await this.pricing.pointsStudent(organization, input);
    const paying = !session.free;
    const pay = { partySize: input.party_size, email: input.email, activityId: session.activity_id, free: !paying };
    const { hash, resumed, begun } = await this.writer.resumable(organization, input);
    const { orderId, expiresAt } = begun;
    if (resumed) return this.payment.forBooking(organization, resumed, resumed.totalCents - resumed.walletCents, { ...pay, token: begun.token, expiresAt });

    const { order, total } = await this.em.transactional(async (em) => {
      const student = await this.writer.buyer(em, organization, input);
      // The buyer's earlier checkout of this session still waiting for payment (another request:
      // another party, code or answers) gives way to this one: ended, its seats released and its
      // page closed, so one buyer holds one checkout of a session (issue 31: no 409 to a retry).
      await this.writer.replacePendingCheckouts(em, organization.id, student.id, session.event_id);
      // The course's waiver, signed by the buyer before paying (in this checkout, or earlier): the
      // seat then starts signed and no signing link is mailed.
      await this.waiver.requireSigned(em, organization, student, session.required_waiver_id, input.waiver_token, pointsStudentId);
      requireProofOf(student.id, pointsStudentId);
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
      const unitPriceCents = session.free ? 0 : held.priceCents;
      const { priced, shown } = await this.pricing.priceWithWallet(organization, session, input, unitPriceCents, pointsStudentId, em);
      const draft = { begun, requestHash: hash, student, shown, answers, input, priced };
      const order = await this.writer.write(em, organization, bookingDraft(draft, { kind: 'seat', description: held.eventName, eventId: session.event_id }));
      await this.settle.booking(em, order, student.id, priced, shown, pointsStudentId, expiresAt);
      return { order, total: shown.plan.due_cents };
    });

    return this.payment.forBooking(organization, order, total, { ...pay, token: begun.token, expiresAt });
  }
}
