import type { RefundBody } from '@studio/contracts';
import type { components } from '@studio/contracts/src/generated/api';
import { $api, answer, api, useMutation, useQueryClient } from '@studio/ui';

/* Orders as the order drawer reads and refunds them: query-key factory and the refund hook. */
const LIST = '/api/admin/orders';
const DETAIL = '/api/admin/order/{order_id}';

export type OrderDetail = components['schemas']['OrderOutDto_Output'];
export type OrderLineDetail = OrderDetail['lines'][number];

export const orderKeys = {
  /** Every orders list (the shell's Orders page). */
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { order_id: id } } }] as const,
};

export const orderQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { order_id: id } } }),
};

/**
 * POST /api/admin/order/{order_id}/refund: `amount` in cents for a partial refund, none for all that
 * is left. One Idempotency-Key per refund action (the caller's), so a retried click refunds once.
 * The drawer shows the refunded order at once; the lists read again.
 */
export function useRefundOrder(orderId: string, idempotencyKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundBody): Promise<OrderDetail> =>
      answer(
        api.POST('/api/admin/order/{order_id}/refund', {
          params: { path: { order_id: orderId }, header: { 'Idempotency-Key': idempotencyKey } },
          body,
        }),
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData(orderKeys.detail(orderId), updated);
      void queryClient.invalidateQueries({ queryKey: orderKeys.lists() });
    },
  });
}

/** A fresh key per refund action. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `refund-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
