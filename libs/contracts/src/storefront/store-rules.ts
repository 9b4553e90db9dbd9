/*
 * The store's rules that its pages need in the browser, without zod (which would weigh on the
 * pages' JavaScript): the schemas that use them are in checkout.schema.ts.
 */

/** The largest party one booking may bring (the buyer and their guests). */
export const MAX_PARTY_SIZE = 20;

/** The largest party a buyer may pick for a session with this many seats left. */
export const partySizeLimit = (seatsLeft: number) => Math.max(0, Math.min(MAX_PARTY_SIZE, seatsLeft));
