import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { DEFAULT_REMINDER_OFFSETS_MINS, DEFAULT_WAITLIST_CLAIM_HOURS } from '@studio/contracts';
import { randomUUID } from 'node:crypto';

/** The tenant: every admin row belongs to exactly one organization. */
@Entity({ tableName: 'organization' })
export class Organization {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  /** The store's address: PUBLIC_APP_URL/s/{slug} (issue 21). Unique, editable in Settings → Organization. */
  @Property({ type: 'text', unique: 'organization_slug_unique' })
  slug!: string;

  /** IANA zone in which dates and times of this organization are read and shown. */
  @Property({ type: 'text' })
  timezone: string = 'America/New_York';

  /** Whether the organization lists a course on its public site (spec 000 §3, Organization). */
  @Property({ type: 'boolean' })
  listedCourse: boolean = false;

  /**
   * The studio's own site, when it hosts its store there (spec 001 §2's public host): share links,
   * Preview and payment links' return address point there instead of PUBLIC_APP_URL/s/{slug}.
   */
  @Property({ type: 'text', nullable: true })
  publicUrl?: string | null;

  /** Minutes before a booking's start its reminder mails go (issue 23): at most 3, empty = off. */
  @Property({ type: 'json' })
  reminderOffsetsMins: number[] = [...DEFAULT_REMINDER_OFFSETS_MINS];

  /** How long a waitlist offer holds its seats for the party offered them (issue 23): 1 to 168 hours. */
  @Property({ type: 'integer' })
  waitlistClaimHours: number = DEFAULT_WAITLIST_CLAIM_HOURS;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
