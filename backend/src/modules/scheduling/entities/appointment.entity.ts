import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export const APPOINTMENT_STATUSES = ['held', 'booked', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/**
 * One appointment of an appointment course (issue 22): a student (and guests) with the course's
 * instructor at a time the student chose. `blocked` is the period the instructor is busy for it,
 * [starts_at − buffer_before, ends_at + buffer_after) as a PostgreSQL tstzrange text, fixed when it
 * was made; the table's exclusion constraint refuses two non-cancelled appointments of one
 * instructor whose blocked periods overlap. Rows are inserted by AppointmentsService.hold only (raw
 * SQL: the range is computed by the database), and change status through its methods.
 */
@Entity({ tableName: 'appointment' })
export class Appointment {
  [OptionalProps]?: 'status' | 'guestCount' | 'createdAt' | 'sequence';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  /** The appointment course. */
  @Property({ type: 'uuid' })
  activityId!: string;

  @Property({ type: 'uuid' })
  instructorId!: string;

  @Property({ type: 'uuid' })
  locationId!: string;

  @Property({ type: 'uuid' })
  studentId!: string;

  /** The order that pays for it (owned by the orders module), when there is one. */
  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Property({ type: 'integer' })
  guestCount: number = 0;

  @Enum({ items: [...APPOINTMENT_STATUSES], type: 'text' })
  status: AppointmentStatus = 'held';

  @Property({ type: 'timestamptz' })
  startsAt!: Date;

  @Property({ type: 'timestamptz' })
  endsAt!: Date;

  /** The tstzrange as PostgreSQL writes it, e.g. `["2026-12-01 14:45:00+00","2026-12-01 16:15:00+00")`. */
  @Property({ columnType: 'tstzrange', type: 'string' })
  blocked!: string;

  /** Until when a held appointment keeps its time; null once booked. */
  @Property({ type: 'timestamptz', nullable: true })
  holdExpiresAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  /** The Zoom join link of an appointment at an online location (the sync's meeting job writes it). */
  @Property({ type: 'text', nullable: true })
  meetingUrl?: string | null;

  /** The calendar file's SEQUENCE: raised by each move (same UID, so the student's calendar replaces the event). */
  @Property({ type: 'integer' })
  sequence: number = 0;
}
