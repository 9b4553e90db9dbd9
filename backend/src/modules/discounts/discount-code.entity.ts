import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { DiscountApplyLogic, DiscountType } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../organizations/organization.entity';

/**
 * A discount (promo) code of an organization (spec 000 §3). The code is unique inside the
 * organization whatever its case (index on lower(code)). `activityId` names the course it is
 * limited to; it is a plain id (the catalog module owns courses), with a foreign key in the database.
 */
@Entity({ tableName: 'discount_code' })
export class DiscountCode {
  [OptionalProps]?: 'activityId' | 'startDate' | 'expirationDate' | 'timesUsed' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  label!: string;

  /** As typed (trimmed); compared without case. */
  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  type!: DiscountType;

  /** Cents for a dollar discount, a whole percent (1 to 100) for a percentage. */
  @Property({ type: 'integer' })
  value!: number;

  @Property({ type: 'uuid', nullable: true })
  activityId: string | null = null;

  @Property({ type: 'text' })
  applyLogic!: DiscountApplyLogic;

  @Property({ type: 'timestamptz', nullable: true })
  startDate: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  expirationDate: Date | null = null;

  /** Paid orders that used the code; only ever changed by DiscountsService.incrementUsage (one atomic UPDATE). */
  @Property({ type: 'integer' })
  timesUsed: number = 0;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
