import {
  syncAuthorizeSchema,
  syncCallbackSchema,
  eventbriteConfigSchema,
  mailingListConfigSchema,
  SYNC_PROVIDERS,
  syncConfigPayloadSchema,
  syncRemoteChoiceSchema,
  syncFailureSchema,
  SYNC_FAILURES_SHOWN,
  SYNC_CONFLICTS_SHOWN,
  syncSaleConflictSchema,
  SyncProviderName,
  zoomConfigSchema,
} from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';

/**
 * The body is a union (one member per provider), which a class cannot extend as a type: the DTO
 * carries the schema for validation and the OpenAPI document, and the controller reads the parsed
 * body as `SyncConfigPayload`.
 */
const SyncConfigPayloadBase = createZodDto(syncConfigPayloadSchema) as unknown as new () => {
  provider_name: SyncProviderName;
};
export class SyncConfigPayloadDto extends SyncConfigPayloadBase {}

const providerOut = z.object({
  name: z.enum(SYNC_PROVIDERS),
  connected: z.boolean(),
  account_name: z.string().nullable().describe("the connected account's name; null when not connected"),
  connected_at: z.string().nullable().describe('ISO instant of the connection; null when not connected'),
  oauth_configured: z
    .boolean()
    .describe("whether this server has the provider's OAuth client id and secret (Connect works)"),
  env_vars: z
    .array(z.string())
    .describe('the environment variables that set the OAuth client (named by the panel when oauth_configured is false)'),
  config_schema: z
    .union([eventbriteConfigSchema, mailingListConfigSchema, zoomConfigSchema])
    .describe("the provider's own settings (spec 001 §3)"),
  last_synced_at: z.string().nullable().describe('ISO instant a record last synced to the provider; null before the first'),
  failures: z
    .array(syncFailureSchema)
    .max(SYNC_FAILURES_SHOWN)
    .describe(`the failed records, newest first, at most ${SYNC_FAILURES_SHOWN}; each can be retried`),
  failures_total: z.number().int().min(0).describe('how many records failed in all'),
});

export class SyncProviderOutDto extends createZodDto(
  z.object({
    provider: providerOut,
    organizations: z
      .array(syncRemoteChoiceSchema)
      .optional()
      .describe('Eventbrite only: the organizations of the connected account (empty until connected)'),
    lists: z
      .array(syncRemoteChoiceSchema)
      .optional()
      .describe('Mailchimp and Klaviyo only: the lists of the connected account (empty until connected)'),
    conflicts: z
      .array(syncSaleConflictSchema)
      .max(SYNC_CONFLICTS_SHOWN)
      .optional()
      .describe(
        `Eventbrite only: sales placed on Eventbrite that could not be enrolled, newest first, at most ${SYNC_CONFLICTS_SHOWN}; each can be marked resolved`,
      ),
    conflicts_total: z.number().int().min(0).optional().describe('Eventbrite only: how many sale conflicts are open'),
  }),
) {}

export class SyncAuthorizeDto extends createZodDto(syncAuthorizeSchema) {}
export class SyncCallbackDto extends createZodDto(syncCallbackSchema) {}
export class SyncAuthorizeOutDto extends createZodDto(
  z.object({
    authorize_url: z.string().describe("the provider's authorize page: the browser goes there next"),
  }),
) {}
