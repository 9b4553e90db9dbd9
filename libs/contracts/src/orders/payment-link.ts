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
  sendLink: 'Send payment link',
  enrollDirectly: 'Enroll directly',
} as const;
