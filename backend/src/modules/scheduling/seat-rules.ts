import { HttpStatus } from '@nestjs/common';
import { PAYMENT_LINK_MESSAGES, SCHEDULING_MESSAGES as M, SESSION_CANCEL_MESSAGES } from '@studio/contracts';
import { ApiError, notFound } from '../../common/api-error';

/** What the seat rules read of a session and a student, under the seat lock (or before it, to refuse early). */
export interface SeatRuleInput {
  status: 'active' | 'cancelled';
  endsAt: Date;
  capacity: number;
  /** Seats taken: enrolled students with their guests, and live holds. */
  seats: number;
  /** Enrolled students. */
  students: number;
  /** Seats held by payment links. */
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

/**
 * THE rules of taking a seat, for every way a seat is taken (enroll, a payment link's hold), in the
 * order the admin sees them: another organization's session (404), a cancelled one (409, issue 23), an ended one, a
 * student already in it or already holding a link for it, a single-party session taken, no seat
 * left (409). Null when the seat may be taken. Inside the seat lock it decides; before it
 * (refusalBeforeLock) it may only refuse.
 */
export function seatRefusal(s: SeatRuleInput, now = Date.now()): ApiError | null {
  if (s.status === 'cancelled') return new ApiError(HttpStatus.CONFLICT, SESSION_CANCEL_MESSAGES.sessionCancelled);
  if (s.status !== 'active') return notFound('Event not found');
  if (s.endsAt.getTime() <= now) return new ApiError(HttpStatus.CONFLICT, M.eventFinished);
  if (s.alreadyEnrolled) return new ApiError(HttpStatus.CONFLICT, M.alreadyEnrolled);
  if (s.alreadyHolding) return new ApiError(HttpStatus.CONFLICT, PAYMENT_LINK_MESSAGES.alreadyPending);
  if (s.students + s.held > 0 && s.singleParty) return new ApiError(HttpStatus.CONFLICT, M.singlePartyBooked);
  if (s.seats + (s.seatsAsked ?? 1) > s.capacity) return new ApiError(HttpStatus.CONFLICT, M.sessionFull);
  return null;
}
