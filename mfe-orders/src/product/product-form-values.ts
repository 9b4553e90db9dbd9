import { centsToAmountText, PRODUCT_FORM_DEFAULTS, type ProductFormValues } from '@studio/contracts';
import type { ProductDetail } from '../api/products';

/** Field names of the form, for the server's field messages. */
export const PRODUCT_FIELDS = Object.keys(PRODUCT_FORM_DEFAULTS);

/** An existing product as the form holds it: the amount back in dollars, points on when it earns some. */
export function productToFormValues(product: ProductDetail): ProductFormValues {
  const price = product.MainVariant.current_price;
  return {
    productName: product.name,
    productDescription: product.description,
    priceType: price.category,
    renewalIntervalUnits: price.renewal_interval_unit ?? PRODUCT_FORM_DEFAULTS.renewalIntervalUnits,
    renewalIntervalQuantity: price.renewal_interval_quantity ?? PRODUCT_FORM_DEFAULTS.renewalIntervalQuantity,
    amount: centsToAmountText(price.unit_price),
    images: product.images,
    earnPoints: price.earned_loyalty_points !== null,
    rewardAmount: price.earned_loyalty_points ?? '',
    // Spec 000 §4: status is sent as published on save.
    status: 'published',
    downloadUrl: product.download_url ?? '',
    grant: price.grant,
    membershipBookings: price.membership_bookings ?? '',
    membershipUnlimited: price.membership_unlimited,
    packCredits: price.pack_credits ?? '',
    packExpiresAfterQuantity: price.pack_expires_after_quantity ?? '',
    packExpiresAfterUnit: price.pack_expires_after_unit ?? '',
    coversActivityIds: price.covers_activity_ids ?? [],
    coversCategoryIds: price.covers_category_ids ?? [],
  };
}
