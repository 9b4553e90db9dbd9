import type { components } from '@studio/contracts/src/generated/api';
import { $api, answer, api } from '@studio/ui';

/* The subscription drawer's calls (spec 001 §7 GET, DELETE /api/admin/subscription/{id}). */
const DETAIL = '/api/admin/subscription/{subscription_id}';

export type SubscriptionDetail = components['schemas']['SubscriptionOutDto_Output'];
export type SubscriptionInvoiceRow = SubscriptionDetail['subscription_invoices'][number];

export const subscriptionQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { subscription_id: id } } }),
};

/** Cancels now (not at period end); answers the cancelled subscription. */
export function cancelSubscription(id: string): Promise<SubscriptionDetail> {
  return answer(api.DELETE(DETAIL, { params: { path: { subscription_id: id } } }));
}
