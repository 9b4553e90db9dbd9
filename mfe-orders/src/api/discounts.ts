import type { DiscountPayload, components } from '@studio/contracts';
import { $api, answer, api, useMutation, useQueryClient } from '@studio/ui';

/*
 * Discount (promo) codes as the discount drawer reads and saves them: query-key factory and the
 * save hook, which refreshes every list (the shell's Discounts page) and the code's detail.
 */
const LIST = '/api/admin/promo-code';

/** A discount code as the API answers it (spec 000 §3 fields, times used and status). */
export type PromoCode = components['schemas']['DiscountOutDto_Output'];
const DETAIL = '/api/admin/promo-code/{id}';

export const discountKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { id } } }] as const,
};

export const discountQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { id } } }),
};

/** POST /api/admin/promo-code, or PUT /api/admin/promo-code/{id} when editing (`id` set). */
export function useSaveDiscount(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DiscountPayload): Promise<PromoCode> =>
      id ? answer(api.PUT(DETAIL, { params: { path: { id } }, body })) : answer(api.POST(LIST, { body })),
    onSuccess: (saved) =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: discountKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: discountKeys.detail(saved.id) }),
      ]),
  });
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
