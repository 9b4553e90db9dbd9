import type { QueryClient } from '@tanstack/react-query';
import type { components, paths } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/* Products: query-key factory and invalidation (Medusa dashboard pattern). */
const LIST = '/api/admin/products';
const DETAIL = '/api/admin/products/{product_id}';

/** Spec 001 §9: the product picker reads up to 10000 products. */
export const PRODUCTS_PICKER_LIMIT = 10000;

/** The Products page's query: search and page, applied by the server. */
export type ProductListQuery = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;

export type ProductListResponse = components['schemas']['ProductListDto_Output'];
export type ProductSummary = ProductListResponse['products'][number];
export type ProductDetail = components['schemas']['ProductOutDto_Output'];
export type ProductPrice = ProductDetail['MainVariant']['current_price'];
export type ProductBody = components['schemas']['ProductPayloadDto'];

export const productQueries = {
  /** Without a query: the pickers' whole list (GET /api/admin/products?limit=10000, spec 001 §7). */
  list: (query: ProductListQuery = { limit: PRODUCTS_PICKER_LIMIT }) =>
    $api.queryOptions('get', LIST, { params: { query } }),
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { product_id: id } } }),
};

export const productKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { product_id: id } } }] as const,
};

/** After a product is created or saved: the lists (page and pickers) and its detail read again. */
export function invalidateProduct(client: QueryClient, id?: string): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: productKeys.lists() }),
    client.invalidateQueries({ queryKey: id ? productKeys.detail(id) : productKeys.details() }),
  ]).then(() => undefined);
}
