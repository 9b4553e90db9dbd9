import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '@studio/contracts/src/generated/api';
import { MESSAGES } from '@studio/contracts/src/messages';
import { TOKEN_HEADER } from '@studio/contracts/src/ui-constants';
import { ApiError, type ApiErrorBody } from './api-error';
import { readSessionToken } from './session-token';

export type { paths };

/** Called once per 401 answer (outside sign-in): the shell signs the user out. */
type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The shell's session provider registers what a 401 does; returns the unregister function. */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

/** A wrong password answers 401 too: that is the sign-in form's business, not a lost session. */
const NOT_A_LOST_SESSION = new Set<string>(['/api/auth/login']);

function asErrorBody(value: unknown, status: number): ApiErrorBody | null {
  if (value && typeof value === 'object' && 'message' in value) {
    const body = value as Partial<ApiErrorBody>;
    return { statusCode: body.statusCode ?? status, message: String(body.message), errors: body.errors };
  }
  return null;
}

async function readErrorBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Spec 001 §7 shared call behaviour: the session token header on every call; a non-OK answer is
 * logged and throws the generic 'API call failed' with the server's body attached (a form still
 * shows the field messages). A 401 outside sign-in also tells the session to end.
 */
export const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    const token = readSessionToken();
    if (token) request.headers.set(TOKEN_HEADER, token);
    return request;
  },
  async onResponse({ request, response, schemaPath }) {
    if (response.ok) return response;
    const payload = await readErrorBody(response);
    console.error(`${request.method} ${new URL(request.url).pathname} answered ${response.status}`, payload);
    const error = new ApiError(
      MESSAGES.api.callFailed,
      response.status,
      asErrorBody(payload, response.status),
    );
    if (response.status === 401 && !NOT_A_LOST_SESSION.has(schemaPath)) unauthorizedHandler?.(error);
    throw error;
  },
};

/** Relative paths resolve against the page (jsdom and browsers alike); Request needs an absolute URL. */
function origin(): string {
  return typeof window !== 'undefined' && window.location ? window.location.origin : 'http://localhost';
}

/**
 * The one API client of the browser, typed by the generated OpenAPI paths: a path the API does not
 * serve, a body it does not take or a field it does not answer is a compile error.
 */
export const api = createClient<paths>({
  baseUrl: origin(),
  // Read fetch at call time, not once at load (tests replace it; so may a service worker shim).
  fetch: (request) => globalThis.fetch(request),
});
api.use(sessionMiddleware);

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * The answer's body. The middleware already threw for a non-OK answer; this turns openapi-fetch's
 * `{ data, error }` pair into a plain value for `await`.
 */
export async function answer<T>(pending: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) {
    throw new ApiError(MESSAGES.api.callFailed, response.status, asErrorBody(error, response.status));
  }
  return data as T;
}
