import { Entity, OneToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { LOYALTY_UNIT, type LoyaltyStatus } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../organizations/organization.entity';

/**
 * An organization's loyalty points programme (spec 000 §3, §4, §9): at most one per organization.
 * An organization without a row has no programme, which reads as disabled.
 */
@Entity({ tableName: 'loyalty_program' })
export class LoyaltyProgram {
  [OptionalProps]?: 'unit' | 'createdAt' | 'updatedAt' | 'updatedBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @OneToOne(() => Organization, { owner: true, unique: true, deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  status!: LoyaltyStatus;

  @Property({ type: 'text' })
  unit: string = LOYALTY_UNIT;

  /** The user who last turned it on or off. */
  @Property({ type: 'uuid', nullable: true })
  updatedBy?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
