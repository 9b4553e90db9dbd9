import type { DiscountPayload } from '@studio/contracts';
import { answer, api, isApiError, type PromoCode } from '@studio/ui';

/** POST /api/admin/promo-code, or PUT /api/admin/promo-code/{id} when editing. */
export function saveDiscount(id: string | null, body: DiscountPayload): Promise<PromoCode> {
  return id
    ? answer(api.PUT('/api/admin/promo-code/{id}', { params: { path: { id } }, body }))
    : answer(api.POST('/api/admin/promo-code', { body }));
}

/** The API's field names to the form's (the API says expiration_date, the form end_date). */
const FORM_FIELD: Record<
  string,
  'label' | 'code' | 'type' | 'value' | 'activity_id' | 'apply_logic' | 'start_date' | 'end_date'
> = {
  label: 'label',
  code: 'code',
  type: 'type',
  value: 'value',
  activity_id: 'activity_id',
  apply_logic: 'apply_logic',
  start_date: 'start_date',
  expiration_date: 'end_date',
};

/** The server's field messages ({errors: {field: message}}) as form field errors. */
export function serverFieldErrors(error: unknown): [field: (typeof FORM_FIELD)[string], message: string][] {
  const errors = isApiError(error) ? error.body?.errors : undefined;
  if (!errors) return [];
  return Object.entries(errors).flatMap(([name, message]) => {
    const field = FORM_FIELD[name.split('.')[0]];
    return field ? [[field, message] as [(typeof FORM_FIELD)[string], string]] : [];
  });
}
