import type { QueryClient } from '@tanstack/react-query';
import type { components, paths } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/* Discount (promo) codes: query-key factory and invalidation. */
const LIST = '/api/admin/promo-code';
const DETAIL = '/api/admin/promo-code/{id}';

/** A discount code as the API answers it (spec 000 §3 fields, times used and status). */
export type PromoCode = components['schemas']['DiscountOutDto_Output'];
export type PromoCodeListResponse = components['schemas']['DiscountListDto_Output'];
/** The Discounts page's query: search and page, applied by the server. */
export type PromoCodeListQuery = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;

export const promoCodeQueries = {
  list: (query: PromoCodeListQuery) => $api.queryOptions('get', LIST, { params: { query } }),
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { id } } }),
};

export const promoCodeKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { id } } }] as const,
};

/** After a code is created or saved: every list page and its detail read again. */
export function invalidatePromoCode(client: QueryClient, id?: string): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: promoCodeKeys.lists() }),
    client.invalidateQueries({ queryKey: id ? promoCodeKeys.detail(id) : promoCodeKeys.details() }),
  ]).then(() => undefined);
}
