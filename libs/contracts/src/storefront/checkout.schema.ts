import { z } from 'zod';
import { ORDER_STATUSES } from '../orders/order.schema';
import { PRODUCT_PRICE_TYPES, RENEWAL_INTERVAL_UNITS } from '../products/product.schema';
import { buyerNameErrors } from './product-buyer';
import { studentCreateSchema } from '../students/student.schema';
import { multilineText, safeText } from '../safe-input';
import { GIFT_CARD_MESSAGES, MAX_GIFT_MESSAGE_LENGTH } from '../wallet/gift-card';
import { discountCents, isDiscountInWindow, type DiscountRule } from '../discounts/discount-pricing';
import { POINTS_MESSAGES, POINTS_PER_DOLLAR, pointsToCents } from '../loyalty/points';
import { requiredUnless } from '../required-when';
import { APPOINTMENT_MESSAGES } from '../scheduling/appointment-messages';
import { instantString } from '../scheduling/appointment.schema';

/*
 * The store's checkout (issue 21): what a buyer sends and what the server answers. The total is
 * computed on the server only, by the one pricing function (discount-pricing.ts); the browser's
 * numbers are display.
 */

import { MAX_PARTY_SIZE } from './store-rules';
import { formAnswersInputSchema } from './form-answers';
import { waiverTokenSchema } from './store-waiver';
import { waitlistClaimTokenSchema } from '../scheduling/waitlist';
import { WAITLIST_MESSAGES } from '../scheduling/waitlist-rules';
import { WALLET_KINDS, WALLET_MESSAGES } from '../wallet/wallet.schema';
import { GIFT_CARD_CODE_MAX_INPUT, normalizeGiftCardCode } from '../wallet/gift-card';

export const CHECKOUT_MESSAGES = {
  itemRequired: 'Choose a session to book',
  partySize: `Party size must be a whole number from 1 to ${MAX_PARTY_SIZE}`,
  sessionNotFound: 'Session not found',
  soldOut: 'Sold out',
  onlyLeft: (seats: number) => (seats === 1 ? 'Only 1 seat left' : `Only ${seats} seats left`),
  singleParty: 'This session takes one party and it is booked',
  finished: 'This session has already ended',
  alreadyBooked: 'You are already booked in this session',
  alreadyPending: 'You already have a booking waiting for payment in this session',
  codeTooLong: 'A code is at most 50 characters',
  codeUnknown: 'This code is not valid',
  codeNotYet: 'This code is not active yet',
  codeExpired: 'This code has expired',
  codeOtherCourse: 'This code does not apply to this course',
  paymentFailed: 'The payment could not be started. Please try again in a moment.',
  /** The order ended (its hold released, or replaced by a newer checkout) while its payment page was being made. */
  checkoutEnded: 'This checkout has ended. Please start again.',
  orderNotFound: 'Order not found',
  answersInvalid: 'Check the answers to the checkout form',
  oneItem: 'Choose either a session or a product, not both',
  nothingChosen: 'Choose a session or a product to buy',
  productNotFound: 'Product not found',
  productQuantity: 'A product is bought one at a time',
  productAnswers: 'A product has no checkout form',
  codeCoursesOnly: 'Discount codes apply to courses only',
  /* An appointment course's time (issue 22): activity_id and starts_at in place of event_id. */
  bookingChosen: 'Choose a session or an appointment time to book',
  oneBooking: 'Choose either a session or an appointment time, not both',
  oneThing: 'Choose one thing to buy: a session, an appointment time or a product',
  appointmentCourse: 'Choose the course of the appointment',
  appointmentStart: APPOINTMENT_MESSAGES.startsAt,
  /** A party larger than the appointment course's capacity. */
  partyCapacity: (capacity: number) =>
    capacity === 1 ? 'This appointment takes 1 person' : `This appointment takes at most ${capacity} people`,
  pointsCoursesOnly: 'Points apply to courses only',
  /* Loyalty points at the checkout (step 6). */
  ...POINTS_MESSAGES,
} as const;

