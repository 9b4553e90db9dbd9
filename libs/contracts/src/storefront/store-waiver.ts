import { z } from 'zod';
import { requiredUnless } from '../required-when';
import { studentCreateSchema } from '../students/student.schema';

/*
 * The waiver inside the store's checkout (issue 21, step 4): when the session's course requires a
 * waiver, the buyer reads and signs it in the checkout (the demo signing page or DocuSeal's form,
 * framed) before paying, so no student arrives unsigned; the mailed link stays the fallback for
 * seats taken elsewhere. The checkout carries the signing's token; the server refuses a checkout
 * of such a course without a completed signature of the buyer.
 */

export { STORE_WAIVER_MESSAGES, WAIVER_SIGNED_EVENT } from './store-waiver-messages';
import { STORE_WAIVER_MESSAGES } from './store-waiver-messages';

/** The signing token: 43 base64url characters (32 random bytes), kept hashed with the submission. */
export const WAIVER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const waiverTokenSchema = z
  .string({ error: STORE_WAIVER_MESSAGES.tokenInvalid })
  .regex(WAIVER_TOKEN_PATTERN, STORE_WAIVER_MESSAGES.tokenInvalid);

/** POST /api/public/{slug}/waiver: the session and the buyer who signs (found by email or created). */
export const storeWaiverRequestSchema = z
  .strictObject({
    event_id: z.uuid({ error: 'Session not found' }).optional(),
    /** An appointment course's checkout (issue 22): the course, in place of a session. */
    activity_id: z.uuid({ error: 'Course not found' }).optional(),
    first_name: studentCreateSchema.shape.first_name,
    last_name: studentCreateSchema.shape.last_name,
    email: studentCreateSchema.shape.email,
  })
  .refine((b) => Boolean(b.event_id) !== Boolean(b.activity_id), {
    message: STORE_WAIVER_MESSAGES.oneTarget,
    path: ['event_id'],
  })
  // The rule above, for the OpenAPI document: event_id, or else activity_id, never both.
  .meta(requiredUnless('event_id', { required: ['activity_id'] }, { not: { required: ['event_id'] } }));
export type StoreWaiverRequest = z.output<typeof storeWaiverRequestSchema>;

/** The signing started (or reused), or nothing to sign: the buyer already signed this waiver. */
export const storeWaiverStartSchema = z.object({
  signed: z.boolean().describe('True when the buyer already signed this waiver: nothing to sign, the checkout goes on'),
  signing_url: z.string().nullable().describe('The signing page, to show framed in the checkout; null when signed'),
  waiver_token: z
    .string()
    .nullable()
    .describe("The signing's secret token, sent with the checkout and to the status call; null when signed"),
});
export type StoreWaiverStart = z.infer<typeof storeWaiverStartSchema>;

/** GET /api/public/{slug}/waiver/status?token=: whether the signing is done (the page polls it). */
export const storeWaiverStatusSchema = z.object({
  status: z.enum(['pending', 'completed', 'expired']),
  signed: z.boolean(),
});
export type StoreWaiverStatus = z.infer<typeof storeWaiverStatusSchema>;
