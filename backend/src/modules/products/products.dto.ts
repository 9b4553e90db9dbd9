import {
  MATERIALS,
  PRODUCT_GRANTS,
  PRODUCT_PRICE_TYPES,
  PRODUCT_STATUSES,
  productListQuerySchema,
  productPayloadSchema,
  RENEWAL_INTERVAL_UNITS,
} from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';

/** POST /api/admin/products and PUT /api/admin/products/{id}: the written fields of spec 000 §3. */
export class ProductPayloadDto extends createZodDto(productPayloadSchema) {}
export class ProductListQueryDto extends createZodDto(productListQuerySchema) {}

/** What a product grants (issue 24), on its price and its list row. */
export const grantOutFields = {
  grant: z.enum(PRODUCT_GRANTS).describe('what buying it grants: nothing, a membership, a class pack or a gift card (worth the price)'),
  membership_bookings: z.number().int().nullable().describe("a membership's bookings each billing period; null when unlimited or not a membership"),
  membership_unlimited: z.boolean().describe('an unlimited membership'),
  pack_credits: z.number().int().nullable().describe("a class pack's credits"),
  pack_expires_after_quantity: z.number().int().nullable().describe("a pack's validity after purchase; null: it never expires"),
  pack_expires_after_unit: z.enum(RENEWAL_INTERVAL_UNITS).nullable(),
  covers_activity_ids: z.array(z.uuid()).nullable().describe('the courses a membership or pack covers; null: all (or by category)'),
  covers_category_ids: z
    .array(z.number().int().min(1).max(MATERIALS.length))
    .nullable()
    .describe('the material categories it covers; null: all (or by course)'),
};

const priceOut = z.object({
  price_id: z.uuid().describe('The price row: orders keep the id of the price they were sold at'),
  unit_price: z.number().int().describe('cents'),
  category: z.enum(PRODUCT_PRICE_TYPES),
  renewal_interval_unit: z.enum(RENEWAL_INTERVAL_UNITS).nullable().describe('a subscription only'),
  renewal_interval_quantity: z.number().int().nullable().describe('a subscription only'),
  earned_loyalty_points: z.number().int().nullable().describe('points a buyer earns; null when the product earns none'),
  ...grantOutFields,
  created_at: z.string().describe('when this price became current'),
});

/** GET /api/admin/products/{id} (spec 000 §3): the product and its current price. */
export const productOut = z.object({
  product_id: z.uuid(),
  name: z.string(),
  description: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  images: z.array(z.string()),
  MainVariant: z.object({ current_price: priceOut }),
  download_url: z.string().nullable().describe("a lead magnet's download, mailed from the store"),
  created_at: z.string(),
  updated_at: z.string(),
});
export class ProductOutDto extends createZodDto(productOut) {}

/** A row of the Products page and of the pickers (spec 001 §7 reads name and product_id). */
export const productListItem = z.object({
  product_id: z.uuid(),
  name: z.string(),
  image: z.string().nullable().describe('the first image'),
  status: z.enum(PRODUCT_STATUSES),
  unit_price: z.number().int().describe('cents'),
  category: z.enum(PRODUCT_PRICE_TYPES),
  renewal_interval_unit: z.enum(RENEWAL_INTERVAL_UNITS).nullable(),
  renewal_interval_quantity: z.number().int().nullable(),
  earned_loyalty_points: z.number().int().nullable(),
  ...grantOutFields,
  created_at: z.string(),
});
export class ProductListDto extends createZodDto(
  z.object({
    products: z.array(productListItem),
    totalCount: z.number().int(),
    currentPage: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
) {}
