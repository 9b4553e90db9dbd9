import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../api/api-error';

/**
 * The form fields that may take a server message: a list of the form's field names (the API uses
 * the same names), or a map from the API's field name to the form's where they differ.
 */
export type ServerFieldNames<T extends FieldValues> = readonly string[] | Readonly<Record<string, Path<T>>>;

/**
 * Puts the API's field messages (`{statusCode, message, errors: {field: message}}`) on the form's
 * fields, so the admin sees the words the API said under the field it refused. A nested path
 * ("checkoutFormFields.0.label") lands on its top-level field; fields the form does not have are
 * skipped. Returns true when at least one field got a message.
 */
export function setServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: ServerFieldNames<T>,
): boolean {
  const errors = isApiError(error) ? error.body?.errors : undefined;
  if (!errors) return false;
  const formField = (apiName: string): Path<T> | undefined => {
    if (Array.isArray(fields)) return fields.includes(apiName) ? (apiName as Path<T>) : undefined;
    const map = fields as Readonly<Record<string, Path<T>>>;
    return Object.hasOwn(map, apiName) ? map[apiName] : undefined;
  };
  let shown = false;
  for (const [name, message] of Object.entries(errors)) {
    const field = formField(name.split('.')[0]);
    if (field) {
      setError(field, { type: 'server', message });
      shown = true;
    }
  }
  return shown;
}
