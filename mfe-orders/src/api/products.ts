import type { ProductPayload } from '@studio/contracts';
import type { components } from '@studio/contracts/src/generated/api';
import { $api, useQueryClient, type QueryClient } from '@studio/ui';

/*
 * Products, as the product drawer reads and saves them (Medusa dashboard `hooks/api/*.tsx`): a
 * query-key factory and mutation hooks that refresh their own list and detail. The keys are
 * openapi-react-query's `[method, path, init]`, so `lists()` also covers the shell's Products page
 * and every product picker, whichever package built their query.
 */
const LIST = '/api/admin/products';
const DETAIL = '/api/admin/products/{product_id}';

export type ProductDetail = components['schemas']['ProductOutDto_Output'];
type ProductBody = components['schemas']['ProductPayloadDto'];

export const productKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { product_id: id } } }] as const,
};

export const productQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { product_id: id } } }),
};

/** After a product is created or saved: the lists (page and pickers) and its detail read again. */
function refreshProduct(queryClient: QueryClient, saved: ProductDetail) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: productKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: productKeys.detail(saved.product_id) }),
  ]);
}

/** The form's payload as the API takes it (the schema's output is the body's type, optional fields left out). */
export const productBody = (payload: ProductPayload): ProductBody => payload;

/** POST /api/admin/products. */
export function useCreateProduct() {
  const queryClient = useQueryClient();
  return $api.useMutation('post', LIST, { onSuccess: (saved) => void refreshProduct(queryClient, saved) });
}

/** PUT /api/admin/products/{product_id}. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return $api.useMutation('put', DETAIL, { onSuccess: (saved) => void refreshProduct(queryClient, saved) });
}
