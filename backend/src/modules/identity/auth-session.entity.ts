import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../organizations/organization.entity';
import { User } from './user.entity';

/** A sign-in. Only the SHA-256 of the token is stored, so a database leak gives no usable token. */
@Entity({ tableName: 'auth_session' })
export class AuthSession {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  /**
   * The organization a super admin administers in this session (their switch), or null for the
   * user's own organization. Kept per session, so switching in one browser leaves the others alone.
   */
  @ManyToOne(() => Organization, { nullable: true, deleteRule: 'set null' })
  actingOrganization?: Organization | null;
}
