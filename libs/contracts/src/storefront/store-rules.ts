/*
 * The store's rules that its pages need in the browser, without zod (which would weigh on the
 * pages' JavaScript): the schemas that use them are in checkout.schema.ts.
 */
import { formatTimeZone } from '../time';

/** The largest party one booking may bring (the buyer and their guests). */
export const MAX_PARTY_SIZE = 20;

/** The largest party a buyer may pick for a session with this many seats left. */
export const partySizeLimit = (seatsLeft: number) => Math.max(0, Math.min(MAX_PARTY_SIZE, seatsLeft));

/**
 * How many sets of checkout form answers a checkout sends: none when the course has no form (or
 * no field), one per order, one per seat (the party's size) per ticket.
 */
export function answerSetCount(
  form: { collection_type: 'order' | 'ticket'; fields: readonly unknown[] } | null | undefined,
  partySize: number,
): number {
  if (!form || form.fields.length === 0) return 0;
  return form.collection_type === 'ticket' ? partySize : 1;
}

/** The key of a checkout form field's error: `answers.<set>.<field id>` (the API's and the page's). */
export const answerErrorKey = (set: number, fieldId: string) => `answers.${set}.${fieldId}`;

/** Where a store lives: the studio's own site when it names one, else PUBLIC_APP_URL/s/{slug}. */
export function storeAddress(input: { appUrl: string; slug: string; publicUrl?: string | null }): string {
  if (input.publicUrl) return input.publicUrl.replace(/\/+$/, '');
  return `${input.appUrl.replace(/\/+$/, '')}/s/${input.slug}`;
}

/** The spec's link shapes under a store address (spec 001 §2, Share). */
export const storeLinks = {
  course: (store: string, activityId: string) => `${store}/activity/${activityId}`,
  checkoutSession: (store: string, eventId: string) => `${store}/checkout?event_id=${eventId}`,
  /** A sold-out session's waitlist (issue 23). */
  waitlist: (store: string, eventId: string) => `${store}/waitlist?event_id=${eventId}`,
  /** A waitlist offer's claim: the session's checkout holding the offered seats. */
  claim: (store: string, eventId: string, token: string) =>
    `${store}/checkout?event_id=${eventId}&claim=${encodeURIComponent(token)}`,
  checkoutProduct: (store: string, productId: string) => `${store}/checkout?product_id=${productId}`,
  /** An appointment course's checkout at one of its starts (an ISO instant). */
  checkoutAppointment: (store: string, activityId: string, startsAt: string) =>
    `${store}/checkout?activity_id=${activityId}&starts_at=${encodeURIComponent(startsAt)}`,
};

/**
 * The line under an appointment's times when the visitor's zone is not the studio's (issue 22):
 * "Times are in Asia/Tokyo. The studio is in America/New_York."; null when they are the same.
 */
export function zonesLine(visitorZone: string, studioZone: string): string | null {
  if (!visitorZone || visitorZone === studioZone) return null;
  return `Times are in ${formatTimeZone(visitorZone)}. The studio is in ${formatTimeZone(studioZone)}.`;
}

/** The largest party an appointment course takes: its capacity, at most MAX_PARTY_SIZE. */
export const appointmentPartyLimit = (capacity: number) => Math.max(1, Math.min(MAX_PARTY_SIZE, capacity));
