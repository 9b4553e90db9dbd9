/**
 * The session or appointment checkout's request bodies, built from what the buyer chose: the quote
 * and the Book call share one builder for what is priced (the target, the party, the discount code,
 * the points and wallet proof, the gift card), so what is quoted is what is booked. Pure: no state,
 * no calls; typed by the generated OpenAPI bodies.
 */
import type { AnswerSet } from '@studio/contracts';
import type { components } from '@studio/contracts/src/generated/api';
import type { PointsChoice } from './checkout-points';

export type QuoteBody = components['schemas']['CheckoutQuoteDto'];
export type BookBody = components['schemas']['CheckoutDto'];

/** What is booked: a session, or an appointment course's time (issue 22). */
export type CheckoutTarget = { event_id: string } | { activity_id: string; starts_at: string };

/** What the price depends on. */
export interface PricedChoices {
  target: CheckoutTarget;
  party: number;
  /** The discount code as typed (sent trimmed, and not at all when empty). */
  code: string;
  /** A gift card's code as typed (sent trimmed, and not at all when empty). */
  giftCode: string;
  /** The proof of the email with what it pays, when the buyer asked for one. */
  points: PointsChoice | null;
}

/** What the Book call sends besides the priced choices. */
export interface BookChoices extends PricedChoices {
  buyer: { first_name: string; last_name: string; email: string };
  /** The checkout form's answer sets; null when the course collects none. */
  answers: AnswerSet[] | null;
  /** The signed waiver's token, when the course requires one. */
  waiverToken: string | null;
  /** A waitlist offer's claim token, when the checkout books an offer's seats. */
  claimToken: string | null;
}

/** The proof of the email with what it pays: points (more than none), a pass covering the booking, gift cards and credit. */
export function pointsSent(choice: PointsChoice | null): Partial<QuoteBody> {
  return choice && (choice.points > 0 || choice.cover_booking || choice.use_wallet_money)
    ? {
        points_token: choice.token,
        ...(choice.points > 0 ? { redeem_points: choice.points } : {}),
        ...(choice.cover_booking ? { cover_booking: true } : {}),
        ...(choice.use_wallet_money ? { use_wallet_money: true } : {}),
      }
    : {};
}

/** The priced choices after the target, the party and the buyer. */
function pricedRest({ code, giftCode, points }: PricedChoices): Partial<QuoteBody> {
  return {
    ...(code.trim() ? { discount_code: code.trim() } : {}),
    ...pointsSent(points),
    ...(giftCode.trim() ? { gift_card_code: giftCode.trim() } : {}),
  };
}

/** The quote's body (checkout/quote). */
export function quoteRequest(choices: PricedChoices): QuoteBody {
  return { ...choices.target, party_size: choices.party, ...pricedRest(choices) };
}

/** The Book call's body (checkout): the quote's, with the buyer, the answers, the waiver and the claim. */
export function bookRequest(choices: BookChoices): BookBody {
  const { target, party, buyer, answers, waiverToken, claimToken } = choices;
  return {
    ...target,
    party_size: party,
    ...buyer,
    ...pricedRest(choices),
    ...(answers ? { answers } : {}),
    ...(waiverToken ? { waiver_token: waiverToken } : {}),
    ...(claimToken ? { claim_token: claimToken } : {}),
  };
}
