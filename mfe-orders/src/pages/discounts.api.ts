import type { components, paths } from '@studio/contracts';
import { $api } from '@studio/ui';

/*
 * The Discounts page's list: the shell alone reads it. The orders remote's discount save refreshes
 * it through the same openapi-react-query key, ['get', LIST].
 */
const LIST = '/api/admin/promo-code';

/** A discount code as the API answers it (spec 000 §3 fields, times used and status). */
export type PromoCode = components['schemas']['DiscountOutDto_Output'];
/** The Discounts page's query: search and page, applied by the server. */
export type PromoCodeListQuery = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;

export const discountKeys = { lists: () => ['get', LIST] as const };
export const discountListQuery = (query: PromoCodeListQuery) =>
  $api.queryOptions('get', LIST, { params: { query } });
