import { z } from 'zod';
import { safeText } from '../safe-input';

/**
 * Sync providers (spec 001 §2 sync settings panels, §3 Sync provider, §7 sync calls, §8 sync
 * toasts): the ticketing service, the two mailing-list services and the video-meeting service. One
 * rule set, used by the API (PUT /api/admin/sync/providers/config_schema) and by the panels.
 */
export const SYNC_PROVIDERS = ['eventbrite', 'mailchimp', 'klaviyo', 'zoom'] as const;
export type SyncProviderName = (typeof SYNC_PROVIDERS)[number];

/** The name the panels and the toasts use. */
export const SYNC_PROVIDER_LABELS: Record<SyncProviderName, string> = {
  eventbrite: 'Eventbrite',
  mailchimp: 'Mailchimp',
  klaviyo: 'Klaviyo',
  zoom: 'Zoom',
};

/** What each provider is for, shown on the Integrations page. */
export const SYNC_PROVIDER_KINDS: Record<SyncProviderName, string> = {
  eventbrite: 'Ticketing',
  mailchimp: 'Mailing list',
  klaviyo: 'Mailing list',
  zoom: 'Video meetings',
};

/**
 * Each provider's main switch, which the Integrations page shows on the provider's card so sync
 * can be paused or resumed at a glance (saved with the generic "Settings saved" toast, spec 001 §8).
 */
export const SYNC_MAIN_TOGGLES = {
  eventbrite: { field: 'sync_all_courses', label: 'Sync all courses' },
  mailchimp: { field: 'sync_all_customers', label: 'Sync all customers' },
  klaviyo: { field: 'sync_all_customers', label: 'Sync all customers' },
  zoom: { field: 'meeting_summary', label: 'Attach meeting summaries' },
} as const satisfies Record<SyncProviderName, { field: string; label: string }>;

export const isSyncProvider = (value: unknown): value is SyncProviderName =>
  typeof value === 'string' && (SYNC_PROVIDERS as readonly string[]).includes(value);

/** Where a synced record stands (one `sync_mapping` row per record and provider). */
export const SYNC_STAGES = ['pending', 'queued', 'syncing', 'synced', 'failed', 'cancelled'] as const;
export type SyncStage = (typeof SYNC_STAGES)[number];

/** The kinds of local records a provider syncs. */
export const SYNC_LOCAL_TYPES = ['activity', 'event', 'enrollment', 'order', 'student', 'appointment'] as const;
export type SyncLocalType = (typeof SYNC_LOCAL_TYPES)[number];

/** A provider-side id (Eventbrite organization, Mailchimp audience, Klaviyo list). */
export const SYNC_REMOTE_ID_MAX = 64;
const REMOTE_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