/** A one-time points code: this many digits, valid this long, void after this many wrong tries. */
export const POINTS_CODE_DIGITS = 6;
export const POINTS_CODE_TTL_MINUTES = 10;
export const POINTS_CODE_MAX_TRIES = 5;
/** The proof a verified code gives: valid this long (the rest of the checkout). */
export const POINTS_TOKEN_TTL_MINUTES = 30;
/** The most points one checkout may name (a bound, so no number overflows a column). */
export const MAX_REDEEM_POINTS = 100_000_000;

const discountCode = safeText({ error: CHECKOUT_MESSAGES.codeUnknown })
  .trim()
  .max(50, CHECKOUT_MESSAGES.codeTooLong)
  .optional()
  .transform((code) => code || undefined);

/** What the price depends on: the session (or the appointment course's time), the party size and a discount code. */
const checkoutQuoteFields = z.strictObject({
  event_id: z.uuid({ error: CHECKOUT_MESSAGES.sessionNotFound }).optional(),
  /** An appointment course (issue 22): booked at `starts_at`, one of the starts its slots call answers. */
  activity_id: z.uuid({ error: APPOINTMENT_MESSAGES.courseNotFound }).optional(),
  starts_at: instantString(APPOINTMENT_MESSAGES.startsAt).optional(),
  party_size: z
    .number({ error: CHECKOUT_MESSAGES.partySize })
    .int(CHECKOUT_MESSAGES.partySize)
    .min(1, CHECKOUT_MESSAGES.partySize)
    .max(MAX_PARTY_SIZE, CHECKOUT_MESSAGES.partySize)
    .default(1),
  discount_code: discountCode,
  /** The proof from POST points/verify: only with it are points redeemed. */
  points_token: z.string({ error: CHECKOUT_MESSAGES.pointsTokenInvalid }).trim().max(200, CHECKOUT_MESSAGES.pointsTokenInvalid).optional().transform((v) => v || undefined),
  /**
   * Book on the membership or class pack the student holds (issue 24): with points_token (the proof
   * of the email), the one that covers the course in the written order is used; the checkout is
   * refused (409) when nothing held covers it any more.
   */
  cover_booking: z.boolean({ error: WALLET_MESSAGES.choiceInvalid }).optional(),
  /** Let the student's gift cards and store credit pay what is due, as far as they go (with points_token). */
  use_wallet_money: z.boolean({ error: WALLET_MESSAGES.choiceInvalid }).optional(),
  /** A gift card's code as it was mailed: the card pays what it can of what is due, whoever types it. */
  gift_card_code: z
    .string({ error: GIFT_CARD_MESSAGES.codeInvalid })
    .max(GIFT_CARD_CODE_MAX_INPUT, { error: GIFT_CARD_MESSAGES.codeInvalid })
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine((v) => v === undefined || normalizeGiftCardCode(v) !== null, { error: GIFT_CARD_MESSAGES.codeInvalid }),
  /** Points to spend (100 points = $1.00); checked against the balance only with points_token. */
  redeem_points: z
    .number({ error: CHECKOUT_MESSAGES.pointsAmount })
    .int(CHECKOUT_MESSAGES.pointsAmount)
    .min(0, CHECKOUT_MESSAGES.pointsAmount)
    .max(MAX_REDEEM_POINTS, CHECKOUT_MESSAGES.pointsAmount)
    .optional(),
});

type BookingChoice = { event_id?: string; activity_id?: string; starts_at?: string };

/**
 * The booking's target: a session (event_id), or an appointment course's time (activity_id with
 * starts_at), never both. Issues on the field to fix; `thing` names what else could be bought.
 */
