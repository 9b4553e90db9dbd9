import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { Organization } from '../organizations/organization.entity';
import { hashPassword } from './password';
import { User, UserRole } from './user.entity';

export interface NewUser {
  email: string;
  password: string;
  role: UserRole;
  organizationId: string;
  firstName?: string;
  lastName?: string;
}

/** Admin accounts: what other modules may ask of identity. */
@Injectable()
export class UsersService {
  constructor(private readonly em: EntityManager) {}

  findById(userId: string): Promise<User | null> {
    return this.em.findOne(User, { id: userId });
  }

  /** Only rows of the caller's organization: another organization's id finds nothing. */
  findInOrganization(ctx: RequestContext, userId: string): Promise<User | null> {
    return this.em.findOne(User, { id: userId, organization: ctx.organizationId });
  }

  listForOrganization(ctx: RequestContext): Promise<User[]> {
    return this.em.find(User, { organization: ctx.organizationId }, { orderBy: { lastName: 'asc', firstName: 'asc', id: 'asc' } });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { email: email.toLowerCase() });
  }

  async create(input: NewUser): Promise<User> {
    const user = this.em.create(User, {
      email: input.email.toLowerCase(),
      passwordHash: await hashPassword(input.password),
      role: input.role,
      organization: this.em.getReference(Organization, input.organizationId),
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await this.em.persistAndFlush(user);
    return user;
  }

  /** Points the user at another organization (the super admin switch). */
  async moveToOrganization(userId: string, organizationId: string): Promise<User> {
    const user = await this.em.findOneOrFail(User, { id: userId });
    user.organization = this.em.getReference(Organization, organizationId);
    await this.em.flush();
    return user;
  }
}

export function mapUser(user: User) {
  return {
    user_id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    organization_id: user.organization.id,
  };
}
