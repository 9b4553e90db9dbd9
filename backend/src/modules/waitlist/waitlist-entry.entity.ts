import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { WaitlistStatus } from '@studio/contracts';
import { randomUUID } from 'node:crypto';

/**
 * A party waiting for seats in a sold-out session (issue 23): the waitlist module's one table.
 * `position` orders the waitlist (the admin's reorder swaps two); an offer names the seat hold that
 * keeps its seats (scheduling's seat_hold) and stores only the SHA-256 of its claim token.
 */
@Entity({ tableName: 'waitlist_entry' })
export class WaitlistEntry {
  [OptionalProps]?:
    | 'status'
    | 'createdAt'
    | 'updatedAt'
    | 'holdId'
    | 'offeredAt'
    | 'offeredUntil'
    | 'claimTokenHash'
    | 'orderId';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'uuid' })
  eventId!: string;

  @Property({ type: 'text' })
  name!: string;

  /** Lower-cased: the same email on the same session is one entry. */
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'integer' })
  partySize!: number;

  @Property({ type: 'bigint', runtimeType: 'number' })
  position!: number;

  @Property({ type: 'text' })
  status: WaitlistStatus = 'waiting';

  /** The seat hold of the current (or last) offer. */
  @Property({ type: 'uuid', nullable: true })
  holdId?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  offeredAt?: Date | null;

  /** When the offer's seats stop being held (the organization's claim time after the offer). */
  @Property({ type: 'timestamptz', nullable: true })
  offeredUntil?: Date | null;

  @Property({ type: 'text', nullable: true })
  claimTokenHash?: string | null;

  /** The store order of the claim's checkout (owned by the orders module). */
  @Property({ type: 'uuid', nullable: true })
  orderId?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
