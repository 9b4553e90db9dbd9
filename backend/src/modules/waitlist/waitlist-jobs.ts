/*
 * The waitlist's queue (issue 23): its name, the offer-expiry job and its payload, the sweep that
 * backs it up, and the grace an expiry job waits after a hold ends.
 */

export const WAITLIST_QUEUE = 'waitlist';
export const EXPIRE_OFFERS_JOB = 'expire-offers';
/** The sweep that ends offers whose hold ran out, in case an offer's own expiry job was lost. */
export const SWEEP_SCHEDULE = 'waitlist-offer-sweep';
export const SWEEP_EVERY_MS = 60_000;
/** An offer's expiry job runs this long after its hold ends. */
export const EXPIRY_GRACE_MS = 2_000;

/** The expiry job's payload: ids only; without them, every session with an offer out. */
export interface ExpireOffersJob {
  organizationId?: string;
  eventId?: string;
}
