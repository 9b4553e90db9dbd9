import { Entity, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../organizations/organization.entity';

export const USER_ROLES = ['owner', 'staff', 'super_admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** An admin account. A super admin's organization is the one it currently administers. */
@Entity({ tableName: 'app_user' })
export class User {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** Stored lower-cased; unique across the platform. */
  @Property({ type: 'text', unique: true })
  email!: string;

  @Property({ type: 'text' })
  firstName: string = '';

  @Property({ type: 'text' })
  lastName: string = '';

  /** argon2id hash, never sent anywhere. */
  @Property({ type: 'text', hidden: true })
  passwordHash!: string;

  @Enum({ items: () => USER_ROLES, nativeEnumName: 'user_role' })
  role: UserRole = 'staff';

  @ManyToOne(() => Organization, { deleteRule: 'restrict' })
  organization!: Organization;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
