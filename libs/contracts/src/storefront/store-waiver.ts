import { z } from 'zod';
import { requiredUnless } from '../required-when';
import { POINTS_MESSAGES } from '../loyalty/points';
import { studentCreateSchema } from '../students/student.schema';

/*
 * The waiver inside the store's checkout (issue 21, step 4): when the session's course requires a
 * waiver, the buyer reads and signs it in the checkout (the demo signing page or DocuSeal's form,
 * framed) before paying, so no student arrives unsigned; the mailed link stays the fallback for
 * seats taken elsewhere. The checkout carries the signing's token; the server refuses a checkout
 * of such a course without a completed signature of the buyer. The answer is the same whatever
 * the email (issue 31): only a buyer who proved the email (points_token) skips a waiver signed before.
 */

export { STORE_WAIVER_MESSAGES, WAIVER_SIGNED_EVENT } from './store-waiver-messages';
import { STORE_WAIVER_MESSAGES } from './store-waiver-messages';

/** The signing token: 43 base64url characters (32 random bytes), kept hashed with the submission. */
export const WAIVER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const waiverTokenSchema = z
  .string({ error: STORE_WAIVER_MESSAGES.tokenInvalid })
  .regex(WAIVER_TOKEN_PATTERN, STORE_WAIVER_MESSAGES.tokenInvalid);

/**
 * POST /api/public/{slug}/waiver: the session and the buyer who signs, as typed (no student is
 * found or created by this call), and optionally the proof of the email.
 */
export const storeWaiverRequestSchema = z
  .strictObject({
    event_id: z.uuid({ error: 'Session not found' }).optional(),
    /** An appointment course's checkout (issue 22): the course, in place of a session. */
    activity_id: z.uuid({ error: 'Course not found' }).optional(),
    first_name: studentCreateSchema.shape.first_name,
    last_name: studentCreateSchema.shape.last_name,
    email: studentCreateSchema.shape.email,
    points_token: z
      .string({ error: POINTS_MESSAGES.pointsTokenInvalid })
      .trim()
      .max(200, POINTS_MESSAGES.pointsTokenInvalid)
      .optional()
      .transform((v) => v || undefined)
      .meta({
        description:
          "The proof of the email (points/verify's points_token). With a valid proof for this email, a waiver its student signed before counts: nothing to sign. Without one (or with one that is not valid for this email) the buyer signs, whoever they are.",
        example: 'kq3Vt0b7bq2m6V8nY0nW3yJ8m1kQ2p7r5s9t4u6v8wA',
      }),
  })
  .refine((b) => Boolean(b.event_id) !== Boolean(b.activity_id), {
    message: STORE_WAIVER_MESSAGES.oneTarget,
    path: ['event_id'],
  })
  // The rule above, for the OpenAPI document: event_id, or else activity_id, never both.
  .meta(requiredUnless('event_id', { required: ['activity_id'] }, { not: { required: ['event_id'] } }));
export type StoreWaiverRequest = z.output<typeof storeWaiverRequestSchema>;

/**
 * A new signing started, or (only with a valid proof of the email) nothing to sign: the proven
 * buyer signed this waiver before. The same shape and the same answer whatever the email otherwise.
 */
export const storeWaiverStartSchema = z.object({
  signed: z.boolean().meta({
    description:
      'True only when the request carried a valid points_token for this email and its student signed this waiver before: nothing to sign, the checkout goes on with waiver_token. False otherwise, whoever the email belongs to',
    example: false,
  }),
  signing_url: z.string().nullable().meta({
    description: 'The signing page, to show framed in the checkout; null when signed',
    example: 'https://studio.example/api/sign/demo/dsub_4f9c2d7e8a1b4c3d9e0f1a2b3c4d5e6f',
  }),
  waiver_token: z.string().meta({
    description:
      "The signing's secret token, sent with the checkout (waiver_token) and to the status call; when signed, it names the earlier signature",
    example: 'Xy8pQ2rT5uV7wZ0aB3cD6eF9gH1iJ4kL7mN0oP3qR6s',
  }),
});
export type StoreWaiverStart = z.infer<typeof storeWaiverStartSchema>;

/** GET /api/public/{slug}/waiver/status?token=: whether the signing is done (the page polls it). */
export const storeWaiverStatusSchema = z.object({
  status: z.enum(['pending', 'completed', 'expired']),
  signed: z.boolean(),
});
export type StoreWaiverStatus = z.infer<typeof storeWaiverStatusSchema>;
