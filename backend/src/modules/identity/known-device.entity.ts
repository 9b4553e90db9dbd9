import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

/**
 * A browser the user signed in with: the SHA-256 of its device cookie. Sign-ins from it have a
 * failed-attempt budget of their own, so strangers guessing the password cannot lock the user out
 * of it (see LoginRateLimiter).
 */
@Entity({ tableName: 'known_device' })
@Unique({ properties: ['user', 'deviceHash'] })
export class KnownDevice {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text' })
  deviceHash!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  lastSeenAt: Date = new Date();
}
