import { Entity, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/**
 * A seat a payment link keeps for its student until the link is paid (the hold becomes an
 * enrollment), cancelled or expires (released). While unreleased and unexpired it counts as taken
 * in every capacity check (see seatsTaken). Written only by EnrollmentsService (hold, releaseHold, convertHold), under the session's
 * seat lock.
 */
@Entity({ tableName: 'seat_hold' })
export class SeatHold {
  [OptionalProps]?: 'seats' | 'releasedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid' })
  eventId!: string;

  @Property({ type: 'uuid' })
  studentId!: string;

  /** The pending order of the payment link (owned by the orders module). */
  @Unique({ name: 'seat_hold_order_unique' })
  @Property({ type: 'uuid' })
  orderId!: string;

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
