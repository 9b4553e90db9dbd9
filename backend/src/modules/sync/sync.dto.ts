import {
  syncAuthorizeSchema,
  syncCallbackSchema,
  eventbriteConfigSchema,
  mailingListConfigSchema,
  SYNC_PROVIDERS,
  syncConfigPayloadSchema,
  syncRemoteChoiceSchema,
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
  }),
) {}

export class SyncAuthorizeDto extends createZodDto(syncAuthorizeSchema) {}
export class SyncCallbackDto extends createZodDto(syncCallbackSchema) {}
export class SyncAuthorizeOutDto extends createZodDto(
  z.object({
    authorize_url: z.string().describe("the provider's authorize page: the browser goes there next"),
  }),
) {}