export const SYNC_MESSAGES = {
  /** spec 001 §8: "Eventbrite settings saved", the same pattern for Mailchimp, Klaviyo, Zoom. */
  saved: (provider: SyncProviderName) => `${SYNC_PROVIDER_LABELS[provider]} settings saved`,
  /** A course or session switched to sync while the ticketing service is not connected (issue 25). */
  syncNeedsConnection: 'Eventbrite is not connected: nothing syncs until you connect it in Settings → Integrations.',
  /** Saved while not connected (issue 25: "saved" alone let an owner think it would sync). */
  savedNotConnected: (provider: SyncProviderName) =>
    `${SYNC_PROVIDER_LABELS[provider]} settings saved, but ${SYNC_PROVIDER_LABELS[provider]} is not connected: nothing syncs until you connect it.`,
  saveFailed: (provider: SyncProviderName) => `Error saving ${SYNC_PROVIDER_LABELS[provider]} settings`,
  /** spec 001 §8, for settings that belong to no single provider. */
  settingsSaved: 'Settings saved',
  settingsSaveFailed: 'Error saving settings',
  unknownProvider: 'Unknown sync provider. Choose eventbrite, mailchimp, klaviyo or zoom.',
  providerRequired: 'Choose a sync provider: eventbrite, mailchimp, klaviyo or zoom.',
  enrollmentsAlwaysSynced: 'Eventbrite enrollments are always synced: sync_all_enrollments must be true.',
  remoteIdInvalid: `Use the id the provider shows: letters, digits, - or _, at most ${SYNC_REMOTE_ID_MAX} characters.`,
  toggleInvalid: 'Expected true or false.',
  notConnected: (provider: SyncProviderName) => `${SYNC_PROVIDER_LABELS[provider]} is not connected.`,
  connected: (provider: SyncProviderName) => `${SYNC_PROVIDER_LABELS[provider]} is connected.`,
  loadFailed: (provider: SyncProviderName) => `Failed to load ${SYNC_PROVIDER_LABELS[provider]} settings`,
  /* Connecting (OAuth, spec 001 §7). */
  oauthNotConfigured: (provider: SyncProviderName, envVars: readonly string[]) =>
    `${SYNC_PROVIDER_LABELS[provider]} is not set up on this server: set ${envVars.join(' and ')}.`,
  codeChallengeRequired: 'Klaviyo needs a PKCE code_challenge (S256, 43 characters of base64url).',
  codeChallengeInvalid: 'code_challenge must be 43 characters of base64url (S256).',
  codeVerifierInvalid: 'code_verifier must be 43 to 128 characters: letters, digits, -, ., _ or ~.',
  codeInvalid: 'The authorization code is missing or too long.',
  stateInvalid: 'This connection attempt is not valid for your session. Click Connect again.',
  stateUsed: 'This connection attempt was already used. Click Connect again.',
  stateExpired: 'This connection attempt has expired (10 minutes). Click Connect again.',
  exchangeRefused: (provider: SyncProviderName) =>
    `${SYNC_PROVIDER_LABELS[provider]} refused the connection: the code or the PKCE verifier did not match. Click Connect again.`,
  /** The provider refused to refresh the saved access (revoked or expired there): only a new Connect helps. */
  reconnectRequired: (provider: SyncProviderName) =>
    `${SYNC_PROVIDER_LABELS[provider]} no longer accepts this studio's saved access. Disconnect and connect ${SYNC_PROVIDER_LABELS[provider]} again.`,
  providerUnavailable: (provider: SyncProviderName) =>
    `${SYNC_PROVIDER_LABELS[provider]} could not be reached or refused this server's credentials. Try again later.`,
  disconnected: (provider: SyncProviderName) => `${SYNC_PROVIDER_LABELS[provider]} is disconnected.`,
  /** GET /api/admin/partners/eventbrite/events before an organization is chosen in the Eventbrite panel. */
  organizationRequired: 'Choose an Eventbrite organization in the Eventbrite settings first.',
  /** The provider refused or could not be reached (the admin may retry). */
  providerNotAnswering: (provider: SyncProviderName) =>
    `${SYNC_PROVIDER_LABELS[provider]} did not answer. Try again in a moment.`,
  /** A sale on Eventbrite for more seats than the session has left (a conflict for the admin). */
  overbooked: (seatsAsked: number, seatsLeft: number) =>
    `Sold on Eventbrite for ${seatsAsked} seat${seatsAsked === 1 ? '' : 's'} with ${seatsLeft} left: not enrolled. Refund it on Eventbrite or raise the capacity.`,
} as const;

/* ------------------------------------------------ Connecting (OAuth, spec 001 §7) -------------- */

/** Klaviyo's scopes (spec 001 §7), exactly these, in this order. */
export const KLAVIYO_SCOPES = [
  'accounts:read',
  'lists:read',
  'lists:write',
  'profiles:read',
  'profiles:write',
] as const;

/** The providers whose Connect uses PKCE S256 (spec 001 §7: the second mailing-list service). */
export const SYNC_PKCE_PROVIDERS: readonly SyncProviderName[] = ['klaviyo'];

/** The localStorage key of a provider's PKCE verifier, kept by the browser between Connect and the callback. */
export const syncPkceStorageKey = (provider: SyncProviderName) => `studio.sync.pkce.${provider}`;

/** The app page the provider redirects back to. */
export const syncCallbackPath = (provider: SyncProviderName) => `/admin/integrations/${provider}/callback`;

/** RFC 7636: S256 challenge is base64url of a SHA-256 (43 characters); a verifier is 43-128 unreserved characters. */
const codeChallenge = safeText({ error: SYNC_MESSAGES.codeChallengeInvalid }).regex(
  /^[A-Za-z0-9_-]{43}$/,
  SYNC_MESSAGES.codeChallengeInvalid,
);
const codeVerifier = safeText({ error: SYNC_MESSAGES.codeVerifierInvalid }).regex(
  /^[A-Za-z0-9._~-]{43,128}$/,
  SYNC_MESSAGES.codeVerifierInvalid,
);

/** POST /api/admin/sync/providers/{provider}/authorize */
export const syncAuthorizeSchema = z.strictObject({
  code_challenge: codeChallenge.optional().describe('S256 PKCE challenge (required for Klaviyo)'),
});
export type SyncAuthorizePayload = z.infer<typeof syncAuthorizeSchema>;

/** POST /api/admin/sync/providers/{provider}/callback */
export const syncCallbackSchema = z.strictObject({
  code: safeText({ error: SYNC_MESSAGES.codeInvalid })
    .min(1, SYNC_MESSAGES.codeInvalid)
    .max(2048, SYNC_MESSAGES.codeInvalid),
  state: safeText({ error: SYNC_MESSAGES.stateInvalid })
    .min(1, SYNC_MESSAGES.stateInvalid)
    .max(256, SYNC_MESSAGES.stateInvalid),
  code_verifier: codeVerifier.optional().describe('the PKCE verifier kept in local storage (Klaviyo)'),
});
export type SyncCallbackPayload = z.infer<typeof syncCallbackSchema>;

