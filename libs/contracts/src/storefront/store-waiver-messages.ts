/*
 * The words of the waiver step of the store's checkout (issue 21), without zod: the store's page
 * imports them directly (its bundle loads zod only in the form's own chunk). See store-waiver.ts.
 */

export const STORE_WAIVER_MESSAGES = {
  /** The checkout of a waiver-requiring course without the buyer's signature (400, keyed waiver_token). */
  notSigned: 'Sign the waiver before paying',
  /** A token that is not this buyer's signing of this course's waiver in this store (400). */
  tokenInvalid: 'This waiver signature does not belong to this checkout: sign the waiver again',
  /** POST waiver for a course that requires none (400). */
  notRequired: 'This course requires no waiver',
  /** The status call with an unknown token (404). */
  notFound: 'Waiver signing not found',
  /** What the checkout page says while Pay waits for the signature. */
  payWaits: 'Sign the waiver to continue',
  /** The checkout page's status once signed (the lead's browser test reads it). */
  signed: 'Waiver signed',
  /** The framed signing page's title attribute. */
  frameTitle: 'Waiver',
  /** What the page asks before the signing can start. */
  needBuyer: 'Enter your name and email, then sign the waiver',
  /** POST waiver with both or neither of a session and an appointment course (400). */
  oneTarget: 'Choose either a session or an appointment course',
} as const;

/** The message the demo signing page posts to its parent (the store's page) once signed. */
export const WAIVER_SIGNED_EVENT = 'studio:waiver-signed';
