import { z } from 'zod';
import { MESSAGES } from '../messages';

export const loginSchema = z
  .object({
    email: z
      .string({ error: MESSAGES.auth.emailRequired })
      .trim()
      .min(1, MESSAGES.auth.emailRequired)
      .pipe(z.email({ error: MESSAGES.auth.emailInvalid })),
    password: z.string({ error: MESSAGES.auth.passwordRequired }).min(1, MESSAGES.auth.passwordRequired),
  })
  .strict();
export type LoginInput = z.infer<typeof loginSchema>;

/** Super admin organization switch (spec 001 §7: PUT /api/super-admin/user, body org_id). */
export const switchOrganizationSchema = z
  .object({
    org_id: z
      .string({ error: MESSAGES.superAdmin.organizationRequired })
      .uuid({ error: MESSAGES.superAdmin.organizationRequired }),
  })
  .strict();
export type SwitchOrganizationInput = z.infer<typeof switchOrganizationSchema>;
