import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { Student } from '../../students/student.entity';
import { Event } from './event.entity';

export const WAIVER_STATUSES = ['signed', 'pending', 'expired', 'not_required'] as const;
export type WaiverStatus = (typeof WAIVER_STATUSES)[number];

/**
 * A student's seat in a session, plus guests. Removing a student marks the row removed (the seat is
 * freed, the order and its history stay).
 */
@Entity({ tableName: 'enrollment' })
export class Enrollment {
  [OptionalProps]?: 'guestCount' | 'status' | 'waiverStatus' | 'createdAt' | 'removedAt' | 'orderId' | 'checkedInAt' | 'checkedInBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @ManyToOne(() => Event, { deleteRule: 'restrict' })
  event!: Event;

  @ManyToOne(() => Student, { deleteRule: 'restrict' })
  student!: Student;

  /** The order that paid for the seat (owned by the orders module). */
  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Property({ type: 'integer' })
  guestCount: number = 0;

  @Property({ type: 'text' })
  status: 'active' | 'removed' = 'active';

  @Property({ type: 'text' })
  waiverStatus: WaiverStatus = 'not_required';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  removedAt?: Date | null;

  /** When the student was checked in to the session (issue 23); null when not (or undone). */
  @Property({ type: 'timestamptz', nullable: true })
  checkedInAt?: Date | null;

  /** The admin (app_user id) who checked the student in. */
  @Property({ type: 'uuid', nullable: true })
  checkedInBy?: string | null;
}
