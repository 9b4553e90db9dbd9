import { Entity, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/**
 * A seat a payment link keeps for its student until the link is paid (the hold becomes an
 * enrollment), cancelled or expires (released). While unreleased and unexpired it counts as taken
 * in every capacity check (see seatsTaken). Written only by SeatHoldsService (hold, releaseHold, the waitlist offers, convertHold), under the session's
 * seat lock.
 */
@Entity({ tableName: 'seat_hold' })
export class SeatHold {
  [OptionalProps]?: 'seats' | 'releasedAt' | 'createdAt' | 'waitlistEntryId';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid' })
  eventId!: string;

  /** The student the seats are held for; null for a waitlist offer not claimed yet. */
  @Property({ type: 'uuid', nullable: true })
  studentId!: string | null;

  /** The pending order of the payment link (owned by the orders module); null for a waitlist offer not claimed yet. */
  @Unique({ name: 'seat_hold_order_unique' })
  @Property({ type: 'uuid', nullable: true })
  orderId!: string | null;

  /**
   * A waitlist offer's hold (issue 23): the entry it was offered to. Until the claim's checkout names
   * its order and student, the hold counts like any other and lasts the organization's claim time.
   */
  @Property({ type: 'uuid', nullable: true })
  waitlistEntryId?: string | null;

  @Property({ type: 'integer' })
  seats: number = 1;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  /** When the hold stopped counting: paid (it became an enrollment), cancelled or expired. */
  @Property({ type: 'timestamptz', nullable: true })
  releasedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
