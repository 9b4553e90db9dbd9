/**
 * The pages' calls to the Storefront API: JSON in and out, and one shape for a refusal (the API's
 * message, and its per-field messages when it has them), with the same words when the store cannot
 * be reached or answers nothing useful.
 */
export interface StoreRefusal {
  message: string;
  errors?: Record<string, string>;
}

export const UNREACHABLE = 'The store could not be reached. Check your connection and try again.';
export const SOMETHING_WRONG = 'Something went wrong. Please try again.';

/** A call to the store; a refusal or a failure rejects with a StoreRefusal. */
export async function storeCall<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw { message: UNREACHABLE } satisfies StoreRefusal;
  }
  const answer = (await response.json().catch(() => ({}))) as T & Partial<StoreRefusal>;
  if (!response.ok)
    throw { message: answer.message ?? SOMETHING_WRONG, errors: answer.errors } satisfies StoreRefusal;
  return answer;
}

/** POST a JSON body to the store. */
export function storePost<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  return storeCall<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
