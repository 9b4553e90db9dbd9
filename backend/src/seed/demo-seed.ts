import { EntityManager } from '@mikro-orm/postgresql';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { AppConfig } from '../config/config.schema';
import { User } from '../modules/identity/user.entity';
import { UsersService } from '../modules/identity/users.service';
import { Organization } from '../modules/organizations/organization.entity';
import { OrganizationsService } from '../modules/organizations/organizations.service';
import { seedDemoCatalog } from './demo-catalog';
import { seedDemoProducts } from './demo-products';
import { LoyaltyService } from '../modules/loyalty/loyalty.service';
import { seedDemoDiscounts } from './demo-discounts';
import { seedDemoOrders } from './demo-orders';
import { seedDemoPaymentLink } from './demo-payment-link';
import { seedDemoSubscriptions } from './demo-subscriptions';
import { seedDemoRefunds } from './demo-refunds';
import { seedDemoWaivers } from './demo-waivers';

export const DEMO_ORGANIZATION = 'Demo Studio';
export const DEMO_SUPER_ADMIN_EMAIL = 'super@demo.studio';

/**
 * On an empty database: a demo studio with its owner, a second organization, and a super admin
 * that can switch between them. Never touches a database that already has organizations.
 */
export async function seedDemo(app: INestApplicationContext, config: AppConfig): Promise<boolean> {
  const em = app.get(EntityManager);
  const organizations = app.get(OrganizationsService);
  const users = app.get(UsersService);
  if ((await em.count(Organization, {})) > 0 || (await em.count(User, {})) > 0) return false;
  const demo = await organizations.create({
    name: DEMO_ORGANIZATION,
    timezone: config.DEFAULT_TIMEZONE,
  });
  const owner = await users.create({
    email: config.DEMO_EMAIL,
    password: config.DEMO_PASSWORD,
    role: 'owner',
    organizationId: demo.id,
    firstName: 'Dana',
    lastName: 'Owner',
  });
  await users.create({
    email: 'staff@demo.studio',
    password: config.DEMO_PASSWORD,
    role: 'staff',
    organizationId: demo.id,
    firstName: 'Sam',
    lastName: 'Staff',
  });
  const demoCtx = { organizationId: demo.id, userId: owner.id, role: 'owner' as const, sessionId: 'seed' };
  await seedDemoCatalog(app, demoCtx, demo.timezone);
  // The demo studio runs the loyalty programme; Another Studio has none ("set up a loyalty program").
  await app.get(LoyaltyService).setStatus(demo.id, 'active', owner.id);
  // After the programme: the membership earns points.
  await seedDemoProducts(app, demoCtx);
  await seedDemoDiscounts(app, demoCtx, demo.timezone);
  // After the students, sessions and products it sells.
  await seedDemoOrders(app, demoCtx);
  await seedDemoPaymentLink(app, demoCtx);
  await seedDemoSubscriptions(app, demoCtx);
  // A payment method on file and orders paid through the demo provider, one partly refunded.
  await seedDemoRefunds(app, demoCtx);
  // The waiver course's seats: submissions signed and pending, as the seeded enrollments say.
  await seedDemoWaivers(app, demoCtx);
  const other = await organizations.create({ name: 'Another Studio', timezone: 'America/Los_Angeles' });
  await users.create({
    email: 'owner@another.studio',
    password: config.DEMO_PASSWORD,
    role: 'owner',
    organizationId: other.id,
    firstName: 'Alex',
    lastName: 'Other',
  });
  await users.create({
    email: DEMO_SUPER_ADMIN_EMAIL,
    password: config.DEMO_PASSWORD,
    role: 'super_admin',
    organizationId: demo.id,
    firstName: 'Super',
    lastName: 'Admin',
  });
  new Logger('DemoSeed').log(`Seeded ${DEMO_ORGANIZATION} with owner ${config.DEMO_EMAIL}`);
  return true;
}
