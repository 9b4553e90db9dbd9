import { z } from 'zod';

/** A waiver submission's state: pending until signed; expired when the provider's link ran out. */
export const SUBMISSION_STATUSES = ['pending', 'completed', 'expired'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The API's and the UI's words about waivers (spec 001 §7, §8; issue 10). */
export const WAIVER_MESSAGES = {
  submissionNotFound: 'Submission not found',
  reminderSent: 'Reminder sent',
  alreadySigned: 'This waiver is already signed: no reminder is needed.',
  expired: 'This waiver request has expired: no reminder can be sent.',
  reminderTooSoon: 'A reminder was sent less than an hour ago. Try again later.',
  webhookSecret: 'Invalid webhook secret',
  webhookNotConfigured: 'DocuSeal is not configured',
  signerNameRequired: 'Type your full name to sign.',
  demoSigningPage: 'Demo signing page',
} as const;

/** Minimum time between two reminders of one submission. */
export const REMINDER_INTERVAL_MS = 60 * 60 * 1000;

/** The demo signing page's form: the signer types their name. */
export const demoSignatureSchema = z
  .object({
    signer_name: z.string().trim().min(1, WAIVER_MESSAGES.signerNameRequired).max(200, 'The name is at most 200 characters.'),
  })
  .strict();

/** Spec 001 §3 Waiver submission, as the student drawer reads it. */
export const waiverSubmissionSchema = z.object({
  submission_id: z.uuid(),
  status: z.enum(SUBMISSION_STATUSES),
  completed_at: z.string().nullable(),
  created_at: z.string(),
  submission_url: z.string().nullable().describe('The signed document (set once completed)'),
  sign_url: z.string().nullable().describe('Where the student signs (set once the request is sent)'),
  DocusealTemplate: z.object({ name: z.string() }),
});
export type WaiverSubmission = z.infer<typeof waiverSubmissionSchema>;

/** The Waivers settings page: each template with its submissions counted by state. */
export const waiverSummarySchema = z.object({
  template_id: z.uuid(),
  name: z.string(),
  created_at: z.string(),
  document_url: z.string().nullable(),
  pending: z.number().int(),
  completed: z.number().int(),
  expired: z.number().int(),
});
export type WaiverSummary = z.infer<typeof waiverSummarySchema>;
