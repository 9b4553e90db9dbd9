/*
 * Subscriptions (issue 9, spec 001 §3 Subscription, §4, §8): the statuses, their labels, and the
 * messages of the subscription drawer and its API. Each lives here once, for the API and the drawer.
 */

/** Spec 001 §4. Cancelling is refused when already cancelled or expired; it ends benefits and payments now. */
export const SUBSCRIPTION_STATUSES = ['active', 'expired', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The label and Tag colour of each status in the order and subscription drawers. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'green' },
  expired: { label: 'Expired', color: 'default' },
  cancelled: { label: 'Cancelled', color: 'red' },
};

/** Whether an admin may cancel a subscription in this status (spec 001 §4). */
export const canCancelSubscription = (status: SubscriptionStatus): boolean => status === 'active';

export const SUBSCRIPTION_MESSAGES = {
  /** API: no such subscription in the caller's organization. */
  notFound: 'Subscription not found',
  /** API and toast: cancelling a cancelled or expired subscription. */
  alreadyCancelled: 'Subscription already cancelled',
  /** API: a cancel of the same subscription is waiting for the payment provider's answer. */
  cancelInProgress: 'Subscription is being cancelled',
  /** Toasts of spec 001 §8. */
  cancelled: 'Subscription cancelled',
  cancelFailed: 'Failed to cancel subscription',
  cancelNotFound: 'Failed to cancel subscription: subscription not found',
} as const;
