import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Activity } from './activity.entity';
import { Media } from './media.entity';

/** An image of a course, in display order. */
@Entity({ tableName: 'activity_image' })
export class ActivityImage {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('Activity', { deleteRule: 'cascade' })
  activity!: Activity;

  @ManyToOne(() => Media, { deleteRule: 'restrict' })
  media!: Media;

  @Property({ type: 'smallint' })
  position!: number;
}
