import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Event } from './event.entity';

/**
 * One day of a session as the admin typed it (date and wall-clock time in the location's zone),
 * with the UTC instants computed from them, so a day after a daylight-saving change still starts
 * at the typed time.
 */
@Entity({ tableName: 'event_day' })
export class EventDay {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('Event', { deleteRule: 'cascade' })
  event!: Event;

  @Property({ type: 'smallint' })
  position!: number;

  /** "yyyy-MM-dd", kept as text on every driver (a wall-clock date, not an instant). */
  @Property({ columnType: 'date', type: 'string' })
  startDate!: string;

  /** "HH:mm" */
  @Property({ type: 'text' })
  startTime!: string;

  @Property({ type: 'integer' })
  durationMins!: number;

  @Property({ type: 'timestamptz' })
  startsAt!: Date;

  @Property({ type: 'timestamptz' })
  endsAt!: Date;
}
