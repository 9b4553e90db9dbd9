import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/api-error';
import { RequestContext } from '../../common/request-context';
import { AuthService } from '../identity/auth.service';
import { UsersService } from '../identity/users.service';
import { Organization } from './organization.entity';

/** Tenancy: the caller's organization, and the super admin's view over all of them. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly users: UsersService,
    private readonly auth: AuthService,
  ) {}

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
      timezone: input.timezone ?? 'America/New_York',
      publicUrl: input.publicUrl ?? null,
      listedCourse: false,
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

export function mapOrgSettings(organization: Organization) {
  return { name: organization.name, timezone: organization.timezone, listed_course: organization.listedCourse };
}

export function mapOrganization(organization: Organization) {
  return {
    ...mapOrgSettings(organization),
    organization_id: organization.id,
    public_url: organization.publicUrl ?? null,
  };
}
