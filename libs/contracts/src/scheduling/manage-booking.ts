import { z } from 'zod';
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

const policyOut = z.object({ id: z.number().int(), name: z.string(), rule: z.string() });

export const cancelTermsSchema = z.object({
  policy: policyOut,
  allowed: z.boolean(),
  share: z.number(),
  refund_cents: z.number().int(),
  figure: z.string(),
});
export const rescheduleTermsSchema = z.object({ policy: policyOut, allowed: z.boolean(), figure: z.string() });

/** A session the booking may move to: same course, not started, room for the party. */
export const moveTargetSchema = z.object({
  event_id: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  seats_left: z.number().int(),
});
export type MoveTarget = z.infer<typeof moveTargetSchema>;

export const BOOKING_KINDS = ['enrollment', 'appointment'] as const;
export type BookingKind = (typeof BOOKING_KINDS)[number];

/** GET /api/public/{slug}/bookings/{token}: the booking's own page. */
export const publicBookingSchema = z.object({
  kind: z.enum(BOOKING_KINDS),
  status: z.enum(['active', 'cancelled']),
  store_name: z.string(),
  course_name: z.string(),
  activity_id: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  timezone: z.string().describe("The location's IANA zone"),
  location_name: z.string(),
  address: z.string(),
  online: z.boolean(),
  party_size: z.number().int(),
  order_number: z.number().int().nullable(),
  paid_cents: z.number().int(),
  refunded_cents: z.number().int(),
  /** What the refund of this booking's cancellation is doing: requested (processing), or made. */
  refund_status: z.enum(['none', 'processing', 'made']),
  cancel: cancelTermsSchema,
  reschedule: rescheduleTermsSchema,
  /** Sessions of the same course it may move to (a session booking); none for an appointment. */
  move_targets: z.array(moveTargetSchema),
});
export type PublicBooking = z.infer<typeof publicBookingSchema>;

const startsAtSchema = z.iso.datetime({ offset: true, error: 'Choose a valid time.' });

/** POST …/reschedule: a session (event_id) for a session booking, a start (starts_at) for an appointment. */
export const rescheduleSchema = z
  .strictObject({
    event_id: z.uuid({ error: MANAGE_MESSAGES.chooseTarget }).optional(),
    starts_at: startsAtSchema.optional(),
  })
  .refine((v) => Boolean(v.event_id) !== Boolean(v.starts_at), { message: MANAGE_MESSAGES.chooseTarget, path: ['event_id'] });
export type ReschedulePayload = z.input<typeof rescheduleSchema>;

/** The admin's Modify booking: the same, and an owner's override of the rescheduling policy. */
export const adminRescheduleSchema = z
  .strictObject({
    event_id: z.uuid({ error: MANAGE_MESSAGES.chooseTarget }).optional(),
    starts_at: startsAtSchema.optional(),
    override: z.boolean().optional(),
  })
  .refine((v) => Boolean(v.event_id) !== Boolean(v.starts_at), { message: MANAGE_MESSAGES.chooseTarget, path: ['event_id'] });
export type AdminReschedulePayload = z.input<typeof adminRescheduleSchema>;

/**
 * The admin's Cancel booking: the policy's refund, or (an owner only) any amount from 0 to what is
 * left to refund, in cents.
 */
export const adminCancelSchema = z.strictObject({
  refund_amount: z
    .number({ error: 'Amount must be a valid number' })
    .int('Amount must be a valid number')
    .min(0, 'Amount must be a valid number')
    .max(100_000_000, 'Amount must be a valid number')
    .optional(),
});
export type AdminCancelPayload = z.input<typeof adminCancelSchema>;

/** What the admin's dialogs show before acting. */
export const bookingTermsSchema = z.object({
  kind: z.enum(BOOKING_KINDS),
  status: z.enum(['active', 'cancelled']),
  course_name: z.string(),
  starts_at: z.string(),
  timezone: z.string(),
  party_size: z.number().int(),
  paid_cents: z.number().int(),
  refundable_cents: z.number().int(),
  cancel: cancelTermsSchema,
  reschedule: rescheduleTermsSchema,
  move_targets: z.array(moveTargetSchema),
  /** Whether the caller may override the policies (owners). */
  can_override: z.boolean(),
});
export type BookingTerms = z.infer<typeof bookingTermsSchema>;

/** POST /api/admin/events/{id}/move-students: one or more students (absent: all) to another session. */
export const moveStudentsSchema = z.strictObject({
  to_event_id: z.uuid({ error: 'Choose a session.' }),
  enrollment_ids: z.array(z.uuid()).min(1).max(500).optional(),
});
export type MoveStudentsPayload = z.input<typeof moveStudentsSchema>;

export const moveStudentsResultSchema = z.object({ moved: z.number().int(), message: z.string() });
