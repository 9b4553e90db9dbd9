import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/** An intake waiver students sign before class: its text, or an uploaded document. */
@Entity({ tableName: 'waiver_template' })
export class WaiverTemplate {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  body: string = '';

  @Property({ type: 'text', nullable: true })
  documentUrl?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
