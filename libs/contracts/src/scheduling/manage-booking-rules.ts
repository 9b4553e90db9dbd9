import { formatCents } from '../money';
import { isRescheduleFree, POLICIES, POLICY_IDS, refundableShare, type Policy } from '../catalog/policies';

/**
 * The manage link (issue 23): a booking's own page, where the student cancels or reschedules by the
 * course's policies, and the admin's Cancel booking / Modify booking / Move students. The words and
 * the rules both sides show live here once.
 */
export const MANAGE_MESSAGES = {
  notFound: 'Booking not found',
  /** The ledger's reason of a refund the student asked for from the link. */
  cancelledByStudent: 'Cancelled by the student',
  /** The ledger's reason of a refund an admin's Cancel booking made. */
  cancelledByStudio: 'Cancelled by the studio',
  started: 'This booking has started and can no longer be changed.',
  cancelled: 'This booking is cancelled.',
  contactStudio: 'Contact the studio',
  cancelNotAllowed: 'This booking cannot be cancelled here. Contact the studio.',
  rescheduleNotAllowed: (rule: string) => `Rescheduling is no longer free (${rule}). Contact the studio.`,
  rescheduleContact: 'This booking cannot be rescheduled here. Contact the studio.',
  sameSession: 'Pick another session than the one booked.',
  otherCourse: 'Pick a session of the same course.',
  targetGone: 'That session is no longer available. Pick another one.',
  noRoom: (needed: number, left: number) =>
    left === 0
      ? 'That session is full. Pick another one.'
      : `That session has only ${left} ${left === 1 ? 'seat' : 'seats'} left, and ${needed} are needed.`,
  alreadyThere: 'The student is already booked in that session.',
  moveAllNoRoom: (needed: number, left: number) =>
    `Not enough room: ${needed} ${needed === 1 ? 'seat is' : 'seats are'} needed and ${left} ${left === 1 ? 'is' : 'are'} left. Nobody was moved.`,
  moveNobody: 'There is nobody to move.',
  ownerOnly: 'Only an owner can override the policy.',
  refundTooLarge: (paidCents: number) => `Refund amount cannot exceed the original amount of ${formatCents(paidCents)}`,
  chooseTarget: 'Choose a session or a time.',
  cancelledDone: 'Booking cancelled',
  rescheduledDone: 'Booking moved',
  movedDone: (n: number) => (n === 1 ? 'Student moved' : `${n} students moved`),
} as const;

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export const policyById = (id: number): Policy | null => POLICIES.find((p) => p.id === id) ?? null;

/** Whether the policy lets the student act alone ("Contact the studio" policies do not). */
export const isSelfService = (policyId: number) =>
  policyId !== POLICY_IDS.noSelfCancel && policyId !== POLICY_IDS.noSelfReschedule;

/** "12 days before start", "5 hours before start", "started". */
export function timeLeftText(msBeforeStart: number): string {
  if (msBeforeStart <= 0) return 'started';
  if (msBeforeStart >= DAY_MS) {
    const days = Math.floor(msBeforeStart / DAY_MS);
    return `${days} ${days === 1 ? 'day' : 'days'} before start`;
  }
  const hours = Math.floor(msBeforeStart / HOUR_MS);
  if (hours >= 1) return `${hours} ${hours === 1 ? 'hour' : 'hours'} before start`;
  const minutes = Math.max(1, Math.floor(msBeforeStart / 60_000));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} before start`;
}

/** What cancelling now gives back, by the course's cancellation policy. */
export interface CancelTerms {
  policy: { id: number; name: string; rule: string };
  /** Whether the student may cancel alone (not started, not a "Contact the studio" policy). */
  allowed: boolean;
  share: number;
  refund_cents: number;
  /** "Firm: 50% refund ($45.00) — 12 days before start". */
  figure: string;
}

/** What a reschedule now costs, by the course's rescheduling policy. */
export interface RescheduleTerms {
  policy: { id: number; name: string; rule: string };
  /** Free now (within the policy) and the student may act alone. */
  allowed: boolean;
  /** "Agile: free until 24 hours before — 3 days before start". */
  figure: string;
}

const shareText = (share: number) => (share >= 1 ? 'Full refund' : share <= 0 ? 'No refund' : `${Math.round(share * 100)}% refund`);

/**
 * The cancellation policy applied to the time left: the share of `paidCents` (what the booking's
 * order cost) it gives back, never more than `refundableCents` (what is left to refund). A booking that has started gives nothing back and
 * cannot be cancelled by the student.
 */
export function cancelTerms(policyId: number, msBeforeStart: number, paidCents: number, refundableCents: number = paidCents): CancelTerms {
  const policy = policyById(policyId) ?? policyById(POLICY_IDS.noSelfCancel)!;
  const started = msBeforeStart <= 0;
  const share = started ? 0 : refundableShare(policy.id, msBeforeStart);
  const refund = Math.max(0, Math.min(paidCents, refundableCents, Math.round(paidCents * share)));
  const self = isSelfService(policy.id);
  return {
    policy: { id: policy.id, name: policy.name, rule: policy.rule },
    allowed: self && !started,
    share,
    refund_cents: refund,
    figure: self
      ? `${policy.name}: ${shareText(share)} (${formatCents(refund)}) — ${timeLeftText(msBeforeStart)}`
      : `${MANAGE_MESSAGES.contactStudio} — ${timeLeftText(msBeforeStart)}`,
  };
}

export function rescheduleTerms(policyId: number, msBeforeStart: number): RescheduleTerms {
  const policy = policyById(policyId) ?? policyById(POLICY_IDS.noSelfReschedule)!;
  const self = isSelfService(policy.id);
  const free = msBeforeStart > 0 && isRescheduleFree(policy.id, msBeforeStart);
  return {
    policy: { id: policy.id, name: policy.name, rule: policy.rule },
    allowed: self && free,
    figure: self
      ? `${policy.name}: ${free ? 'free' : 'not free any more'} (${policy.rule}) — ${timeLeftText(msBeforeStart)}`
      : `${MANAGE_MESSAGES.contactStudio} — ${timeLeftText(msBeforeStart)}`,
  };
}

