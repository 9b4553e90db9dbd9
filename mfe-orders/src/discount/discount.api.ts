import type { DiscountPayload } from '@studio/contracts';
import { apiFetch, type PromoCode } from '@studio/ui';

export function fetchPromoCode(id: string): Promise<PromoCode> {
  return apiFetch<PromoCode>(`/api/admin/promo-code/${encodeURIComponent(id)}`);
}

export function savePromoCode(id: string | null, payload: DiscountPayload): Promise<unknown> {
  return id
    ? apiFetch(`/api/admin/promo-code/${encodeURIComponent(id)}`, { method: 'PUT', body: payload })
    : apiFetch('/api/admin/promo-code', { method: 'POST', body: payload });
}
