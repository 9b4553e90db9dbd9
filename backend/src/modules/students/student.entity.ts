import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../organizations/organization.entity';

/** A customer of the studio. `userId` is set once the student has signed up on the public site. */
@Entity({ tableName: 'student' })
export class Student {
  [OptionalProps]?: 'phone' | 'userId' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  firstName!: string;

  @Property({ type: 'text' })
  lastName!: string;

  /** Lower-cased; unique inside the organization. */
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text', nullable: true })
  phone?: string | null;

  @Property({ type: 'text', nullable: true })
  userId?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
