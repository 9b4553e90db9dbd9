import {
  CHECKOUT_MESSAGES,
  STORE_MESSAGES,
  STORE_SLUG_PATTERN,
  type PublicBooking,
  type PublicCheckoutSession,
  type PublicCourse,
  type PublicOrder,
  type PublicProduct,
  type PublicStore,
} from '@studio/contracts';
import type { NotFoundData } from '../pages/status';
import type { StoreApi } from '../types';

/** An answer of the Storefront API other than 2xx (status 0: it did not answer). */
export class StoreApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The API's Retry-After, on a 429. */
    readonly retryAfter: string | null = null,
  ) {
    super(message);
    this.name = 'StoreApiError';
  }
}

export interface HttpStoreApiOptions {
  /** The API's origin (STORE_API_URL). */
  apiUrl: string;
  /** Sent with every call: the client's X-Forwarded-For, so the API counts its rate limit per client. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** How long a call may take before the page is the 500 page. */
  timeoutMs?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An order's confirmation token (OrderTokenQueryDto in the API). */
const ORDER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A booking's manage token (BookingLinksService in the API): its kind, id and signature. */
const MANAGE_TOKEN = /^[ea]_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/;
const MANAGE_NOT_FOUND = 'Booking not found';

const missing = (message: string) => Promise.reject(new StoreApiError(404, message));

/**
 * The pages' reads over HTTP, from the public Storefront API at `apiUrl` (the standalone
 * storefront server; the API process reads in process instead). What the API process's reads
 * answer 404 before reading (a malformed id, a store address no studio can have, an order link
 * without its token) is answered 404 here with the same message, without a call.
 */
export function httpStoreApi(options: HttpStoreApiOptions): StoreApi {
  const base = options.apiUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10000;

  const get = async <T>(slug: string, path: string): Promise<T> => {
    if (!STORE_SLUG_PATTERN.test(slug.toLowerCase()))
      throw new StoreApiError(404, STORE_MESSAGES.storeNotFound);
    let response: Response;
    try {
      response = await fetchFn(`${base}/api/public/${encodeURIComponent(slug.toLowerCase())}${path}`, {
        headers: { accept: 'application/json', ...options.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new StoreApiError(0, `The Storefront API did not answer: ${(error as Error)?.message ?? error}`);
    }
    if (response.ok) return (await response.json()) as T;
    throw new StoreApiError(
      response.status,
      await errorMessage(response),
      response.headers.get('retry-after'),
    );
  };

  return {
    home: (slug) => get<PublicStore>(slug, ''),
    course: (slug, id) =>
      UUID.test(id)
        ? get<PublicCourse>(slug, `/activities/${id.toLowerCase()}`)
        : missing(STORE_MESSAGES.courseNotFound),
    checkoutSession: (slug, eventId) =>
      UUID.test(eventId)
        ? get<PublicCheckoutSession>(slug, `/sessions/${eventId.toLowerCase()}`)
        : missing(CHECKOUT_MESSAGES.sessionNotFound),
    checkoutProduct: async (slug, productId) => {
      if (!UUID.test(productId)) return missing(STORE_MESSAGES.productNotFound);
      // The product first: its 404 says what is missing (the store, or the product).
      const [product, store] = await Promise.allSettled([
        get<PublicProduct>(slug, `/products/${productId.toLowerCase()}`),
        get<PublicStore>(slug, ''),
      ]);
      if (product.status === 'rejected') throw product.reason;
      if (store.status === 'rejected') throw store.reason;
      return { store_name: store.value.name, product: product.value };
    },
    order: (slug, orderId, token) =>
      UUID.test(orderId) && ORDER_TOKEN.test(token)
        ? get<PublicOrder>(slug, `/orders/${orderId.toLowerCase()}?token=${encodeURIComponent(token)}`)
        : missing(CHECKOUT_MESSAGES.orderNotFound),
    booking: (slug, token) =>
      MANAGE_TOKEN.test(token) ? get<PublicBooking>(slug, `/bookings/${encodeURIComponent(token)}`) : missing(MANAGE_NOT_FOUND),
  };
}

/** The error body's `message` (the API's `{ statusCode, message }`), else the status text. */
async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body?.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON: a proxy's page.
  }
  return response.statusText || `HTTP ${response.status}`;
}

/** What a page shows when its read failed. */
export type FailedPage =
  | { status: 404; page: 'not-found'; data: NotFoundData }
  | { status: 429; message: string; retryAfter: string }
  | { status: 500; page: 'error'; data: null };

/**
 * A failed read as the API process answers it: the API's 404 is the 404 page with its message
 * (linking back to the store unless the store is what is missing), its 429 the same plain 429,
 * anything else (no answer, a 5xx, an answer we did not expect) the 500 page.
 */
export function failedPage(error: unknown): FailedPage {
  if (error instanceof StoreApiError && error.status === 404)
    return {
      status: 404,
      page: 'not-found',
      data: { message: error.message, storeFound: error.message !== STORE_MESSAGES.storeNotFound },
    };
  if (error instanceof StoreApiError && error.status === 429)
    return { status: 429, message: STORE_MESSAGES.tooManyRequests, retryAfter: error.retryAfter ?? '60' };
  return { status: 500, page: 'error', data: null };
}
