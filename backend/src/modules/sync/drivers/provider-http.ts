import type { SyncProviderName } from '@studio/contracts';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ProviderRateLimitedError, ProviderRejectedError } from './sync-driver';

/** Retry-After in seconds (or an HTTP date) to milliseconds; a minute when the provider says nothing. */
export function retryAfterMs(header: string | null, fallbackMs = 60_000): number {
  if (!header) return fallbackMs;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : fallbackMs;
}

export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path under the API base (`/users/me/`), or an absolute URL on the provider's API host. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/**
 * The one HTTP call of a provider's client: Node's fetch, a bearer token, JSON in and out. No
 * retries here: a failed call fails its job, and the queue retries it with backoff. A 429 becomes
 * ProviderRateLimitedError (the queue waits the provider's Retry-After); another 4xx but 401/408
 * becomes ProviderRejectedError (retrying cannot help); anything else is a plain error, retried.
 */
export class ProviderHttp {
  constructor(
    readonly provider: SyncProviderName,
    private readonly apiBase: string,
    private readonly accessToken: string,
    private readonly timeoutMs = 15_000,
  ) {}

  /** An absolute URL must stay on the API's own origin: the token is never sent elsewhere. */
  url(path: string, query?: ProviderRequest['query']): URL {
    const base = new URL(this.apiBase);
    const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(`${this.apiBase}${path}`);
    if (url.origin !== base.origin) throw new ProviderRejectedError(this.provider, 400, `Refusing to call ${url.origin}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async call(request: ProviderRequest): Promise<unknown> {
    const response = await fetch(this.url(request.path, request.query), {
      method: request.method ?? 'GET',
      headers: {
        authorization: `Bearer ${this.accessToken}`,
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    if (response.status === 429) {
      throw new ProviderRateLimitedError(this.provider, retryAfterMs(response.headers.get('retry-after')));
    }
    if (!response.ok) {
      const detail = text.slice(0, 300);
      const message = `${this.provider} ${request.method ?? 'GET'} ${request.path} answered ${response.status}: ${detail}`;
      if (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 408) {
        throw new ProviderRejectedError(this.provider, response.status, message);
      }
      throw new Error(message);
    }
    return text ? (JSON.parse(text) as unknown) : null;
  }

  /** The call's JSON as an instance of the resource class (class-transformer). */
  async as<T>(cls: ClassConstructor<T>, request: ProviderRequest): Promise<T> {
    return plainToInstance(cls, await this.call(request));
  }
}
