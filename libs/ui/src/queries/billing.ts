import type { components } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/* Shared: the studio's payment methods on file (spec 001 §6, §7), read by the shell's Billing page and the orders remote's order drawer (a refund needs one). */
const PAYMENT_METHODS = '/api/admin/payment-methods';

export type PaymentMethodsResponse = components['schemas']['PaymentMethodsDto_Output'];
export type PaymentMethod = PaymentMethodsResponse['payment_methods'][number];

export const billingQueries = { paymentMethods: () => $api.queryOptions('get', PAYMENT_METHODS) };
export const billingKeys = { paymentMethods: () => ['get', PAYMENT_METHODS] as const };
