import { z } from 'zod';
import { SYNC_LOCAL_TYPES } from './sync.schema';

/** Messages of the sync jobs: the panel's failures and their Retry. */
export const SYNC_JOB_MESSAGES = {
  mappingNotFound: 'Sync record not found.',
  mappingNotFailed: 'Only a failed sync can be retried.',
  retried: 'Sync queued again',
  retryFailed: 'Error retrying the sync',
} as const;

/** How many failures the provider read lists (the newest first); `failures_total` counts them all. */
export const SYNC_FAILURES_SHOWN = 20;

export const syncFailureSchema = z.object({
  id: z.uuid().describe('the sync mapping id, for Retry'),
  local_type: z.enum(SYNC_LOCAL_TYPES),
  local_id: z.uuid(),
  label: z.string().max(300).nullable().describe("the record's name when cheap to read, else null"),
  action: z.string().max(100).nullable(),
  last_error: z.string().max(2000).nullable(),
  attempts: z.number().int().min(0),
  updated_at: z.string().describe('ISO instant of the last failure'),
});
export type SyncFailure = z.infer<typeof syncFailureSchema>;

/* ------------------------------------------------ Eventbrite sale conflicts --------------------- */

/** Messages of the Eventbrite sale conflicts in the Eventbrite panel. */
export const SYNC_CONFLICT_MESSAGES = {
  notFound: 'Sale conflict not found.',
  resolved: 'Conflict marked resolved',
  resolveFailed: 'Error resolving the conflict',
} as const;

/** How many open conflicts the Eventbrite read lists (the newest first); `conflicts_total` counts them all. */
export const SYNC_CONFLICTS_SHOWN = 20;

/** A sale placed on Eventbrite that could not be enrolled (overbooked, or its session was removed). */
export const syncSaleConflictSchema = z.object({
  id: z.uuid().describe('the conflict id, for Mark resolved'),
  remote_order_id: z.string().max(100).describe("Eventbrite's order id"),
  event_id: z.uuid().nullable().describe('the session the sale was for'),
  seats: z.number().int().min(0).describe('the seats the Eventbrite order asked for'),
  buyer_email: z.string().max(320),
  message: z.string().max(2000).describe('why it was not enrolled (the seats left, or the session removed)'),
  created_at: z.string().describe('ISO instant the sale came back from Eventbrite'),
});
export type SyncSaleConflict = z.infer<typeof syncSaleConflictSchema>;