function checkBookingChoice(value: BookingChoice, ctx: z.RefinementCtx, nothing: string): void {
  const appointment = value.activity_id !== undefined || value.starts_at !== undefined;
  if (value.event_id && appointment) {
    ctx.addIssue({ code: 'custom', path: ['event_id'], message: CHECKOUT_MESSAGES.oneBooking });
  } else if (!value.event_id && !appointment) {
    ctx.addIssue({ code: 'custom', path: ['event_id'], message: nothing });
  } else if (appointment && value.activity_id === undefined) {
    ctx.addIssue({ code: 'custom', path: ['activity_id'], message: CHECKOUT_MESSAGES.appointmentCourse });
  } else if (appointment && value.starts_at === undefined) {
    ctx.addIssue({ code: 'custom', path: ['starts_at'], message: CHECKOUT_MESSAGES.appointmentStart });
  }
}

export const checkoutQuoteSchema = checkoutQuoteFields
  .superRefine((value, ctx) => checkBookingChoice(value, ctx, CHECKOUT_MESSAGES.bookingChosen))
  // The rule above, for the OpenAPI document: event_id, or else activity_id with starts_at, never both.
  .meta(requiredUnless('event_id', { required: ['activity_id', 'starts_at'] }, { not: { required: ['event_id'] } }));
export type CheckoutQuoteInput = z.input<typeof checkoutQuoteSchema>;
export type CheckoutQuotePayload = z.output<typeof checkoutQuoteSchema>;

/**
 * The checkout of a session (event_id), of an appointment course's time (activity_id with
 * starts_at, issue 22) or of a product (product_id), exactly one of them: the
 * quote's choices, the buyer (found by email, case-insensitive, or created) and the form's answers.
 * A session's or appointment's buyer gives a first and last name; a product's only when it is paid
 * (productBuyerErrors: a lead magnet asks for the email alone).
 */
