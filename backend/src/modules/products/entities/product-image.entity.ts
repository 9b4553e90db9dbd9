import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Media } from '../../catalog/entities/media.entity';
import type { Product } from './product.entity';

/** An image of a product, in display order (an uploaded Media row of the same organization). */
@Entity({ tableName: 'product_image' })
export class ProductImage {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('Product', { deleteRule: 'cascade' })
  product!: Product;

  @ManyToOne(() => Media, { deleteRule: 'restrict' })
  media!: Media;

  @Property({ type: 'smallint' })
  position!: number;
}
