import {
  Collection,
  Entity,
  ManyToOne,
  OneToMany,
  OptionalProps,
  PrimaryKey,
  Property,
} from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Activity } from '../../catalog/entities/activity.entity';
import { Instructor } from '../../catalog/entities/instructor.entity';
import { Location } from '../../catalog/entities/location.entity';
import { Organization } from '../../organizations/organization.entity';
import { EventDay } from './event-day.entity';

/** A dated session of a scheduled course; a multi-day course is one event of several days. */
@Entity({ tableName: 'event' })
export class Event {
  [OptionalProps]?:
    'status' | 'isFeatured' | 'isSpecialEvent' | 'syncWithEventbrite' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @ManyToOne(() => Activity, { deleteRule: 'restrict' })
  activity!: Activity;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  internalShortDescription?: string | null;

  @Property({ type: 'integer' })
  capacity!: number;

  /** Price in cents for future orders of this session. */
  @Property({ type: 'integer' })
  priceCents!: number;

  @Property({ type: 'text' })
  status: 'active' | 'cancelled' = 'active';

  @Property({ type: 'boolean' })
  isFeatured: boolean = false;

  @Property({ type: 'boolean' })
  isSpecialEvent: boolean = false;

  /** The admin asked for this session to be synced to the ticketing service. */
  @Property({ type: 'boolean' })
  syncWithEventbrite: boolean = false;

  @ManyToOne(() => Location, { deleteRule: 'restrict' })
  location!: Location;

  @ManyToOne(() => Instructor, { deleteRule: 'restrict' })
  instructor!: Instructor;

  /** First day's start and last day's end, in UTC, for listing and badges. */
  @Property({ type: 'timestamptz' })
  startsAt!: Date;

  @Property({ type: 'timestamptz' })
  endsAt!: Date;

  /** The session's video meeting (Zoom), set by the sync module through EventsService.attachMeeting. */
  @Property({ type: 'text', nullable: true })
  meetingJoinUrl?: string | null;

  /** The meeting's summary once it has taken place (Zoom's AI Companion), when the admin asked for it. */
  @Property({ type: 'text', nullable: true })
  meetingSummary?: string | null;

  @OneToMany(() => EventDay, (day) => day.event, { orderBy: { position: 'asc' }, orphanRemoval: true })
  days = new Collection<EventDay>(this);

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
