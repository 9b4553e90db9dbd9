import type { SyncProviderName } from '@studio/contracts';

/** What a driver needs to call its provider for one organization. */
export interface DriverAuth {
  accessToken: string;
  /** The connection's metadata (Mailchimp's `api_endpoint`, for example). */
  metadata: Record<string, string>;
}

/** Who connected, as the provider tells it right after the OAuth exchange. */
export interface ProviderAccount {
  accountName: string | null;
  /** Non-secret details later calls need; stored on the connection. */
  metadata: Record<string, string>;
}

export interface PickerOption {
  id: string;
  name: string;
}

/** What a provider's panel picks from: Eventbrite's organizations, or a mailing list's lists. */
export interface ProviderPickers {
  organizations?: PickerOption[];
  lists?: PickerOption[];
}

/**
 * One provider's client, in `drivers/<provider>/`. It turns the provider's JSON into typed
 * classes with class-transformer (one decorated class per provider resource) so field names and
 * date strings are mapped in one place. Calls that hit a 429 throw ProviderRateLimitedError.
 */
export interface SyncDriver {
  readonly provider: SyncProviderName;
  /** Called once after the OAuth code exchange. */
  identify(accessToken: string): Promise<ProviderAccount>;
  pickers(auth: DriverAuth): Promise<ProviderPickers>;
}

/** Nest token of the list of drivers (SyncDriver[]), one per provider. */
export const SYNC_DRIVERS = Symbol('SYNC_DRIVERS');

/** A provider answered 429: the worker pauses the provider's queue for `retryAfterMs`. */
export class ProviderRateLimitedError extends Error {
  constructor(
    readonly provider: SyncProviderName,
    readonly retryAfterMs: number,
  ) {
    super(`${provider} rate limit: retry after ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

/** A provider refused a call for good (4xx other than 401/429): retrying cannot help. */
export class ProviderRejectedError extends Error {
  constructor(
    readonly provider: SyncProviderName,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
