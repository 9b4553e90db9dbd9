/*
 * The store's refusals that must say nothing about the email given (issue 31): a public call
 * answers the same whatever the email, so a rule about the buyer's own bookings refuses in words
 * any buyer could be given, in this one place. Each has a code (what the server and a client match
 * on; the error body stays { statusCode, message, errors }) and its words. The admin's messages for
 * the same rules (PAYMENT_LINK_MESSAGES.alreadyPending, SCHEDULING_MESSAGES.alreadyEnrolled) stay
 * the admin's and never reach a public answer.
 */

/** A refusal of a public call: its code, HTTP status, words and the field they are shown under. */
export interface StoreRefusal {
  code: string;
  status: number;
  message: string;
  field: string;
}

export const STORE_REFUSALS = {
  /**
   * The email already has a seat, or seats waiting for payment, in the session (a checkout left
   * unpaid, or a payment link): the session's checkout holds no more for it. Asked only once the
   * seats themselves are free, so a sold-out session still answers "Sold out" as for anyone.
   */
  seatsNotHeld: {
    code: 'seats_not_held',
    status: 409,
    message: "These seats couldn't be held. Please try again later.",
    field: 'party_size',
  },
} as const satisfies Record<string, StoreRefusal>;
