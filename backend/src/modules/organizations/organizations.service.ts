import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_REMINDER_OFFSETS_MINS,
  DEFAULT_WAITLIST_CLAIM_HOURS,
  slugify,
  storeAddress,
  type ReminderSettingsPayload,
  type StoreSettingsPayload,
  type WaitlistSettingsPayload,
} from '@studio/contracts';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { AuthService } from '../identity/auth.service';
import { UsersService } from '../identity/users.service';
import { Organization } from './organization.entity';
import { hasPublishedCourse } from './published-courses.query';

/** Tenancy: the caller's organization, and the super admin's view over all of them. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Where the app is reached from outside: PUBLIC_APP_URL, else this process on localhost. */
  appUrl(): string {
    return (this.config.PUBLIC_APP_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
  }

  /** The organization's store: its own site when it names one, else PUBLIC_APP_URL/s/{slug}. */
  storeUrl(organization: Pick<Organization, 'slug' | 'publicUrl'>): string {
    return storeAddress({ appUrl: this.appUrl(), slug: organization.slug, publicUrl: organization.publicUrl });
  }

  /** The caller's organization as its settings and session show it (store address, listed course). */
  async settings(ctx: RequestContext) {
    const organization = await this.current(ctx);
    return mapOrgSettings(organization, this.addresses(organization), await hasPublishedCourse(this.em, organization.id));
  }

  async describe(organization: Organization) {
    return mapOrganization(organization, this.addresses(organization), await hasPublishedCourse(this.em, organization.id));
  }

  /** The store's address, and where this app serves its pages (the same unless the studio names its own site). */
  private addresses(organization: Organization): StoreAddresses {
    return { store: this.storeUrl(organization), app: this.appStoreUrl(organization) };
  }

  /**
   * Where this app serves the organization's store pages (checkout, confirmation), which its own
   * site opens in the overlay: PUBLIC_APP_URL/s/{slug}.
   */
  appStoreUrl(organization: Pick<Organization, 'slug'>): string {
    return storeAddress({ appUrl: this.appUrl(), slug: organization.slug });
  }

  /** Settings → Organization: the reminder mails' times (issue 23); bookings made from now on follow them. */
  async updateReminders(ctx: RequestContext, input: ReminderSettingsPayload): Promise<Organization> {
    const organization = await this.current(ctx);
    organization.reminderOffsetsMins = input.reminder_offsets_mins;
    await this.em.flush();
    return organization;
  }

  /** Settings → Organization: how long a waitlist offer holds its seats (issue 23); offers made from now on follow it. */
  async updateWaitlist(ctx: RequestContext, input: WaitlistSettingsPayload): Promise<Organization> {
    const organization = await this.current(ctx);
    organization.waitlistClaimHours = input.waitlist_claim_hours;
    await this.em.flush();
    return organization;
  }

  /** The store address of this app for an organization by id (PUBLIC_APP_URL/s/{slug}), or null when there is none. */
  async appStoreUrlById(organizationId: string): Promise<string | null> {
    const organization = await this.em.fork().findOne(Organization, { id: organizationId }, { fields: ['slug'] });
    return organization ? this.appStoreUrl(organization) : null;
  }

  /** The organization whose store has this address, or null. */
  findBySlug(slug: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { slug });
  }

  /** Settings → Organization: the store address and the own site. A slug another studio has is 409. */
  async updateStore(ctx: RequestContext, input: StoreSettingsPayload): Promise<Organization> {
    const organization = await this.current(ctx);
    organization.slug = input.slug;
    organization.publicUrl = input.public_url;
    await this.em.flush();
    return organization;
  }

  /** A free store address from a name: slugify(name), else with -2, -3… */
  private async freeSlug(name: string): Promise<string> {
    const base = slugify(name);
    const taken = new Set(
      (
        await this.em.execute<{ slug: string }[]>(
          `select slug from organization where slug = ? or slug like ?`,
          [base, `${base}-%`],
        )
      ).map((row) => row.slug),
    );
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  async current(ctx: RequestContext): Promise<Organization> {
    const organization = await this.em.findOne(Organization, { id: ctx.organizationId });
    if (!organization) throw notFound();
    return organization;
  }

  listAll(): Promise<Organization[]> {
    return this.em.find(Organization, {}, { orderBy: { name: 'asc', id: 'asc' } });
  }

  async create(input: { name: string; timezone?: string; publicUrl?: string }): Promise<Organization> {
    const organization = this.em.create(Organization, {
      name: input.name,
      slug: await this.freeSlug(input.name),
      timezone: input.timezone ?? 'America/New_York',
      publicUrl: input.publicUrl ?? null,
      listedCourse: false,
      reminderOffsetsMins: [...DEFAULT_REMINDER_OFFSETS_MINS],
      waitlistClaimHours: DEFAULT_WAITLIST_CLAIM_HOURS,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await this.em.persistAndFlush(organization);
    return organization;
  }

  /**
   * A super admin administers the chosen organization from now on, in this session only: their
   * other sessions keep their own. An unknown id is 404.
   */
  async switchOrganization(ctx: RequestContext, organizationId: string) {
    const target = await this.em.findOne(Organization, { id: organizationId });
    if (!target) throw notFound('Organization not found');
    await this.auth.actInOrganization(ctx, target.id);
    const user = await this.users.findById(ctx.userId);
    if (!user) throw notFound();
    return { user, organizationId: target.id };
  }
}

interface StoreAddresses {
  /** Where the store is: the studio's own site, else this app's store pages. */
  store: string;
  /** This app's store pages (PUBLIC_APP_URL/s/{slug}), which the checkout overlay opens. */
  app: string;
}

/** The organization's settings; `listedCourse`: whether it has a published course (see OrganizationsService). */
export function mapOrgSettings(organization: Organization, addresses: StoreAddresses, listedCourse: boolean) {
  return {
    name: organization.name,
    timezone: organization.timezone,
    listed_course: listedCourse,
    slug: organization.slug,
    public_url: organization.publicUrl ?? null,
    store_url: addresses.store,
    app_store_url: addresses.app,
    reminder_offsets_mins: [...(organization.reminderOffsetsMins ?? [])],
    waitlist_claim_hours: organization.waitlistClaimHours ?? DEFAULT_WAITLIST_CLAIM_HOURS,
  };
}

export function mapOrganization(organization: Organization, addresses: StoreAddresses, listedCourse: boolean) {
  return { ...mapOrgSettings(organization, addresses, listedCourse), organization_id: organization.id };
}
