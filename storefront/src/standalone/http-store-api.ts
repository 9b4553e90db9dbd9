/* The standalone server's reads of the Storefront API over HTTP, and a failed read as the page it shows. */
import {
  CHECKOUT_MESSAGES,
  STORE_MESSAGES,
  STORE_SLUG_PATTERN,
} from '@studio/contracts';
import type { NotFoundData } from '../pages/status';
import { createStoreClient, type StoreResult } from '../store-call';
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
 * storefront server; the API process reads in process instead), through the storefront's typed
 * client (store-call.ts). What the API process's reads
 * answer 404 before reading (a malformed id, a store address no studio can have, an order link
 * without its token) is answered 404 here with the same message, without a call.
 */
export function httpStoreApi(options: HttpStoreApiOptions): StoreApi {
  const base = options.apiUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10000;

  const client = createStoreClient(base, options.fetch ?? fetch);
  const init = () => ({
    headers: { accept: 'application/json', ...options.headers },
    signal: AbortSignal.timeout(timeoutMs),
  });

  /** One read: its answer, or a StoreApiError with the API's status and message. */
  const read = async <T>(slug: string, call: (slug: string) => Promise<StoreResult<T>>): Promise<T> => {
    if (!STORE_SLUG_PATTERN.test(slug.toLowerCase()))
      throw new StoreApiError(404, STORE_MESSAGES.storeNotFound);
    let result: StoreResult<T>;
    try {
      result = await call(slug.toLowerCase());
    } catch (error) {
      throw new StoreApiError(0, `The Storefront API did not answer: ${(error as Error)?.message ?? error}`);
    }
    const { data, error, response } = result;
    if (response.ok) return data as T;
    throw new StoreApiError(response.status, errorMessage(error, response), response.headers.get('retry-after'));
  };

  return {
    home: (slug) => read(slug, (s) => client.GET('/api/public/{slug}', { params: { path: { slug: s } }, ...init() })),
    course: (slug, id) =>
      UUID.test(id)
        ? read(slug, (s) =>
            client.GET('/api/public/{slug}/activities/{activity_id}', {
              params: { path: { slug: s, activity_id: id.toLowerCase() } },
              ...init(),
            }),
          )
        : missing(STORE_MESSAGES.courseNotFound),
    checkoutSession: (slug, eventId) =>
      UUID.test(eventId)
        ? read(slug, (s) =>
            client.GET('/api/public/{slug}/sessions/{event_id}', {
              params: { path: { slug: s, event_id: eventId.toLowerCase() } },
              ...init(),
            }),
          )
        : missing(CHECKOUT_MESSAGES.sessionNotFound),
    checkoutProduct: async (slug, productId) => {
      if (!UUID.test(productId)) return missing(STORE_MESSAGES.productNotFound);
      // The product first: its 404 says what is missing (the store, or the product).
      const [product, store] = await Promise.allSettled([
        read(slug, (s) =>
          client.GET('/api/public/{slug}/products/{product_id}', {
            params: { path: { slug: s, product_id: productId.toLowerCase() } },
            ...init(),
          }),
        ),
        read(slug, (s) => client.GET('/api/public/{slug}', { params: { path: { slug: s } }, ...init() })),
      ]);
      if (product.status === 'rejected') throw product.reason;
      if (store.status === 'rejected') throw store.reason;
      return { store_name: store.value.name, product: product.value };
    },
    order: (slug, orderId, token) =>
      UUID.test(orderId) && ORDER_TOKEN.test(token)
        ? read(slug, (s) =>
            client.GET('/api/public/{slug}/orders/{order_id}', {
              params: { path: { slug: s, order_id: orderId.toLowerCase() }, query: { token } },
              ...init(),
            }),
          )
        : missing(CHECKOUT_MESSAGES.orderNotFound),
    booking: (slug, token) =>
      MANAGE_TOKEN.test(token)
        ? read(slug, (s) =>
            client.GET('/api/public/{slug}/bookings/{token}', { params: { path: { slug: s, token } }, ...init() }),
          )
        : missing(MANAGE_NOT_FOUND),
  };
}

/** The error body's `message` (the API's `{ statusCode, message }`), else the status text. */
function errorMessage(body: unknown, response: Response): string {
  // Not JSON (a proxy's page) reads as text: no message.
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message) return message;
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
