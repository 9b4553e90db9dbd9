import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/** A custom label on sessions. System tags (Featured, Special, Hot) are derived and never stored. */
@Entity({ tableName: 'tag' })
export class Tag {
  [OptionalProps]?: 'icon' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  color!: string;

  @Property({ type: 'text', nullable: true })
  icon?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
