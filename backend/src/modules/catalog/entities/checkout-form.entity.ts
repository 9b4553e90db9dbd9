import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { CheckoutFormField } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';

/** The custom fields collected at checkout (the course's required form). */
@Entity({ tableName: 'checkout_form' })
export class CheckoutForm {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'json' })
  fields: CheckoutFormField[] = [];

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
