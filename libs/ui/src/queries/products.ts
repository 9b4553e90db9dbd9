import type { components, paths } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/*
 * Shared: the products list, read by the shell's Products page and by the product pickers of the
 * courses remote (share links). The orders remote owns the product drawer's reads and saves
 * (mfe-orders/src/api/products.ts); its saves refresh this list through the same key, ['get', LIST].
 */
const LIST = '/api/admin/products';

/** Spec 001 §9: the product picker reads up to 10000 products. */
export const PRODUCTS_PICKER_LIMIT = 10000;

/** The Products page's query: search and page, applied by the server. */
export type ProductListQuery = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;

export type ProductListResponse = components['schemas']['ProductListDto_Output'];
export type ProductSummary = ProductListResponse['products'][number];

export const productQueries = {
  /** Without a query: the pickers' whole list (GET /api/admin/products?limit=10000, spec 001 §7). */
  list: (query: ProductListQuery = { limit: PRODUCTS_PICKER_LIMIT }) =>
    $api.queryOptions('get', LIST, { params: { query } }),
};
