import type { RefundBody } from '@studio/contracts';
import { answer, api, type OrderDetail } from '@studio/ui';

/**
 * POST /api/admin/order/{order_id}/refund: `amount` in cents for a partial refund, none for all that
 * is left. One Idempotency-Key per refund action, so a retried click refunds once.
 */
export function refundOrder(orderId: string, body: RefundBody, idempotencyKey: string): Promise<OrderDetail> {
  return answer(
    api.POST('/api/admin/order/{order_id}/refund', {
      params: { path: { order_id: orderId }, header: { 'Idempotency-Key': idempotencyKey } },
      body,
    }),
  );
}

/** A fresh key per refund action. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `refund-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
