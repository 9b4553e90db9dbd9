import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

@Entity({ tableName: 'instructor' })
export class Instructor {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  firstName!: string;

  @Property({ type: 'text' })
  lastName: string = '';

  @Property({ type: 'text', nullable: true })
  photoUrl?: string | null;

  /**
   * Weekly hours and date overrides in the zone of the location (`{weekly, overrides}`, validated
   * by the contracts' availability schema); null: none set, so no appointment slot (issue 22).
   */
  @Property({ type: 'json', nullable: true })
  availability?: unknown | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
