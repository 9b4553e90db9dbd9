import { Collection, Entity, ManyToOne, OneToMany, PrimaryKey, Property } from '@mikro-orm/core';
import type { ProductStatus } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../organizations/organization.entity';
import { ProductImage } from './product-image.entity';
import { ProductPrice } from './product-price.entity';

/**
 * A product the studio sells (a kit, a gift, a membership) or gives away (a lead magnet). What it
 * costs is not here: it is the product's current row of `product_price`, a history of prices.
 */
@Entity({ tableName: 'product' })
export class Product {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Organization, { deleteRule: 'cascade' })
  organization!: Organization;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  description: string = '';

  @Property({ type: 'text' })
  status: ProductStatus = 'published';

  /** A lead magnet's download: the address mailed to whoever asks for it at the store. */
  @Property({ type: 'text', nullable: true })
  downloadUrl: string | null = null;

  @OneToMany(() => ProductImage, (image) => image.product, { orderBy: { position: 'asc' }, orphanRemoval: true })
  images = new Collection<ProductImage>(this);

  /** Every price the product has had, the current one included; rows are never changed but for `current`. */
  @OneToMany(() => ProductPrice, (price) => price.product)
  prices = new Collection<ProductPrice>(this);

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
