/** Spec 001 §8, student drawer toasts, word for word. */
export const STUDENT_MESSAGES = {
  loyaltyInactive: 'Loyalty program is not active',
  pointsFailed: 'Failed to refund order:',
  nameFailed: 'Failed to update name',
  nameUpdated: 'Name updated successfully',
  reminderSent: 'Reminder sent',
} as const;

/** Loyalty points input: empty, or digits with at most two decimals (spec 001 §5). */
export const POINTS_INPUT_PATTERN = /^(\d+(\.\d{0,2})?)?$/;

/** Numbers are rounded up and formatted in en-US (spec 001 §9). */
export function formatPoints(points: number): string {
  return new Intl.NumberFormat('en-US').format(Math.ceil(points));
}
