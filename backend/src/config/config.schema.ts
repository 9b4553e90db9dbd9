import { isIP } from 'node:net';
import { z } from 'zod';
import { isValidTimeZone, parseMfeManifest } from '@studio/contracts';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `expected a ${protocols.join(' or ')} URL`,
  );

/** Names Fastify's `trustProxy` (proxy-addr) understands for whole address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUSTED_PROXIES entry: a range name, an IP address, or an address with a /prefix. */
export function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits >= 0 && bits <= (version === 4 ? 32 : 128);
}

/** An SMTP server address nodemailer can use: smtp:// or smtps:// with a host (a port, if any, in range). */
export function isSmtpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return ['smtp:', 'smtps:'].includes(parsed.protocol) && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/** A sender: `someone@example.com` or `Some Name <someone@example.com>`. */
export function isMailbox(value: string): boolean {
  const named = /^[^<>\r\n]*<([^<>\s]+)>$/.exec(value.trim());
  return z.email().safeParse(named ? named[1] : value.trim()).success;
}

/** Every setting the processes read, validated once at start. Names are the environment variables. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65535).default(3000),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  /** Connections each process keeps to PostgreSQL at most (a transaction waiting on a row lock holds one). */
  DATABASE_POOL_MAX: z.coerce.number({ error: 'expected a number' }).int().min(1).max(200).default(20),
  PGLITE_DATA_DIR: z.string().min(1).default('data/pglite'),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  /** Namespace of this deployment's keys in Redis (queues, rate-limit counters). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/i, 'expected letters, digits, - or _')
    .default('studio'),
  /** auto: BullMQ when Redis answers, otherwise in-process; redis: Redis is required. */
  QUEUE_MODE: z.enum(['auto', 'redis', 'in-process']).default('auto'),
  /**
   * How long a worker's lock on its active job lasts, and how often stalled jobs are looked for
   * (BullMQ lockDuration and stalledInterval): a job of a killed worker runs again within about twice this.
   */
  QUEUE_LOCK_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(1000).max(600000).default(30000),
  SESSION_TTL_DAYS: z.coerce.number({ error: 'expected a number of days' }).positive().default(30),
  /**
   * argon2id's cost for new password hashes: `standard` (the library's recommended 64 MiB, 3 passes:
   * about half a CPU-second a hash) or `low` (1 MiB, 1 pass), which only a test app (NODE_ENV=test)
   * may use: the test suites sign in hundreds of users. A hash carries its own cost, so verifying is
   * as cheap or as costly as the hash was made.
   */
  PASSWORD_HASH_COST: z.enum(['standard', 'low']).default('standard'),
  LOGIN_MAX_ATTEMPTS_PER_EMAIL: z.coerce.number().int().positive().default(10),
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().positive().default(50),
  /** Failed sign-ins one account may have from one of its known devices (device cookie) per window. */
  LOGIN_MAX_ATTEMPTS_PER_DEVICE: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /** Storefront API calls one client address may make a minute (issue 21), shared by every replica through Redis. */
  PUBLIC_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /**
   * Proxies whose X-Forwarded-For is believed (comma-separated: IPs, CIDRs, or loopback, linklocal,
   * uniquelocal). Unset: none, the client address is the TCP peer's, so nobody can pick their own
   * address and escape the per-address sign-in limit.
   */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every(isProxyEntry), {
      message: 'expected comma-separated IP addresses, CIDR ranges, or loopback, linklocal, uniquelocal',
    }),
  SEED_DEMO: bool(true),
  DEMO_EMAIL: z.email({ error: 'expected an email address' }).default('owner@demo.studio'),
  DEMO_PASSWORD: z.string().min(8, 'expected at least 8 characters').default('demo-studio'),
  DEFAULT_TIMEZONE: z
    .string()
    .refine(isValidTimeZone, 'expected an IANA time zone such as America/New_York')
    .default('America/New_York'),
  /** Serve the shell and the remotes' static bundles from this process. */
  SERVE_WEB: bool(true),
  WEB_ROOT: z.string().optional(),
  /**
   * The remotes' manifest (@studio/contracts mfe-manifest): remote name -> { entry, version, drawers }
   * or, the old shape, remote name -> remoteEntry URL; laid over the default same-origin manifest.
   */
  MFE_MANIFEST_JSON: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined) return;
      try {
        parseMfeManifest(JSON.parse(v));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a JSON object of remote name to { entry, version, drawers } or to a URL (${(error as Error).message})`,
        });
      }
    }),
  /** Run the queue workers inside the API process (the one-command default). */
  RUN_WORKER: bool(true),
  /** Folder of uploaded images when stored on local disk. */
  MEDIA_DIR: z.string().min(1).default('data/media'),
  /** S3-compatible storage for uploads (used instead of MEDIA_DIR when S3_BUCKET is set). */
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(true),
  /** Incoming chat webhook for alerts (new course, ...); alerts are skipped when unset. */
  SLACK_WEBHOOK_URL: url(['http:', 'https:']).optional(),
  /** SMTP server of outgoing mail (smtp:// or smtps://, user and password in the URL); unset: .eml files in MAIL_OUTBOX_DIR. */
  SMTP_URL: z
    .string()
    .refine(
      isSmtpUrl,
      'expected an smtp:// or smtps:// URL with a host, such as smtp://user:pass@mail.example.com:587',
    )
    .optional(),
  /** Sender of outgoing mail: an address, or a name and an address in angle brackets. */
  MAIL_FROM: z
    .string()
    .max(320)
    .refine(isMailbox, 'expected an email address, or a name and <address>')
    .default('Studio <no-reply@studio.local>'),
  /** Folder the mail goes to, one .eml file per message, when SMTP_URL is unset. */
  MAIL_OUTBOX_DIR: z.string().min(1).default('data/outbox'),
  /** Where people reach this app from outside (links in emails: demo payment pages, receipts). Default http://localhost:PORT. */
  PUBLIC_APP_URL: url(['http:', 'https:']).optional(),
  /** Stripe secret key: when set, payments go through Stripe; unset, through the built-in demo provider. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'expected a Stripe secret key (sk_test_..., sk_live_...)')
    .optional(),
  /** Signing secret of the Stripe webhook endpoint (whsec_...). */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'expected a Stripe webhook signing secret (whsec_...)')
    .optional(),
  /** Another address for Stripe's API (tests point it at a local fake), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: url(['http:', 'https:']).optional(),
  /** How long a payment link, and the seat it holds, lasts: 0.5 to 24 hours (Stripe's limits for a Checkout Session). */
  PAYMENT_LINK_TTL_HOURS: z.coerce
    .number({ error: 'expected a number of hours' })
    .min(0.5, 'expected at least 0.5 hours (Stripe needs 30 minutes)')
    .max(24, 'expected at most 24 hours (Stripe Checkout Sessions last at most 24 hours)')
    .default(24),
  /**
   * How long a new pending order may wait for its payment page (issue 31): a checkout that died between
   * holding the seats and making the provider's page releases them after this many seconds (60).
   */
  PAYMENT_PAGE_TIMEOUT_SECONDS: z.coerce.number({ error: 'expected a number of seconds' }).int().min(1).max(3600).default(60),
  /** How long the store holds a buyer's seats while they pay: 30 minutes (Stripe's shortest Checkout Session) to 24 hours. */
  STORE_HOLD_MINUTES: z.coerce
    .number({ error: 'expected a number of minutes' })
    .int()
    .min(30, 'expected at least 30 minutes (Stripe needs 30 minutes)')
    .max(1440, 'expected at most 1440 minutes (24 hours)')
    .default(30),
  /**
   * How long an Idempotency-Key stays claimed by the first request that carries it: a retry before
   * then is answered 409 (still being processed); after it, the retry takes the key over (its first
   * request died with its process). The work behind a key is idempotent itself, so a takeover of a
   * slow request repeats nothing.
   */
  IDEMPOTENCY_LEASE_SECONDS: z.coerce.number({ error: 'expected a number of seconds' }).int().min(1).max(3600).default(120),
  /** DocuSeal's API address (cloud https://api.docuseal.com, or https://your-host/api): with DOCUSEAL_API_KEY, waivers are signed through DocuSeal. */
  DOCUSEAL_URL: url(['http:', 'https:']).optional(),
  /** DocuSeal API key (X-Auth-Token). Unset: waivers are signed on the built-in demo signing page. */
  DOCUSEAL_API_KEY: z
    .string()
    .min(8, 'expected a DocuSeal API key')
    .max(200)
    .regex(/^\S+$/, 'expected a DocuSeal API key')
    .optional(),
  /** The value DocuSeal sends in the X-Docuseal-Secret header of its webhooks (set it in DocuSeal's webhook settings). */
  DOCUSEAL_WEBHOOK_SECRET: z.string().min(16, 'expected at least 16 characters').max(200).optional(),
  /** true: the embedded signing page is the configured e-signature provider (no "Demo signing page" label). */
  WAIVER_EMBEDDED_SIGNING: bool(false),
  /**
   * Key that encrypts the sync providers' OAuth tokens at rest (AES-256-GCM): 32 random bytes,
   * base64 (`openssl rand -base64 32`). Unset outside production: a development key kept in
   * data/sync-token.key (created on first use, and logged).
   */
  SYNC_TOKEN_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/]{43}=$/.test(v) && Buffer.from(v, 'base64').length === 32, 'expected 32 bytes in base64 (openssl rand -base64 32)')
    .optional(),
  /**
   * The key of the bookings' manage links (issue 23: HMAC-SHA256 over the booking's kind and id), at
   * least 32 characters. Unset: a random key made once and kept in the database (table app_secret),
   * so links survive restarts and are the same on every replica.
   */
  BOOKING_LINK_SECRET: z.string().min(32, 'expected at least 32 characters').max(500).optional(),
  /** Where the development sync token key is kept when SYNC_TOKEN_KEY is unset (not in production). */
  SYNC_TOKEN_KEY_FILE: z.string().min(1).default('data/sync-token.key'),
  /**
   * Sync providers' OAuth apps (issue 11). A provider's panel offers Connect only when both its
   * client id and secret are set; `<PROVIDER>_BASE_URL` points every endpoint of that provider
   * (authorize, token, revoke, API) at one origin, for the local fakes of `npm run fakes`.
   */
  EVENTBRITE_CLIENT_ID: z.string().min(1).max(200).optional(),
  EVENTBRITE_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  EVENTBRITE_BASE_URL: url(['http:', 'https:']).optional(),
  MAILCHIMP_CLIENT_ID: z.string().min(1).max(200).optional(),
  MAILCHIMP_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  MAILCHIMP_BASE_URL: url(['http:', 'https:']).optional(),
  KLAVIYO_CLIENT_ID: z.string().min(1).max(200).optional(),
  KLAVIYO_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  KLAVIYO_BASE_URL: url(['http:', 'https:']).optional(),
  ZOOM_CLIENT_ID: z.string().min(1).max(200).optional(),
  ZOOM_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  ZOOM_BASE_URL: url(['http:', 'https:']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: z.string().optional(),
});

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads and validates the environment; a wrong value stops the process with the variable's name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (result.data.PASSWORD_HASH_COST === 'low' && result.data.NODE_ENV !== 'test')
    throw new ConfigError('Invalid configuration:\n  PASSWORD_HASH_COST: low is for tests only (NODE_ENV=test)');
  return result.data;
}
