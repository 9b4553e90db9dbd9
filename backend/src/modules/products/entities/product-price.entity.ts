import { ArrayType, Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { ProductGrant, ProductPriceType, RenewalIntervalUnit } from '@studio/contracts';
import { randomUUID } from 'node:crypto';
import type { Product } from './product.entity';

/**
 * One price of a product, immutable once written (Stripe's Prices, Vendure's ProductVariantPrice):
 * changing the amount, the category, the renewal interval, the points or what it grants inserts a new row and makes
 * it the current one. Old rows stay, so an order keeps pointing at the price it was sold at. At most
 * one row per product is current (a partial unique index).
 */
@Entity({ tableName: 'product_price' })
export class ProductPrice {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('Product', { deleteRule: 'cascade' })
  product!: Product;

  /** Cents. */
  @Property({ type: 'integer' })
  amountCents!: number;

  @Property({ type: 'text' })
  category!: ProductPriceType;

  @Property({ type: 'text', nullable: true })
  renewalIntervalUnit: RenewalIntervalUnit | null = null;

  @Property({ type: 'integer', nullable: true })
  renewalIntervalQuantity: number | null = null;

  /** Loyalty points a buyer earns; null when the product earns none. */
  @Property({ type: 'integer', nullable: true })
  earnedLoyaltyPoints: number | null = null;

  /** What buying it grants (issue 24) and the grant's terms; see Migration20261127150000_product_grants. */
  @Property({ type: 'text', fieldName: 'grant_kind' })
  grant: ProductGrant = 'none';

  @Property({ type: 'integer', nullable: true })
  membershipBookings: number | null = null;

  @Property({ type: 'boolean' })
  membershipUnlimited: boolean = false;

  @Property({ type: 'integer', nullable: true })
  packCredits: number | null = null;

  @Property({ type: 'integer', nullable: true })
  packExpiresAfterQuantity: number | null = null;

  @Property({ type: 'text', nullable: true })
  packExpiresAfterUnit: RenewalIntervalUnit | null = null;

  @Property({ type: ArrayType, columnType: 'uuid[]', nullable: true })
  coversActivityIds: string[] | null = null;

  @Property({ type: new ArrayType<number>((i) => Number(i)), columnType: 'integer[]', nullable: true })
  coversCategoryIds: number[] | null = null;

  @Property({ type: 'boolean' })
  current: boolean = true;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