export const checkoutSchema = z
  .strictObject({
    event_id: checkoutQuoteFields.shape.event_id,
    activity_id: checkoutQuoteFields.shape.activity_id,
    starts_at: checkoutQuoteFields.shape.starts_at,
    product_id: z.uuid({ error: CHECKOUT_MESSAGES.productNotFound }).optional(),
    party_size: checkoutQuoteFields.shape.party_size,
    discount_code: discountCode,
    first_name: studentCreateSchema.shape.first_name.optional(),
    last_name: studentCreateSchema.shape.last_name.optional(),
    email: studentCreateSchema.shape.email,
    /** The checkout form's answers (formAnswersSchema checks them against the course's form). */
    answers: formAnswersInputSchema.optional(),
    points_token: checkoutQuoteFields.shape.points_token,
    redeem_points: checkoutQuoteFields.shape.redeem_points,
    cover_booking: checkoutQuoteFields.shape.cover_booking,
    use_wallet_money: checkoutQuoteFields.shape.use_wallet_money,
    gift_card_code: checkoutQuoteFields.shape.gift_card_code,
    /** The waiver's signing token (POST waiver), when the course requires a waiver the buyer had to sign. */
    waiver_token: waiverTokenSchema.optional(),
    /** A waitlist offer's claim (the token of its claim link, issue 23): the checkout books the seats the offer holds. */
    claim_token: waitlistClaimTokenSchema.optional(),
    /** A gift card's recipient (issue 24): required for a gift-card product (giftRecipientErrors), refused elsewhere. */
    recipient_name: safeText({ error: GIFT_CARD_MESSAGES.recipientNameRequired })
      .trim()
      .min(1, GIFT_CARD_MESSAGES.recipientNameRequired)
      .max(200, GIFT_CARD_MESSAGES.recipientNameTooLong)
      .optional(),
    recipient_email: z
      .string({ error: GIFT_CARD_MESSAGES.recipientEmail })
      .trim()
      .max(254, GIFT_CARD_MESSAGES.recipientEmail)
      .pipe(z.email({ error: GIFT_CARD_MESSAGES.recipientEmail }))
      .optional(),
    gift_message: multilineText({ error: GIFT_CARD_MESSAGES.messageTooLong }).trim().max(MAX_GIFT_MESSAGE_LENGTH, GIFT_CARD_MESSAGES.messageTooLong).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.product_id)
      for (const field of ['recipient_name', 'recipient_email', 'gift_message'] as const)
        if (value[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: GIFT_CARD_MESSAGES.notAGiftCard });
    if (value.claim_token !== undefined && !value.event_id)
      ctx.addIssue({ code: 'custom', path: ['claim_token'], message: WAITLIST_MESSAGES.claimOtherSession });
    const appointment = value.activity_id !== undefined || value.starts_at !== undefined;
    if (value.product_id && appointment) {
      ctx.addIssue({ code: 'custom', path: ['activity_id'], message: CHECKOUT_MESSAGES.oneThing });
    } else if (value.event_id && value.product_id) {
      ctx.addIssue({ code: 'custom', path: ['product_id'], message: CHECKOUT_MESSAGES.oneItem });
    } else if (!value.event_id && !value.product_id && !appointment) {
      ctx.addIssue({ code: 'custom', path: ['event_id'], message: CHECKOUT_MESSAGES.nothingChosen });
    } else if (!value.product_id) {
      checkBookingChoice(value, ctx, CHECKOUT_MESSAGES.nothingChosen);
      for (const [field, message] of Object.entries(buyerNameErrors(value)))
        ctx.addIssue({ code: 'custom', path: [field], message });
    } else {
      if (value.party_size !== 1)
        ctx.addIssue({ code: 'custom', path: ['party_size'], message: CHECKOUT_MESSAGES.productQuantity });
      if (value.answers !== undefined)
        ctx.addIssue({ code: 'custom', path: ['answers'], message: CHECKOUT_MESSAGES.productAnswers });
      // Discount codes are a course's (spec 000 §3: a code is limited to one course or none).
      if (value.discount_code !== undefined)
        ctx.addIssue({ code: 'custom', path: ['discount_code'], message: CHECKOUT_MESSAGES.codeCoursesOnly });
      // Points pay for a course's seats (the points step of the one pricing function); the proof of
      // the email (points_token) may come with a product to let gift cards and credit pay it.
      if (value.redeem_points)
        ctx.addIssue({ code: 'custom', path: ['redeem_points'], message: CHECKOUT_MESSAGES.pointsCoursesOnly });
      // A product is not a booking: memberships and packs cover courses only.
      if (value.cover_booking)
        ctx.addIssue({ code: 'custom', path: ['cover_booking'], message: WALLET_MESSAGES.coversCoursesOnly });
    }
  })
  /*
   * The rule above, for the OpenAPI document: product_id alone; else event_id, or else activity_id
   * with starts_at, never both.
   */
  .meta({
    if: { required: ['product_id'], properties: { product_id: {} } },
    then: {
      not: {
        anyOf: [
          { required: ['event_id'], properties: { event_id: {} } },
          { required: ['activity_id'], properties: { activity_id: {} } },
        ],
      },
    },
    else: requiredUnless('event_id', { required: ['activity_id', 'starts_at'] }, { not: { required: ['event_id'] } }),
  });
export type CheckoutInput = z.input<typeof checkoutSchema>;
export type CheckoutPayload = z.output<typeof checkoutSchema>;

const cents = z.number().int();

/** What the student's holdings pay in a quote or an order (issue 24), in the written order. */
const walletQuoteShape = {
  /** The membership or pack that covers the booking (nothing more is paid), or null. */
  covered_by: z
    .object({ holding_id: z.uuid(), kind: z.enum(['membership', 'pack']), label: z.string(), amount: z.number().int() })
    .nullable(),
  /** Gift cards, then store credit, with what each pays. */
  wallet_money: z.array(z.object({ holding_id: z.uuid(), kind: z.enum(['gift_card', 'store_credit']), label: z.string(), cents })),
  /** What the card pays after them: the total less what the holdings pay (0 when covered). */
  due_cents: cents,
};

export { productBuyerErrors } from './product-buyer';

export const checkoutLineSchema = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unit_price_cents: cents,
  discount_cents: cents,
});

export const checkoutQuoteResultSchema = z.object({
  lines: z.array(checkoutLineSchema),
  subtotal_cents: cents,
  discount_cents: cents,
  total_cents: cents,
  /** The code applied, or null. */
  discount_code: z.string().nullable(),
  /** Points spent on this total (capped at the total after the discount), and what they are worth. */
  points_redeemed: z.number().int(),
  points_cents: cents,
  seats_left: z.number().int(),
  ...walletQuoteShape,
});
export type CheckoutQuote = z.infer<typeof checkoutQuoteResultSchema>;

