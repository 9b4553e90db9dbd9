import { Collection, Entity, Enum, ManyToOne, OneToMany, PrimaryKey, Property } from '@mikro-orm/core';
import type { ActivityType, FormCollectionType, Level, PriceType } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { ActivityImage } from './activity-image.entity';
import { CheckoutForm } from './checkout-form.entity';
import { Instructor } from './instructor.entity';
import { Location } from './location.entity';
import { WaiverTemplate } from './waiver-template.entity';

/** A course: scheduled (dated sessions) or appointment (the student picks the time). */
@Entity({ tableName: 'activity' })
export class Activity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  description!: string;

  /** Material, as its fixed category id (1 = Metal ... 7 = Textiles). */
  @Property({ type: 'smallint' })
  categoryId!: number;

  @Property({ type: 'text' })
  level!: Level;

  @Property({ type: 'text' })
  priceType: PriceType = 'standard';

  /** Price in cents; 0 for a free course. */
  @Property({ type: 'integer' })
  priceCents: number = 0;

  @Property({ type: 'integer' })
  capacity!: number;

  @Property({ type: 'text' })
  tools: string = '';

  @ManyToOne(() => Location, { deleteRule: 'restrict' })
  location!: Location;

  @ManyToOne(() => Instructor, { deleteRule: 'restrict' })
  instructor!: Instructor;

  @Property({ type: 'smallint' })
  cancelPolicyId!: number;

  @Property({ type: 'smallint' })
  reschedulePolicyId!: number;

  @Enum({ items: ['scheduled', 'appointment'], type: 'text' })
  activityType: ActivityType = 'scheduled';

  /** Stops new enrolments after one party; required for appointment mode. */
  @Property({ type: 'boolean' })
  singleParty: boolean = false;

  /** Listing status of appointment courses ('listed' shows it on the site). */
  @Property({ type: 'text' })
  status: 'listed' | 'unlisted' = 'listed';

  @Property({ type: 'text' })
  formCollectionType: FormCollectionType = 'order';

  @ManyToOne(() => CheckoutForm, { nullable: true, deleteRule: 'set null' })
  requiredForm?: CheckoutForm | null;

  @ManyToOne(() => WaiverTemplate, { nullable: true, deleteRule: 'set null' })
  requiredWaiver?: WaiverTemplate | null;

  @Property({ type: 'integer' })
  bufferBeforeMins: number = 0;

  @Property({ type: 'integer' })
  bufferAfterMins: number = 0;

  @Property({ type: 'integer' })
  minNoticeMins: number = 0;

  @Property({ type: 'integer' })
  startTimeIncrementsMins: number = 30;

  @Property({ type: 'integer' })
  durationMins: number = 60;

  /** How many days ahead a student may book an appointment (1..365; issue 22). */
  @Property({ type: 'integer' })
  bookingWindowDays: number = 60;

  /**
   * The course's own hours, when it has them (`{weekly, overrides}`, validated by the contracts'
   * availability schema); null: the course books its instructor's hours.
   */
  @Property({ type: 'json', nullable: true })
  availability?: unknown | null;

  @Property({ type: 'text' })
  autoEmail: string = '';

  @Property({ type: 'integer' })
  defaultDays: number = 1;

  @Property({ type: 'integer' })
  defaultDaysApart: number = 1;

  @Property({ type: 'integer' })
  defaultDailyMins: number = 60;

  /** "HH:mm", wall clock of the location. */
  @Property({ type: 'text' })
  defaultStartTime: string = '12:00';

  @Property({ type: 'boolean' })
  syncWithEventbrite: boolean = false;

  @Property({ type: 'text', nullable: true })
  eventbriteEventId?: string | null;

  @OneToMany(() => ActivityImage, (image) => image.activity, { orderBy: { position: 'asc' }, orphanRemoval: true })
  images = new Collection<ActivityImage>(this);

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
