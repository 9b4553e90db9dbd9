import type { components, paths } from '@studio/contracts';
import { $api } from '@studio/ui';

/*
 * The Orders page's list (spec 001 §7): the shell alone reads it. The orders remote's refund hook
 * refreshes it through the same openapi-react-query key, ['get', LIST].
 */
const LIST = '/api/admin/orders';

/** The Orders page's query: search, filters, sort and page, applied by the server. */
export type OrderListQueryParams = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;
export type OrderSummary = components['schemas']['OrderListDto_Output']['orders'][number];

export const orderListQuery = (query: OrderListQueryParams) =>
  $api.queryOptions('get', LIST, { params: { query } });
