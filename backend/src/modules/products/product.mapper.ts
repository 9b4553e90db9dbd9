import type { ProductGrant, ProductPriceType, ProductStatus, RenewalIntervalUnit } from '@studio/contracts';
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
    ...grantOut({
      grant_kind: price.grant,
      membership_bookings: price.membershipBookings,
      membership_unlimited: price.membershipUnlimited,
      pack_credits: price.packCredits,
      pack_expires_after_quantity: price.packExpiresAfterQuantity,
      pack_expires_after_unit: price.packExpiresAfterUnit,
      covers_activity_ids: price.coversActivityIds,
      covers_category_ids: price.coversCategoryIds,
    }),
    created_at: iso(price.createdAt),
  };
}

/** A price row's grant columns (issue 24), as the list query reads them. */
export interface GrantColumns {
  grant_kind: ProductGrant;
  membership_bookings: number | null;
  membership_unlimited: boolean;
  pack_credits: number | null;
  pack_expires_after_quantity: number | null;
  pack_expires_after_unit: RenewalIntervalUnit | null;
  covers_activity_ids: string[] | null;
  covers_category_ids: number[] | null;
}

const intOrNull = (v: number | string | null) => (v === null ? null : Number(v));

/** What a product grants, as every product answer carries it. */
export function grantOut(row: GrantColumns) {
  return {
    grant: row.grant_kind,
    membership_bookings: intOrNull(row.membership_bookings),
    membership_unlimited: Boolean(row.membership_unlimited),
    pack_credits: intOrNull(row.pack_credits),
    pack_expires_after_quantity: intOrNull(row.pack_expires_after_quantity),
    pack_expires_after_unit: row.pack_expires_after_unit,
    covers_activity_ids: row.covers_activity_ids?.length ? row.covers_activity_ids : null,
    covers_category_ids: row.covers_category_ids?.length ? row.covers_category_ids.map(Number) : null,
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
export interface ProductListRow extends GrantColumns {
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
    ...grantOut(row),
    created_at: new Date(row.created_at).toISOString(),
  };
}
