import type { ProductPriceType, ProductStatus, RenewalIntervalUnit } from '@studio/contracts';
import { Product } from './entities/product.entity';
import { ProductPrice } from './entities/product-price.entity';

const iso = (d: Date) => d.toISOString();

export function mapPrice(price: ProductPrice) {
  return {
    price_id: price.id,
    unit_price: price.amountCents,
    category: price.category,
    renewal_interval_unit: price.renewalIntervalUnit,
    renewal_interval_quantity: price.renewalIntervalQuantity,
    earned_loyalty_points: price.earnedLoyaltyPoints,
    created_at: iso(price.createdAt),
  };
}

/** The product of spec 000 §3 with its current price as `MainVariant.current_price`. */
export function mapProduct(product: Product, current: ProductPrice) {
  return {
    product_id: product.id,
    name: product.name,
    description: product.description,
    status: product.status,
    images: product.images.getItems().map((i) => i.media.url),
    MainVariant: { current_price: mapPrice(current) },
    download_url: product.downloadUrl,
    created_at: iso(product.createdAt),
    updated_at: iso(product.updatedAt),
  };
}

/** A row of the list query (products.service.ts). */
export interface ProductListRow {
  id: string;
  name: string;
  status: ProductStatus;
  created_at: Date | string;
  image: string | null;
  amount_cents: number;
  category: ProductPriceType;
  renewal_interval_unit: RenewalIntervalUnit | null;
  renewal_interval_quantity: number | null;
  earned_loyalty_points: number | null;
}

export function mapProductListRow(row: ProductListRow) {
  return {
    product_id: row.id,
    name: row.name,
    image: row.image,
    status: row.status,
    unit_price: Number(row.amount_cents),
    category: row.category,
    renewal_interval_unit: row.renewal_interval_unit,
    renewal_interval_quantity: row.renewal_interval_quantity === null ? null : Number(row.renewal_interval_quantity),
    earned_loyalty_points: row.earned_loyalty_points === null ? null : Number(row.earned_loyalty_points),
    created_at: new Date(row.created_at).toISOString(),
  };
}
