import 'reflect-metadata';
import { RequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { isValidTimeZone } from '@studio/contracts';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createAppContext } from '../app.factory';
import { loadConfig } from '../config/config.schema';
import { UsersService } from '../modules/identity/users.service';
import { OrganizationsService } from '../modules/organizations/organizations.service';

const argsSchema = z.object({
  org: z.string({ error: '--org is required' }).trim().min(1, '--org is required'),
  email: z.email({ error: '--email must be an email address' }),
  password: z.string({ error: '--password is required' }).min(8, '--password needs at least 8 characters'),
  timezone: z.string().refine(isValidTimeZone, '--timezone must be an IANA zone').default('America/New_York'),
  'first-name': z.string().default(''),
  'last-name': z.string().default(''),
});

/**
 * Creates an organization and its owner in the database `npm start` uses:
 *   npm run admin:create -- --org "Clay Studio" --email owner@clay.studio --password '...'
 */
async function main() {
  const { values } = parseArgs({
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      timezone: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(parsed.error.issues.map((i) => i.message).join('\n'));
    process.exit(2);
  }
  const args = parsed.data;
  const config = { ...loadConfig(), SEED_DEMO: false, RUN_WORKER: false, QUEUE_MODE: 'in-process' as const, LOG_LEVEL: 'warn' as const };
  const { context, close } = await createAppContext(config);
  try {
    await RequestContext.create(context.get(EntityManager), async () => {
      const users = context.get(UsersService);
      if (await users.findByEmail(args.email)) throw new Error(`A user with email ${args.email} already exists`);
      const organization = await context.get(OrganizationsService).create({ name: args.org, timezone: args.timezone });
      await users.create({
        email: args.email,
        password: args.password,
        role: 'owner',
        organizationId: organization.id,
        firstName: args['first-name'],
        lastName: args['last-name'],
      });
      console.log(`Created organization "${organization.name}" (${organization.id}) with owner ${args.email.toLowerCase()}`);
    });
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
