import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/** The tenant: every admin row belongs to exactly one organization. */
@Entity({ tableName: 'organization' })
export class Organization {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  /** IANA zone in which dates and times of this organization are read and shown. */
  @Property({ type: 'text' })
  timezone: string = 'America/New_York';

  /** Whether the organization lists a course on its public site (spec 000 §3, Organization). */
  @Property({ type: 'boolean' })
  listedCourse: boolean = false;

  /** Public host of the organization's site, prefix of share links (spec 001 §2). */
  @Property({ type: 'text', nullable: true })
  publicUrl?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
