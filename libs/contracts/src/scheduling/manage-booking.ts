import { z } from 'zod';
import { bookingUseSchema, refundToSchema } from '../wallet/refund-credit';
import { MANAGE_MESSAGES } from './manage-booking-rules';

export * from './manage-booking-rules';

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
  /** The membership booking or pack credit that covered it, and whether cancelling now gives it back (issue 24). */
  use: bookingUseSchema.nullable(),
});
export type PublicBooking = z.infer<typeof publicBookingSchema>;

/** POST /api/public/{slug}/bookings/{token}/cancel: where the policy's money goes (the card by default). */
export const publicCancelSchema = z.strictObject({ refund_to: refundToSchema.optional() });
export type PublicCancelPayload = z.input<typeof publicCancelSchema>;

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
  refund_to: refundToSchema.optional(),
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
