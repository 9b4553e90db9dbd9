/**
 * Reading Stripe's objects in the webhook handler's terms (stripe-webhooks.service.ts): renewal
 * intervals and subscription statuses in ours, ids of expanded or bare references, optional text and
 * Unix seconds, and a read that answers null for an object this account does not know.
 */
import type { RenewalIntervalUnit, SubscriptionStatus } from '@studio/contracts';
import type Stripe from 'stripe';

export const INTERVALS: Record<string, RenewalIntervalUnit> = {
  day: 'days',
  week: 'weeks',
  month: 'months',
  year: 'years',
};

/** Stripe's subscription statuses in ours (spec 001 §4): only active, expired or cancelled. */
export function subscriptionStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  if (status === 'canceled') return 'cancelled';
  if (status === 'incomplete_expired' || status === 'unpaid' || status === 'paused') return 'expired';
  return 'active';
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
export const textOr = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;
export const seconds = (value: number | null | undefined): Date | null =>
  typeof value === 'number' && value > 0 ? new Date(value * 1000) : null;

/**
 * What a Stripe read answers, or null when Stripe does not know the object (resource_missing: not
 * this account's). Anything else (network, rate limit) is thrown: the webhook job fails and is retried.
 */
export async function unlessMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: string }).code === 'resource_missing') return null;
    throw error;
  }
}