const remoteId = safeText({ error: SYNC_MESSAGES.remoteIdInvalid })
  .trim()
  .min(1, SYNC_MESSAGES.remoteIdInvalid)
  .max(SYNC_REMOTE_ID_MAX, SYNC_MESSAGES.remoteIdInvalid)
  .regex(REMOTE_ID_PATTERN, SYNC_MESSAGES.remoteIdInvalid);
const toggle = z.boolean({ error: SYNC_MESSAGES.toggleInvalid });

/* ------------------------------------------------ what is stored and answered, per provider --- */

export const eventbriteConfigSchema = z.strictObject({
  organization_id: remoteId.nullable(),
  sync_all_courses: toggle,
  /** Always true (spec 001 §7). */
  sync_all_enrollments: z.literal(true, { error: SYNC_MESSAGES.enrollmentsAlwaysSynced }),
});
export const mailingListConfigSchema = z.strictObject({
  list_id: remoteId.nullable(),
  sync_all_customers: toggle,
});
export const zoomConfigSchema = z.strictObject({
  meeting_summary: toggle,
});

export type EventbriteConfig = z.infer<typeof eventbriteConfigSchema>;
export type MailingListConfig = z.infer<typeof mailingListConfigSchema>;
export type ZoomConfig = z.infer<typeof zoomConfigSchema>;
export interface SyncConfigByProvider {
  eventbrite: EventbriteConfig;
  mailchimp: MailingListConfig;
  klaviyo: MailingListConfig;
  zoom: ZoomConfig;
}
export type AnySyncConfig = SyncConfigByProvider[SyncProviderName];

/** Each provider's stored settings rule. */
export const SYNC_CONFIG_SCHEMAS = {
  eventbrite: eventbriteConfigSchema,
  mailchimp: mailingListConfigSchema,
  klaviyo: mailingListConfigSchema,
  zoom: zoomConfigSchema,
} as const;

/** A provider's settings before anything is saved: nothing chosen, nothing synced but enrollments. */
export const SYNC_CONFIG_DEFAULTS: SyncConfigByProvider = {
  eventbrite: { organization_id: null, sync_all_courses: false, sync_all_enrollments: true },
  mailchimp: { list_id: null, sync_all_customers: false },
  klaviyo: { list_id: null, sync_all_customers: false },
  zoom: { meeting_summary: false },
};

/* ------------------------------------------------ PUT /api/admin/sync/providers/config_schema -- */

const providerName = <P extends SyncProviderName>(p: P) =>
  z.literal(p, { error: SYNC_MESSAGES.unknownProvider });

/**
 * provider_name plus that provider's own fields only (a field of another provider is refused by
 * name). Fields left out keep their saved value.
 */
export const syncConfigPayloadSchema = z.discriminatedUnion(
  'provider_name',
  [
    eventbriteConfigSchema
      .partial()
      .extend({ provider_name: providerName('eventbrite') })
      .strict(),
    mailingListConfigSchema
      .partial()
      .extend({ provider_name: providerName('mailchimp') })
      .strict(),
    mailingListConfigSchema
      .partial()
      .extend({ provider_name: providerName('klaviyo') })
      .strict(),
    zoomConfigSchema
      .partial()
      .extend({ provider_name: providerName('zoom') })
      .strict(),
  ],
  { error: SYNC_MESSAGES.providerRequired },
);
export type SyncConfigPayload = z.infer<typeof syncConfigPayloadSchema>;

/* ------------------------------------------------ GET /api/admin/sync/providers/{provider} ----- */

export const syncRemoteChoiceSchema = z.object({ id: z.string(), name: z.string() });
export type SyncRemoteChoice = z.infer<typeof syncRemoteChoiceSchema>;

/* ------------------------------------------------ GET /api/admin/partners/eventbrite/events ---- */

/** A continuation token of Eventbrite's paging, handed back as is. */
export const SYNC_CONTINUATION_MAX = 200;
export const ticketingEventsQuerySchema = z.object({
  continuation: safeText()
    .max(SYNC_CONTINUATION_MAX)
    .regex(/^[A-Za-z0-9_=-]*$/)
    .optional(),
});
export const ticketingEventSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** ISO instant (UTC). */
  start: z.string().nullable(),
  /** Eventbrite's status: draft, live, started, ended, completed, canceled. */
  status: z.string(),
});
export type TicketingEvent = z.infer<typeof ticketingEventSchema>;
export const ticketingEventsSchema = z.object({
  events: z.array(ticketingEventSchema),
  /** Pass back as `continuation` for the next page; null on the last page. */
  continuation: z.string().nullable(),
});
export type TicketingEvents = z.infer<typeof ticketingEventsSchema>;
