import type { Refusal, RefusalKind } from '../refusal';
import { PAYMENT_LINK_MESSAGES } from '../orders/payment-link';
import { SCHEDULING_MESSAGES as M } from './scheduling-messages';
import { SESSION_CANCEL_MESSAGES } from './session-cancel';

/*
 * THE rules of taking a seat (spec 000 §2, §4; issues 19, 23, 33), for every way a seat is taken
 * (the admin's enroll, a payment link's or a store checkout's hold), in the order the admin sees
 * them. Pure: the API asks it under the session's seat lock (where it decides) and before the lock
 * (where it may only refuse), with what it read of the session and the student.
 */

/** What the seat rules read of a session and a student. */
export interface SeatRuleInput {
  status: 'active' | 'cancelled';
  endsAt: Date;
  capacity: number;
  /** Seats taken: enrolled students with their guests, and live holds. */
  seats: number;
  /** Enrolled students. */
  students: number;
  /** Seats held by payment links and checkouts. */
  held: number;
  /** The student has an active seat in the session. */
  alreadyEnrolled: boolean;
  /** The student has a live hold (a payment link waiting) in the session. */
  alreadyHolding: boolean;
  /** The course takes a single party per session (spec 000 §2, §4). */
  singleParty: boolean;
  /** Seats asked for: 1 for the student, more with guests. */
  seatsAsked?: number;
}

/** Why a seat cannot be taken. */
export type SeatRefusalCode = 'cancelled' | 'not_found' | 'finished' | 'already_enrolled' | 'already_holding' | 'single_party_taken' | 'full';
export type SeatRefusal = Refusal<SeatRefusalCode>;

/** The kind of each refusal: a session that is not there is not found; the rest conflict with the session as it is. */
export const SEAT_REFUSAL_KINDS: Record<SeatRefusalCode, RefusalKind> = {
  cancelled: 'conflict',
  not_found: 'not_found',
  finished: 'conflict',
  already_enrolled: 'conflict',
  already_holding: 'conflict',
  single_party_taken: 'conflict',
  full: 'conflict',
};

const no = (code: SeatRefusalCode, message: string): SeatRefusal => ({ code, message });

/**
 * Why the seat cannot be taken at `nowMs`, or null: a cancelled session (issue 23), one not active,
 * an ended one, a student already in it or already holding a link for it, a single-party session
 * taken, not enough seats left for the party.
 */
export function seatRefusal(s: SeatRuleInput, nowMs: number): SeatRefusal | null {
  if (s.status === 'cancelled') return no('cancelled', SESSION_CANCEL_MESSAGES.sessionCancelled);
  if (s.status !== 'active') return no('not_found', 'Event not found');
  if (s.endsAt.getTime() <= nowMs) return no('finished', M.eventFinished);
  if (s.alreadyEnrolled) return no('already_enrolled', M.alreadyEnrolled);
  if (s.alreadyHolding) return no('already_holding', PAYMENT_LINK_MESSAGES.alreadyPending);
  if (s.students + s.held > 0 && s.singleParty) return no('single_party_taken', M.singlePartyBooked);
  if (s.seats + (s.seatsAsked ?? 1) > s.capacity) return no('full', M.sessionFull);
  return null;
}
