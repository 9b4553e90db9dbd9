/**
 * The storefront's one client of the Storefront API: openapi-fetch typed by the generated OpenAPI
 * paths (the admin's types), so a path the API does not serve or a body it does not take is a
 * compile error; and one shape for a refusal (the API's message, and its per-field messages when it
 * has them), with the same words when the store cannot be reached or answers nothing useful.
 * The pages call it in the browser only (in effects and handlers: the server renders them from the
 * data it is given, without a call); the standalone server reads through its own instance
 * (standalone/http-store-api.ts).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '@studio/contracts/src/generated/api';

export type { paths };

export interface StoreRefusal {
  message: string;
  errors?: Record<string, string>;
}

export const UNREACHABLE = 'The store could not be reached. Check your connection and try again.';
export const SOMETHING_WRONG = 'Something went wrong. Please try again.';

export type StoreClient = Client<paths>;

/**
 * A client of the Storefront API at `baseUrl` (an origin). fetch is read at call time, not once at
 * load (tests replace it), unless one is given.
 */
export function createStoreClient(baseUrl: string, fetchFn?: typeof fetch): StoreClient {
  return createClient<paths>({
    baseUrl,
    fetch: (request) => (fetchFn ?? globalThis.fetch)(request),
  });
}

/**
 * The page's own origin: the pages' calls are to the API on the page's origin (a relative address,
 * made absolute because a Request needs one). Outside a browser (server rendering) no page calls.
 */
function pageOrigin(): string {
  return typeof window !== 'undefined' && window.location ? window.location.origin : 'http://localhost';
}

/** The pages' client (the browser's). */
export const store: StoreClient = createStoreClient(pageOrigin());

/** What a call of the client resolves to. */
export type StoreResult<T> = { data?: T; error?: unknown; response: Response };

/**
 * The answer of a call to the store: `await storeAnswer(store.POST(path, { params, body }))`. A
 * refusal or a failure rejects with a StoreRefusal.
 */
export async function storeAnswer<T>(pending: Promise<StoreResult<T>>): Promise<T> {
  let result: StoreResult<T>;
  try {
    result = await pending;
  } catch {
    throw { message: UNREACHABLE } satisfies StoreRefusal;
  }
  const { data, error, response } = result;
  if (!response.ok) {
    const body = (error && typeof error === 'object' ? error : {}) as Partial<StoreRefusal>;
    throw { message: body.message ?? SOMETHING_WRONG, errors: body.errors } satisfies StoreRefusal;
  }
  return data as T;
}
