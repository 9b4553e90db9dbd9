/** Spec 001 §8, student drawer toasts, word for word. */
export const STUDENT_MESSAGES = {
  nameFailed: 'Failed to update name',
  nameUpdated: 'Name updated successfully',
} as const;
