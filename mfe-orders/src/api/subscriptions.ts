import type { components } from '@studio/contracts/src/generated/api';
import { $api, answer, api, useMutation, useQueryClient } from '@studio/ui';
import { orderKeys } from './orders';

/* The subscription drawer's calls (spec 001 §7 GET, DELETE /api/admin/subscription/{id}). */
const DETAIL = '/api/admin/subscription/{subscription_id}';

export type SubscriptionDetail = components['schemas']['SubscriptionOutDto_Output'];
export type SubscriptionInvoiceRow = SubscriptionDetail['subscription_invoices'][number];

export const subscriptionKeys = {
  detail: (id: string) => ['get', DETAIL, { params: { path: { subscription_id: id } } }] as const,
};

export const subscriptionQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { subscription_id: id } } }),
};

/**
 * Cancels now (not at period end). A success shows the cancelled subscription at once; a failure
 * reads it again (it may have been cancelled elsewhere). Either way the order drawers, which list
 * their subscriptions with their status, read again.
 */
export function useCancelSubscription(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<SubscriptionDetail> =>
      answer(api.DELETE(DETAIL, { params: { path: { subscription_id: id } } })),
    onSuccess: (cancelled) => queryClient.setQueryData(subscriptionKeys.detail(id), cancelled),
    onError: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.detail(id) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: orderKeys.details() }),
  });
}
