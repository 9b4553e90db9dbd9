import type { ProductPayload } from '@studio/contracts';
import { answer, api, type ProductBody, type ProductDetail } from '@studio/ui';

/** The form's payload as the API takes it (the schema's output is the body's type, optional fields left out). */
const body = (payload: ProductPayload): ProductBody => payload;

export function createProduct(payload: ProductPayload): Promise<ProductDetail> {
  return answer(api.POST('/api/admin/products', { body: body(payload) }));
}

export function updateProduct(id: string, payload: ProductPayload): Promise<ProductDetail> {
  return answer(api.PUT('/api/admin/products/{product_id}', { params: { path: { product_id: id } }, body: body(payload) }));
}
