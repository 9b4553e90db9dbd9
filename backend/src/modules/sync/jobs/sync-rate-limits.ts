import type { SyncProviderName } from '@studio/contracts';
import type { WorkerOptions } from '../../../queue/job-queue';

/**
 * The worker settings of each provider's queue, kept under the provider's documented limits. The
 * BullMQ limiter counts job starts across every worker of the queue (one job is about one call;
 * the batch handlers make one call per batch), and a 429 that still happens pauses the queue for
 * its Retry-After (SyncJobsService, ProviderRateLimitedError). Numbers as the providers document
 * them (re-check the pages when a plan changes):
 */
export const SYNC_WORKER_OPTIONS: Record<
  SyncProviderName,
  Pick<WorkerOptions, 'concurrency' | 'globalConcurrency' | 'limiter'>
> = {
  // Eventbrite: 2,000 calls per hour per OAuth token (and 48,000 per day).
  // https://www.eventbrite.com/platform/docs/rate-limits . 500 per 15 min spreads the hour evenly.
  eventbrite: { concurrency: 4, limiter: { max: 500, duration: 15 * 60_000 } },
  // Mailchimp Marketing API: at most 10 simultaneous connections per user; no per-second or
  // per-hour quota, so no limiter of its own: the adapter's default limiter (BullMQ's, set too high
  // to ever bind) is there only so a 429 can pause the queue (Mailchimp sends no Retry-After: the
  // pause is ProviderRateLimitedError's default minute). What fits a connection cap is a
  // concurrency cap: at most 8 Mailchimp jobs run at once across every worker of every process
  // (BullMQ's global concurrency), whatever the number of workers, leaving 2 of the account's 10 to
  // the panel's list reads and to the customer's other Mailchimp apps. The queue is shared by every
  // organization, so the 8 are shared too (per-account caps would need BullMQ Pro's groups); each
  // backfill job is one batch call of up to 500 members.
  // https://mailchimp.com/developer/marketing/docs/fundamentals/#api-limits
  mailchimp: { concurrency: 4, globalConcurrency: 8 },
  // Klaviyo: per-endpoint burst (per second) and steady (per minute) limits; the profile and
  // list-membership endpoints we call are tier M: 10/s burst, 150/min steady.
  // https://developers.klaviyo.com/en/docs/rate_limits_and_error_handling . 2 per 800 ms = 150/min.
  klaviyo: { concurrency: 2, limiter: { max: 2, duration: 800 } },
  // Zoom (Pro and above): Light 30/s, Medium 20/s, Heavy 10/s; meeting create/update is Medium
  // (and 100 meeting creates/updates per user per day). https://developers.zoom.us/docs/api/rest/rate-limits/
  zoom: { concurrency: 4, limiter: { max: 20, duration: 1000 } },
};
