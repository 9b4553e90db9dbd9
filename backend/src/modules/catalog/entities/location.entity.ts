import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/** Where classes happen; its time zone is the one sessions are typed and shown in. */
@Entity({ tableName: 'location' })
export class Location {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  name: string = '';

  @Property({ type: 'text' })
  address!: string;

  @Property({ type: 'text' })
  timezone!: string;

  /** Classes here happen online: with Zoom connected, each session gets a meeting (the sync module). */
  @Property({ type: 'boolean' })
  online: boolean = false;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
