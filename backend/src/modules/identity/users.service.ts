import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
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
  constructor(
    private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
      passwordHash: await hashPassword(input.password, this.config.PASSWORD_HASH_COST),
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
}

/**
 * The user as the API shows it. `organizationId` is the organization the caller acts in, which for
 * a super admin is the one switched to in this session (the user row keeps their own).
 */
export function mapUser(user: User, organizationId: string = user.organization.id) {
  return {
    user_id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    organization_id: organizationId,
  };
}