export const checkoutResultSchema = z.object({
  order_id: z.uuid(),
  order_number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  total_cents: cents,
  /** Where the buyer pays; null when nothing is due (the booking is confirmed). */
  payment_url: z.string().nullable(),
  /** The booking's own page: it carries the order's secret token, the buyer's only key to it. */
  confirmation_url: z.string(),
  /** Until when the seats are held for the payment; null when nothing is due. */
  hold_expires_at: z.string().nullable(),
  /** What the card pays (the total less gift cards and credit; 0 when a membership or pack covered it). */
  due_cents: cents,
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

/** A store order as its buyer sees it (with the order's token): nothing of another buyer. */
export const publicOrderSchema = z.object({
  order_number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  store_name: z.string(),
  /**
   * The buyer as typed for this order (issue 31): never the stored student's name, which the
   * email's owner may have given differently (orders made before these were kept show the student's).
   */
  buyer: z
    .object({
      first_name: z.string().meta({
        description: "The first name typed in this order's checkout (the student's on orders from before it was kept)",
        example: 'Mallory',
      }),
      email: z.string().meta({
        description: "The email as typed in this order's checkout (the student's on orders from before it was kept)",
        example: 'mallory@example.com',
      }),
    })
    .meta({ description: 'Who bought, as typed for this order; nothing stored about the email is shown' }),
  lines: z.array(checkoutLineSchema),
  subtotal_cents: cents,
  discount_cents: cents,
  /** What the loyalty points redeemed on the order took off. */
  points_cents: cents,
  total_cents: cents,
  session: z
    .object({
      name: z.string(),
      starts_at: z.string(),
      ends_at: z.string(),
      timezone: z.string(),
      location_name: z.string(),
      address: z.string(),
      online: z.boolean(),
      party_size: z.number().int(),
    })
    .nullable(),
  /**
   * The appointment an appointment order booked (issue 22; null otherwise): its course, its time and
   * the location's zone, where it is. `status` is held while the buyer pays, booked once paid,
   * cancelled when the order ended unpaid.
   */
  appointment: z
    .object({
      course_name: z.string(),
      starts_at: z.string(),
      ends_at: z.string(),
      timezone: z.string().describe("The location's IANA zone"),
      location_name: z.string(),
      address: z.string(),
      online: z.boolean(),
      party_size: z.number().int(),
      status: z.enum(['held', 'booked', 'cancelled']),
    })
    .nullable(),
  /** The product a product order bought (null for a session's). */
  product: z
    .object({
      name: z.string(),
      kind: z.enum(PRODUCT_PRICE_TYPES),
      renewal_interval_unit: z.enum(RENEWAL_INTERVAL_UNITS).nullable(),
      renewal_interval_quantity: z.number().int().nullable(),
      image_url: z.string().nullable(),
    })
    .nullable(),
  receipt_url: z.string().nullable(),
  /** What paid from the buyer's holdings (issue 24): "10-class pack: 1 credit", "Gift card: $20.00". */
  paid_with: z.array(z.object({ label: z.string(), amount: z.string() })),
  /** What the card paid. */
  card_cents: cents,
  /** The checkout form's answers the buyer gave: one set per order (ticket null) or one per ticket. */
  answers: z.array(
    z.object({
      ticket: z.number().int().nullable(),
      answers: z.array(z.object({ label: z.string(), value: z.string() })),
    }),
  ),
});
export type PublicOrder = z.infer<typeof publicOrderSchema>;

const pointsEmail = studentCreateSchema.shape.email;

/** POST /api/public/{slug}/points/code: mail a one-time code to a student's email. */
export const pointsCodeRequestSchema = z.strictObject({ email: pointsEmail });
export type PointsCodeRequest = z.input<typeof pointsCodeRequestSchema>;

/** The same answer whatever the email (no one learns who is a student). */
export const pointsCodeSentSchema = z.object({ message: z.string() });

/** POST /api/public/{slug}/points/verify: the code from the mail. */
export const pointsVerifySchema = z.strictObject({
  email: pointsEmail,
  code: z
    .string({ error: CHECKOUT_MESSAGES.pointsCodeFormat })
    .trim()
    .regex(new RegExp(`^\\d{${POINTS_CODE_DIGITS}}$`), CHECKOUT_MESSAGES.pointsCodeFormat),
});
export type PointsVerifyInput = z.input<typeof pointsVerifySchema>;

/** The proof (points_token for the quote and checkout) and the balance. */
export const pointsBalanceSchema = z.object({
  points_token: z.string(),
  expires_at: z.string(),
  points: z.number().int(),
  value_cents: cents,
  /** What the proven email holds that can pay here (issue 24): only its own, only usable ones. */
  holdings: z.array(
    z.object({
      holding_id: z.uuid(),
      kind: z.enum(WALLET_KINDS),
      label: z.string(),
      /** "3 credits", "Unlimited", "$20.00". */
      balance_text: z.string(),
      /** What is left in its unit (cents for a gift card or credit). */
      balance: z.number().int(),
      expires_at: z.string().nullable(),
    }),
  ),
});
export type PointsBalance = z.infer<typeof pointsBalanceSchema>;

/** Why a code gives nothing to a cart at an instant, or null when it applies (one rule, both sides). */
export function discountRefusal(rule: DiscountRule, activityId: string | null, at: Date): string | null {
  if (!isDiscountInWindow(rule, at)) {
    const starts = rule.start_date === null ? null : new Date(rule.start_date).getTime();
    return starts !== null && at.getTime() < starts
      ? CHECKOUT_MESSAGES.codeNotYet
      : CHECKOUT_MESSAGES.codeExpired;
  }
  if (rule.activity_id !== null && rule.activity_id !== activityId) return CHECKOUT_MESSAGES.codeOtherCourse;
  return null;
}

/** A session's price for a party: its lines and total, with the code's discount (discountCents). */
export function priceParty(input: {
  description: string;
  activityId: string;
  unitPriceCents: number;
  partySize: number;
  rule: DiscountRule | null;
  at: Date;
  /** Points the buyer asks to spend (already checked against the balance); none when absent. */
  redeemPoints?: number;
}): {
  line: z.infer<typeof checkoutLineSchema>;
  subtotal: number;
  discount: number;
  pointsRedeemed: number;
  pointsCents: number;
  total: number;
} {
  const subtotal = input.unitPriceCents * input.partySize;
  const discount = input.rule
    ? discountCents(
        [
          {
            activity_id: input.activityId,
            quantity: input.partySize,
            unit_price_cents: input.unitPriceCents,
          },
        ],
        input.rule,
        input.at,
      )
    : 0;
  const afterDiscount = subtotal - discount;
  const redeemed = redeemPoints(afterDiscount, input.redeemPoints ?? 0);
  return {
    line: {
      description: input.description,
      quantity: input.partySize,
      unit_price_cents: input.unitPriceCents,
      discount_cents: discount,
    },
    subtotal,
    discount,
    ...redeemed,
    total: afterDiscount - redeemed.pointsCents,
  };
}

/**
 * The points step: what spending `points` takes off `totalCents` (100 points = $1.00, whole cents
 * rounded down), never below $0.00: the points spent are capped at what the total needs.
 */
export function redeemPoints(totalCents: number, points: number): { pointsRedeemed: number; pointsCents: number } {
  const asked = Math.max(0, Math.floor(points));
  const cents = Math.min(Math.max(0, totalCents), pointsToCents(asked));
  // The fewest points worth those cents (all of them when they are worth less than the total).
  const spent = cents === pointsToCents(asked) ? asked : Math.ceil((cents * POINTS_PER_DOLLAR) / 100);
  return { pointsRedeemed: cents === 0 ? 0 : spent, pointsCents: cents };
}
