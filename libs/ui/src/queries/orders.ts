import type { components, paths } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/* Orders: query-key factory (Medusa dashboard pattern). */
const LIST = '/api/admin/orders';
const DETAIL = '/api/admin/order/{order_id}';

/** The Orders page's query: search, filters, sort and page, applied by the server. */
export type OrderListQueryParams = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;

export type OrderListResponse = components['schemas']['OrderListDto_Output'];
export type OrderSummary = OrderListResponse['orders'][number];
export type OrderDetail = components['schemas']['OrderOutDto_Output'];
export type OrderLineDetail = OrderDetail['lines'][number];

export const orderQueries = {
  list: (query: OrderListQueryParams) => $api.queryOptions('get', LIST, { params: { query } }),
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { order_id: id } } }),
};

export const orderKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { order_id: id } } }] as const,
};
