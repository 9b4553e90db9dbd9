import type { SyncProviderName } from '@studio/contracts';
import { ProviderRateLimitedError, ProviderRejectedError } from './sync-driver';

/** The provider refused the stored token (401): the organization must connect again. */
export class ProviderReconnectError extends Error {
  constructor(readonly provider: SyncProviderName) {
    super(`${provider} refused the stored token: disconnect and connect ${provider} again`);
  }
}

/** Retry-After is seconds (or an HTTP date); without one, a minute. */
export function retryAfterMs(value: unknown): number {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === null || raw === '') return 60_000;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(String(raw));
  return Number.isNaN(date) ? 60_000 : Math.max(0, date - Date.now());
}

/**
 * Turns a failed HTTP call (status and headers however the SDK exposes them) into the errors the
 * workers understand: 429 → ProviderRateLimitedError (Retry-After honoured), 401 → reconnect,
 * another 4xx → ProviderRejectedError (retrying cannot help); anything else is rethrown as is.
 */
export function providerError(
  provider: SyncProviderName,
  status: number | undefined,
  headers: Record<string, unknown> | undefined,
  detail: string,
  original: unknown,
): Error {
  if (status === 429) return new ProviderRateLimitedError(provider, retryAfterMs(headers?.['retry-after']));
  if (status === 401) return new ProviderReconnectError(provider);
  if (status !== undefined && status >= 400 && status < 500) {
    return new ProviderRejectedError(provider, status, `${provider} refused the call (${status}): ${detail}`);
  }
  return original instanceof Error ? original : new Error(String(original));
}
