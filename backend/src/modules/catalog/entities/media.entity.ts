import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/** An uploaded image. Only rows of the caller's organization can be attached to its courses. */
@Entity({ tableName: 'media' })
export class Media {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  /** Key in the storage (disk path or object key). */
  @Property({ type: 'text', unique: true })
  storageKey!: string;

  @Property({ type: 'text', unique: true })
  url!: string;

  @Property({ type: 'text' })
  contentType!: string;

  @Property({ type: 'integer' })
  byteSize!: number;

  @Property({ type: 'text' })
  originalName: string = '';

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
