import { z } from 'zod';
import { safeText } from '../safe-input';
import { MAX_PARTY_SIZE } from '../storefront/store-rules';

/*
 * The waitlist of a sold-out session (issue 23): joining it in the store, the offers of freed seats
 * (held for the organization's claim time), the claim through the store's checkout and the admin's
 * list. Each rule and message lives here, for the API, the store's page and the admin's drawer.
 */

import {
  WAITLIST_CLAIM_HOURS_MAX,
  WAITLIST_CLAIM_HOURS_MIN,
  WAITLIST_MESSAGES,
  WAITLIST_STATUSES,
} from './waitlist-rules';

export * from './waitlist-rules';

const M = WAITLIST_MESSAGES;

/** POST /api/public/{slug}/sessions/{event_id}/waitlist: who waits, and for how many seats. */
export const waitlistJoinSchema = z.strictObject({
  name: safeText({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(200, M.nameTooLong),
  email: z
    .string({ error: M.email })
    .trim()
    .max(254, M.email)
    .pipe(z.email({ error: M.email })),
  party_size: z
    .number({ error: M.partySize(MAX_PARTY_SIZE) })
    .int(M.partySize(MAX_PARTY_SIZE))
    .min(1, M.partySize(MAX_PARTY_SIZE))
    .max(MAX_PARTY_SIZE, M.partySize(MAX_PARTY_SIZE))
    .default(1),
});
export type WaitlistJoinInput = z.input<typeof waitlistJoinSchema>;
export type WaitlistJoinPayload = z.output<typeof waitlistJoinSchema>;

/**
 * What joining answers: always joined, in the same words, whether or not the email was already
 * waiting for this session (issue 31: the store tells no one who waits; the owner of an existing
 * entry is mailed their place instead).
 */
export const waitlistJoinResultSchema = z.object({
  status: z.enum(['joined']).meta({
    description: 'Always joined: the same answer for a new entry and for an email already waiting (its entry is kept as it was)',
    example: 'joined',
  }),
  message: z.string().meta({ description: 'The words to show', example: M.joined }),
  party_size: z.number().int().meta({ description: 'The party size asked for', example: 2 }),
});
export type WaitlistJoinResult = z.infer<typeof waitlistJoinResultSchema>;

/** A claim link's token: `<entry id>.<43 random base64url characters>`. */
export const waitlistClaimTokenSchema = z
  .string({ error: M.offerNotFound })
  .regex(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/, M.offerNotFound);

/** GET /api/public/{slug}/waitlist/claim?token=: the offer a claim link names. */
export const waitlistClaimSchema = z.object({
  status: z.enum(['offered', 'claimed', 'ended']),
  event_id: z.uuid(),
  party_size: z.number().int(),
  name: z.string(),
  email: z.string(),
  offered_until: z.string().nullable(),
  message: z.string().nullable(),
});
export type WaitlistClaim = z.infer<typeof waitlistClaimSchema>;

/** One line of the admin's waitlist of a session. */
export const waitlistEntrySchema = z.object({
  entry_id: z.uuid(),
  name: z.string(),
  email: z.string(),
  party_size: z.number().int(),
  joined_at: z.string(),
  status: z.enum(WAITLIST_STATUSES),
  offered_until: z.string().nullable(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
export const waitlistSchema = z.object({ entries: z.array(waitlistEntrySchema) });

/** POST /api/admin/waitlist/{entry_id}/move: one place up or down among the entries still waiting or offered. */
export const waitlistMoveSchema = z.strictObject({
  direction: z.enum(['up', 'down'], { error: 'Direction must be up or down' }),
});
export type WaitlistMovePayload = z.infer<typeof waitlistMoveSchema>;

/** Settings → Organization: how long a waitlist offer holds its seats. */
export const waitlistSettingsSchema = z.strictObject({
  waitlist_claim_hours: z
    .number({ error: M.claimHours })
    .int(M.claimHours)
    .min(WAITLIST_CLAIM_HOURS_MIN, M.claimHours)
    .max(WAITLIST_CLAIM_HOURS_MAX, M.claimHours),
});
export type WaitlistSettingsPayload = z.infer<typeof waitlistSettingsSchema>;
