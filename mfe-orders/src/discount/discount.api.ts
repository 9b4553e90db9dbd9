import type { DiscountPayload } from '@studio/contracts';
import { answer, api, type PromoCode } from '@studio/ui';

/** POST /api/admin/promo-code, or PUT /api/admin/promo-code/{id} when editing. */
export function saveDiscount(id: string | null, body: DiscountPayload): Promise<PromoCode> {
  return id
    ? answer(api.PUT('/api/admin/promo-code/{id}', { params: { path: { id } }, body }))
    : answer(api.POST('/api/admin/promo-code', { body }));
}

/** The API's field names to the form's (the API says expiration_date, the form end_date). */
export const DISCOUNT_API_FIELDS = {
  label: 'label',
  code: 'code',
  type: 'type',
  value: 'value',
  activity_id: 'activity_id',
  apply_logic: 'apply_logic',
  start_date: 'start_date',
  expiration_date: 'end_date',
} as const;
