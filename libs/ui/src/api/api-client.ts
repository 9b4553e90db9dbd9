import { MESSAGES } from '@studio/contracts/src/messages';
import { TOKEN_HEADER } from '@studio/contracts/src/ui-constants';
import { ApiError, type ApiErrorBody } from './api-error';
import { readSessionToken } from './session-token';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  method?: HttpMethod;
  body?: unknown;
  signal?: AbortSignal;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function asErrorBody(value: unknown, status: number): ApiErrorBody | null {
  if (value && typeof value === 'object' && 'message' in value) {
    const body = value as Partial<ApiErrorBody>;
    return { statusCode: body.statusCode ?? status, message: String(body.message), errors: body.errors };
  }
  return null;
}

/**
 * JSON call with the session token header (spec 001 §7): GET by default, body serialised when
 * given; a non-OK answer is logged and throws 'API call failed' with the server's body attached.
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readSessionToken();
  if (token) headers[TOKEN_HEADER] = token;
  const init: RequestInit = { method: request.method ?? 'GET', headers, signal: request.signal };
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(request.body);
  }
  const response = await fetch(path, init);
  const payload = await readJson(response);
  if (!response.ok) {
    console.error(`${init.method} ${path} answered ${response.status}`, payload);
    throw new ApiError(MESSAGES.api.callFailed, response.status, asErrorBody(payload, response.status));
  }
  return payload as T;
}
