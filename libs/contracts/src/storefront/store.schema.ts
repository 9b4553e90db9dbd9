import { z } from 'zod';
import { PRODUCT_GRANTS, PRODUCT_PRICE_TYPES, RENEWAL_INTERVAL_UNITS } from '../products/product.schema';
import { ACTIVITY_TYPES, LEVELS } from '../catalog/catalog-constants';
import { publicCheckoutFormSchema } from './form-answers';

/*
 * The online store (issue 21): each organization's store address, and what the public Storefront
 * API (`/api/public/{slug}/…`) answers. Public answers carry only what a buyer may see: a session's
 * seats left, never who took the others.
 */

/** A store address: 2 to 40 lowercase letters, digits and single hyphens, no hyphen at either end. */
export const STORE_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/;
export const STORE_SLUG_MAX = 40;

export const STORE_MESSAGES = {
  slugRequired: 'A store address is required',
  slugInvalid:
    'Use 2 to 40 lowercase letters, numbers and single hyphens, not starting or ending with a hyphen',
  slugTaken: 'This store address is taken by another studio',
  slugReserved: 'This store address is reserved',
  siteUrlInvalid: 'Enter the full address of your site, starting with https://',
  storeNotFound: 'Store not found',
  courseNotFound: 'Course not found',
  productNotFound: 'Product not found',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
} as const;

/** Words a store may not be called: they name the app's own paths. */
export const RESERVED_STORE_SLUGS = [
  'admin',
  'api',
  'mfe',
  'docs',
  'checkout',
  'activity',
  'static',
  'assets',
];

/**
 * A store address made from a studio's name: accents dropped, words joined by hyphens, cut to the
 * limit; `studio` when nothing is left. The caller makes it unique (slug-2, slug-3…).
 */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, STORE_SLUG_MAX - 4)
    .replace(/-+$/g, '');
  const slug = base.length >= 2 ? base : `studio${base ? `-${base}` : ''}`;
  return RESERVED_STORE_SLUGS.includes(slug) ? `${slug}-studio` : slug;
}

export const storeSlugSchema = z
  .string({ error: STORE_MESSAGES.slugRequired })
  .trim()
  .min(1, STORE_MESSAGES.slugRequired)
  .regex(STORE_SLUG_PATTERN, STORE_MESSAGES.slugInvalid)
  .refine((slug) => !RESERVED_STORE_SLUGS.includes(slug), STORE_MESSAGES.slugReserved);

/** The studio's own site address, where its store links point instead of the built-in store. */
export const storeSiteUrlSchema = z
  .string()
  .trim()
  .max(200, STORE_MESSAGES.siteUrlInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, STORE_MESSAGES.siteUrlInvalid)
  .transform((value) => value.replace(/\/+$/, ''));

/** Settings → Organization: the store address and, optionally, the studio's own site. */
export const storeSettingsSchema = z.strictObject({
  slug: storeSlugSchema,
  /** Empty, null or absent: the store lives at PUBLIC_APP_URL/s/{slug}. */
  public_url: z
    .preprocess((value) => (value === '' ? null : value), storeSiteUrlSchema.nullable())
    .optional()
    .transform((value) => value ?? null),
});
export type StoreSettingsPayload = z.infer<typeof storeSettingsSchema>;

// The store's addresses and link shapes are zod-free (the store's pages use them): store-rules.ts.
export { storeAddress, storeLinks } from './store-rules';

const instant = z.string().describe('An instant, ISO 8601 in UTC');

export const publicSessionSchema = z.object({
  event_id: z.uuid(),
  name: z.string(),
  starts_at: instant,
  ends_at: instant,
  /** The zone of the session's location, in which its times are shown. */
  timezone: z.string(),
  price_cents: z.number().int(),
  /** Seats a buyer can still take (never who took the others). */
  seats_left: z.number().int(),
  sold_out: z.boolean(),
  location_name: z.string(),
  online: z.boolean(),
});
export type PublicSession = z.infer<typeof publicSessionSchema>;

export const publicCourseCardSchema = z.object({
  activity_id: z.uuid(),
  name: z.string(),
  summary: z.string().describe('The first lines of the description'),
  activity_type: z.enum(ACTIVITY_TYPES),
  level: z.enum(LEVELS),
  category: z.string(),
  price_cents: z.number().int().describe('0 for a free course'),
  free: z.boolean(),
  image_url: z.string().nullable(),
  location_name: z.string(),
  instructor_name: z.string(),
  /** The next upcoming session's start, null when none is scheduled. */
  next_starts_at: instant.nullable(),
  url: z.string().describe("The course page's address in the store"),
});
export type PublicCourseCard = z.infer<typeof publicCourseCardSchema>;

export const publicPolicySchema = z.object({ name: z.string(), rule: z.string() });

export const publicCourseSchema = publicCourseCardSchema.extend({
  description: z.string(),
  tools: z.string(),
  images: z.array(z.string()),
  single_party: z.boolean(),
  duration_mins: z.number().int().nullable().describe('Appointment length; null for scheduled courses'),
  booking_window_days: z
    .number()
    .int()
    .nullable()
    .describe('Appointment courses: how many days ahead a student may book; null for scheduled courses'),
  max_party_size: z
    .number()
    .int()
    .nullable()
    .describe('Appointment courses: the largest party one appointment takes (the capacity, at most 20); null for scheduled courses'),
  instructor: z.object({ name: z.string(), photo_url: z.string().nullable() }),
  location: z.object({ name: z.string(), address: z.string(), timezone: z.string(), online: z.boolean() }),
  cancellation_policy: publicPolicySchema,
  rescheduling_policy: publicPolicySchema,
  requires_waiver: z.boolean(),
  /** The checkout form the buyer fills (what a buyer needs of it), or null when the course has none. */
  checkout_form: publicCheckoutFormSchema.nullable(),
  /** Upcoming active sessions, soonest first (at most 100). */
  sessions: z.array(publicSessionSchema),
});
export type PublicCourse = z.infer<typeof publicCourseSchema>;

export const publicProductSchema = z.object({
  product_id: z.uuid(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(PRODUCT_PRICE_TYPES),
  price_cents: z.number().int(),
  renewal_interval_unit: z.enum(RENEWAL_INTERVAL_UNITS).nullable(),
  renewal_interval_quantity: z.number().int().nullable(),
  image_url: z.string().nullable(),
  url: z.string().describe("The product's checkout address in the store"),
  grant: z.enum(PRODUCT_GRANTS).describe('what buying it grants (issue 24); a gift card asks for its recipient'),
  grant_text: z.string().nullable().describe('what it grants in words ("10 classes, valid 6 months"), or null'),
});
export type PublicProduct = z.infer<typeof publicProductSchema>;

export const publicStoreSchema = z.object({
  name: z.string(),
  slug: z.string(),
  timezone: z.string(),
  store_url: z.string(),
  courses: z.array(publicCourseCardSchema),
  products: z.array(publicProductSchema),
});
export type PublicStore = z.infer<typeof publicStoreSchema>;

/** What a session's checkout page shows: the store's name, the session's course, and the session. */
export const publicCheckoutSessionSchema = z.object({
  store_name: z.string(),
  course: publicCourseSchema,
  session: publicSessionSchema,
});
export type PublicCheckoutSession = z.infer<typeof publicCheckoutSessionSchema>;
