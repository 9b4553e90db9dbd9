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
