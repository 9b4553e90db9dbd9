/*
 * The money audit (issue 9): every refund, cancellation and payment-link send is recorded with who
 * did it, and the order and subscription drawers show that history. One list of actions and their
 * labels, for the API (what it records) and the drawers (what they show).
 */

export const ORDER_ACTIVITY_ACTIONS = [
  'payment_link_sent',
  'payment_received',
  'payment_link_expired',
  'payment_link_cancelled',
  'refund',
  'refund_failed',
  'subscription_cancelled',
] as const;
export type OrderActivityAction = (typeof ORDER_ACTIVITY_ACTIONS)[number];

/** How a drawer names each action in its history. */
export const ORDER_ACTIVITY_LABELS: Record<OrderActivityAction, string> = {
  payment_link_sent: 'Payment link sent',
  payment_received: 'Payment received',
  payment_link_expired: 'Payment link expired',
  payment_link_cancelled: 'Payment cancelled by the student',
  refund: 'Refund',
  refund_failed: 'Refund failed',
  subscription_cancelled: 'Subscription cancelled',
};
