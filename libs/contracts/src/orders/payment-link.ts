/*
 * Payment links (issue 9, spec 000 §2, §7, §8): Add student's "Send payment link". The toasts are
 * SCHEDULING_MESSAGES.paymentLinkSent and .addFailed; already enrolled and session full answer the
 * scheduling messages.
 */

/** How long a link (and the seat it holds) lasts unless PAYMENT_LINK_TTL_HOURS says otherwise. */
export const PAYMENT_LINK_TTL_HOURS_DEFAULT = 24;

export const PAYMENT_LINK_MESSAGES = {
  freeSession: 'This session is free: there is nothing to pay. Enroll the student directly.',
  alreadyPending: 'A payment link for this session is already waiting for this student.',
  providerFailed: 'The payment provider did not answer, so no link was sent. Please try again.',
  appointmentNotFound: 'Appointment not found',
  /** The order's payment page ended (cancelled, expired, or replaced) while its page was being made. */
  linkEnded: 'This payment link ended before it could be sent. Please send a new one.',
  sendLink: 'Send payment link',
  enrollDirectly: 'Enroll directly',
} as const;

/**
 * What an order's history says when a payment cannot be honoured (issue 31): the payment is recorded
 * and refunded in the same step, and the reason is written on the order.
 */
export const UNHONOURED_PAYMENT_MESSAGES = {
  /** The order had ended (the session cancelled, the link cancelled or expired) before the payment completed. */
  orderEnded: 'The order had been cancelled or had expired when the payment completed. The payment is refunded.',
  /** The seats were gone (or the session cancelled) when the payment completed. */
  notSeated: (why: string) => `The student is not enrolled: ${why}. The payment is refunded.`,
  /** A pending order whose payment page was never made in time (its checkout died): its hold is released. */
  noPage: 'No payment page was made in time, so the seats held for it are released.',
  /** The mail to the buyer. */
  mailSubject: (what: string) => `Your payment for ${what} is being refunded`,
} as const;
