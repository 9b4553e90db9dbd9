/*
 * The waitlist's rules and messages without zod (the store's pages import them): issue 23. The
 * schemas that use them are in waitlist.ts.
 */

/** How long an offer holds its seats unless the organization says otherwise. */
export const DEFAULT_WAITLIST_CLAIM_HOURS = 12;
export const WAITLIST_CLAIM_HOURS_MIN = 1;
export const WAITLIST_CLAIM_HOURS_MAX = 168;

export const WAITLIST_STATUSES = ['waiting', 'offered', 'claimed', 'expired', 'removed'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

export const WAITLIST_MESSAGES = {
  nameRequired: 'Your name is required',
  nameTooLong: 'A name is at most 200 characters',
  email: 'Enter a valid email address',
  partySize: (max: number) => `Party size must be a whole number from 1 to ${max}`,
  sessionNotFound: 'Session not found',
  hasSeats: 'This session has seats left: book it instead',
  finished: 'This session has already ended',
  joined: "You're on the waitlist. We'll email you if a seat frees up.",
  entryNotFound: 'Waitlist entry not found',
  offerEnded: 'This offer has ended',
  offerNotFound: 'This offer has ended',
  claimParty: (seats: number) => (seats === 1 ? 'The offer holds 1 seat' : `The offer holds ${seats} seats`),
  claimOtherSession: 'This offer is for another session',
  seatsNotFree: 'The seats are not free: no one can be offered them now',
  notWaiting: 'Only a waiting entry can be offered the seat',
  cannotMove: 'This entry cannot move further',
  notActive: 'This entry is no longer on the waitlist',
  claimHours: `Claim time must be a whole number of hours from ${WAITLIST_CLAIM_HOURS_MIN} to ${WAITLIST_CLAIM_HOURS_MAX}`,
  removed: 'Removed from the waitlist',
  offered: 'Seat offered',
  moved: 'Waitlist order saved',
} as const;

/** The admin's words for an entry's status ("offered until …" is completed with the time). */
export const WAITLIST_STATUS_LABELS: Record<WaitlistStatus, string> = {
  waiting: 'Waiting',
  offered: 'Offered until',
  claimed: 'Claimed',
  expired: 'Expired',
  removed: 'Removed',
};
