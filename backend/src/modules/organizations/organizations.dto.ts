import { reminderSettingsSchema, storeSettingsSchema, switchOrganizationSchema, waitlistSettingsSchema } from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { userSchema } from '../identity/identity.dto';

export const orgSettingsSchema = z.object({
  name: z.string(),
  timezone: z.string(),
  listed_course: z.boolean().describe('Whether the organization has a published course in its store'),
  slug: z.string().describe('The store address: PUBLIC_APP_URL/s/{slug}'),
  public_url: z.string().nullable().describe("The studio's own site, where its store links point, if set"),
  store_url: z.string().describe('Where the store is: public_url, else PUBLIC_APP_URL/s/{slug}'),
  app_store_url: z
    .string()
    .describe("Where this app serves the store's pages (PUBLIC_APP_URL/s/{slug}): the checkout overlay opens them"),
  reminder_offsets_mins: z
    .array(z.number().int())
    .describe("Minutes before a class's or appointment's start its reminder mails go, largest first; empty: no reminders"),
  waitlist_claim_hours: z
    .number()
    .int()
    .describe('How long a waitlist offer holds its seats for the party offered them (1 to 168 hours)'),
});
export class OrgSettingsDto extends createZodDto(orgSettingsSchema) {}

export const organizationSchema = orgSettingsSchema.extend({ organization_id: z.uuid() });
export class StoreSettingsDto extends createZodDto(storeSettingsSchema) {}
export class ReminderSettingsDto extends createZodDto(reminderSettingsSchema) {}
export class WaitlistSettingsDto extends createZodDto(waitlistSettingsSchema) {}

export const sessionSchema = z.object({ user: userSchema, organization: organizationSchema });
export class SessionDto extends createZodDto(sessionSchema) {}

export const organizationListSchema = z
  .object({
    organizations: z.array(z.object({ organization_id: z.uuid(), name: z.string(), timezone: z.string() })),
  })
;
export class OrganizationListDto extends createZodDto(organizationListSchema) {}

export class SwitchOrganizationDto extends createZodDto(switchOrganizationSchema) {}
export class SuperAdminUserDto extends createZodDto(userSchema) {}
