import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '@studio/ui';

/**
 * Puts the server's field messages ({errors: {field: message}}) on the form's fields, so the
 * admin sees the same words the API said. Returns true when at least one field got a message.
 */
export function showServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): boolean {
  const errors = isApiError(error) ? error.body?.errors : undefined;
  if (!errors) return false;
  let shown = false;
  for (const [name, message] of Object.entries(errors)) {
    // Nested paths ("checkoutFormFields.0.label") land on their top-level field.
    const top = name.split('.')[0];
    if (fields.includes(top)) {
      setError(top as Path<T>, { type: 'server', message });
      shown = true;
    }
  }
  return shown;
}
