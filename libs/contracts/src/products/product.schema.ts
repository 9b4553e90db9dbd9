import { z } from 'zod';
import { parseAmountToCents } from '../money';
import { cents, count, ignoreWhenOff, multilineText, safeText } from '../safe-input';
import { MATERIALS, MAX_COURSE_IMAGES } from '../catalog/catalog-constants';

/*
 * The product of spec 000 §3 as written by the New / Edit Product drawer and taken by
 * POST /api/admin/products and PUT /api/admin/products/{id}. Each rule and its message lives here
 * once: the API validates `productPayloadSchema` (amount in cents), the form `productFormSchema`
 * (amount typed in dollars, turned into the same payload).
 */

/** Price categories (spec 000 §3): a single payment, a subscription, a free lead magnet. */
export const PRODUCT_PRICE_TYPES = ['oneTime', 'subscription', 'leadMagnet'] as const;
export type ProductPriceType = (typeof PRODUCT_PRICE_TYPES)[number];

/** Repeat units of a subscription (spec 000 §9). */
export const RENEWAL_INTERVAL_UNITS = ['days', 'weeks', 'months', 'years'] as const;
export type RenewalIntervalUnit = (typeof RENEWAL_INTERVAL_UNITS)[number];

/** Status is sent as published on save (spec 000 §4). */
export const PRODUCT_STATUSES = ['published', 'draft'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/**
 * What buying a product grants (issue 24): nothing, a membership (a subscription's bookings each
 * billing period), a class pack (credits that expire a set time after purchase) or a gift card
 * (its value is the price).
 */
export const PRODUCT_GRANTS = ['none', 'membership', 'pack', 'giftCard'] as const;
export type ProductGrant = (typeof PRODUCT_GRANTS)[number];

export const PRODUCT_GRANT_LABELS: Record<ProductGrant, string> = {
  none: 'Nothing',
  membership: 'Membership',
  pack: 'Class pack',
  giftCard: 'Gift card',
};

/** The price type each grant needs. */
export const PRODUCT_GRANT_PRICE_TYPE: Record<Exclude<ProductGrant, 'none'>, ProductPriceType> = {
  membership: 'subscription',
  pack: 'oneTime',
  giftCard: 'oneTime',
};

/** A membership's bookings a period and a pack's credits: 1 to 1000. */
export const MAX_GRANT_BOOKINGS = 1000;
/** A pack's validity: 1 to 365 days, weeks, months or years. */
export const MAX_PACK_EXPIRY_QUANTITY = 365;
/** The most courses a membership or pack may name. */
export const MAX_COVERED_COURSES = 200;

/** Largest renewal interval quantity: every 365 days, 52 weeks, 12 months... a few years. */
export const MAX_RENEWAL_INTERVAL_QUANTITY = 365;
/** Largest reward: 10,000,000 points ($100,000.00 at 100 points = $1.00). */
export const MAX_REWARD_POINTS = 10_000_000;

/** Products page: rows a page. Spec 001 §9: the pickers read up to 10000 products. */
export const PRODUCT_PAGE_SIZE = 20;
export const PRODUCT_LIST_MAX_LIMIT = 10000;

/** Messages of spec 000 §5 and §8 word for word; the others (no spec wording) are ours. */
export const PRODUCT_MESSAGES = {
  nameRequired: 'A product name is required.',
  downloadUrl: 'Enter the full address of the download, starting with https://',
  rewardAmount: 'Reward amount must be a whole number greater than 1.',
  loyaltyProgramRequired: 'You need to set up a loyalty program before enabling this feature.',
  saved: 'Product added',
  saveFailed: 'Error adding product',
  amountPositive: 'Amount must be greater than 0.',
  amountInvalid: 'Amount must be a valid amount in dollars and cents.',
  priceType: 'Choose one-time, subscription or lead magnet.',
  renewalUnit: 'Choose days, weeks, months or years.',
  renewalQuantity: 'The renewal interval must be a whole number of at least 1.',
  imageUrl: 'Each image must be an uploaded image.',
  imagesMax: `You can upload at most ${MAX_COURSE_IMAGES} images.`,
  descriptionTooLong: 'The description is at most 20,000 characters.',
  nameTooLong: 'The product name is at most 200 characters.',
  notFound: 'Product not found',
  grant: 'Choose nothing, a membership, a class pack or a gift card.',
  grantMembershipNeedsSubscription: 'Only a subscription can grant a membership.',
  grantPackNeedsOneTime: 'Only a one-time product can be a class pack.',
  grantGiftCardNeedsOneTime: 'Only a one-time product can be a gift card.',
  membershipBookings: `Bookings per billing period must be a whole number from 1 to ${MAX_GRANT_BOOKINGS}, or choose unlimited.`,
  packCredits: `Credits must be a whole number from 1 to ${MAX_GRANT_BOOKINGS}.`,
  packExpiryQuantity: `The validity must be a whole number from 1 to ${MAX_PACK_EXPIRY_QUANTITY}, or leave both empty for no expiry.`,
  packExpiryUnit: 'Choose days, weeks, months or years, or leave both empty for no expiry.',
  coversCourses: `Choose at most ${MAX_COVERED_COURSES} courses.`,
  coversCourseUnknown: 'A chosen course is not one of your courses.',
  coversCategories: `Categories are the material categories 1 to ${MATERIALS.length}.`,
} as const;

const M = PRODUCT_MESSAGES;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

const images = z
  .array(safeText({ error: M.imageUrl }).min(1, M.imageUrl).max(2048, M.imageUrl), { error: M.imageUrl })
  .max(MAX_COURSE_IMAGES, M.imagesMax);

const shape = {
  productName: safeText({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(200, M.nameTooLong),
  productDescription: multilineText().trim().max(20000, M.descriptionTooLong).optional().default(''),
  priceType: z.enum(PRODUCT_PRICE_TYPES, { error: M.priceType }),
  /** Required for a subscription; ignored (stored as none) otherwise. */
  renewalIntervalUnits: z.preprocess(blankToUndefined, z.enum(RENEWAL_INTERVAL_UNITS, { error: M.renewalUnit }).optional()),
  renewalIntervalQuantity: z.preprocess(
    blankToUndefined,
    count({ error: M.renewalQuantity, min: 1, max: MAX_RENEWAL_INTERVAL_QUANTITY }).optional(),
  ),
  /** Cents; greater than 0 for oneTime and subscription, 0 allowed for a lead magnet. */
  amount: cents({ error: M.amountInvalid }),
  images: images.optional().default([]),
  earnPoints: z.boolean().optional().default(false),
  /** Points earned by buying the product; required (and more than 1) when earnPoints is on. */
  rewardAmount: z.preprocess(blankToUndefined, count({ error: M.rewardAmount, min: 2, max: MAX_REWARD_POINTS }).optional()),
  status: z.enum(PRODUCT_STATUSES).optional().default('published'),
  /** A lead magnet's download, mailed to whoever asks for it at the store (issue 21). */
  downloadUrl: z.preprocess(
    blankToUndefined,
    z.url({ protocol: /^https?$/, error: M.downloadUrl }).max(2048, M.downloadUrl).optional(),
  ),
  /** What buying it grants (issue 24); nothing unless said. */
  grant: z.enum(PRODUCT_GRANTS, { error: M.grant }).optional().default('none'),
  /** A membership's bookings each billing period (unless unlimited). */
  membershipBookings: z.preprocess(blankToUndefined, count({ error: M.membershipBookings, min: 1, max: MAX_GRANT_BOOKINGS }).optional()),
  membershipUnlimited: z.boolean({ error: M.membershipBookings }).optional(),
  /** A pack's credits. */
  packCredits: z.preprocess(blankToUndefined, count({ error: M.packCredits, min: 1, max: MAX_GRANT_BOOKINGS }).optional()),
  /** A pack's validity after purchase; both empty: it never expires. */
  packExpiresAfterQuantity: z.preprocess(
    blankToUndefined,
    count({ error: M.packExpiryQuantity, min: 1, max: MAX_PACK_EXPIRY_QUANTITY }).optional(),
  ),
  packExpiresAfterUnit: z.preprocess(blankToUndefined, z.enum(RENEWAL_INTERVAL_UNITS, { error: M.packExpiryUnit }).optional()),
  /** The courses a membership or pack covers (empty: all). */
  coversActivityIds: z
    .array(z.uuid({ error: M.coversCourseUnknown }), { error: M.coversCourses })
    .max(MAX_COVERED_COURSES, M.coversCourses)
    .optional(),
  /** The material categories (1..7) it covers (empty: all). */
  coversCategoryIds: z
    .array(count({ error: M.coversCategories, min: 1, max: MATERIALS.length }), { error: M.coversCategories })
    .max(MATERIALS.length, M.coversCategories)
    .optional(),
};

type RuleInput = {
  priceType?: string;
  amount?: unknown;
  renewalIntervalUnits?: unknown;
  renewalIntervalQuantity?: unknown;
  earnPoints?: boolean;
  rewardAmount?: unknown;
  grant?: string;
  membershipBookings?: unknown;
  membershipUnlimited?: boolean;
  packCredits?: unknown;
  packExpiresAfterQuantity?: unknown;
  packExpiresAfterUnit?: unknown;
};

const GRANT_PRICE_TYPE_MESSAGE = {
  membership: M.grantMembershipNeedsSubscription,
  pack: M.grantPackNeedsOneTime,
  giftCard: M.grantGiftCardNeedsOneTime,
} as const;

/** Rules across fields (spec 000 §5): a paid price, a subscription's interval, the reward of a points product. */
function crossFieldRules(value: RuleInput, ctx: z.RefinementCtx) {
  if ((value.priceType === 'oneTime' || value.priceType === 'subscription') && value.amount === 0) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: M.amountPositive });
  }
  if (value.priceType === 'subscription') {
    if (value.renewalIntervalUnits === undefined)
      ctx.addIssue({ code: 'custom', path: ['renewalIntervalUnits'], message: M.renewalUnit });
    if (value.renewalIntervalQuantity === undefined)
      ctx.addIssue({ code: 'custom', path: ['renewalIntervalQuantity'], message: M.renewalQuantity });
  }
  if (value.earnPoints && value.rewardAmount === undefined) {
    ctx.addIssue({ code: 'custom', path: ['rewardAmount'], message: M.rewardAmount });
  }
  const grant = value.grant;
  if (grant === 'membership' || grant === 'pack' || grant === 'giftCard') {
    if (value.priceType !== undefined && value.priceType !== PRODUCT_GRANT_PRICE_TYPE[grant])
      ctx.addIssue({ code: 'custom', path: ['grant'], message: GRANT_PRICE_TYPE_MESSAGE[grant] });
  }
  if (grant === 'membership' && !value.membershipUnlimited && value.membershipBookings === undefined)
    ctx.addIssue({ code: 'custom', path: ['membershipBookings'], message: M.membershipBookings });
  if (grant === 'pack') {
    if (value.packCredits === undefined) ctx.addIssue({ code: 'custom', path: ['packCredits'], message: M.packCredits });
    if (value.packExpiresAfterQuantity !== undefined && value.packExpiresAfterUnit === undefined)
      ctx.addIssue({ code: 'custom', path: ['packExpiresAfterUnit'], message: M.packExpiryUnit });
    if (value.packExpiresAfterUnit !== undefined && value.packExpiresAfterQuantity === undefined)
      ctx.addIssue({ code: 'custom', path: ['packExpiresAfterQuantity'], message: M.packExpiryQuantity });
  }
}

/** Run the cross-field rules even when another field is missing, so the form shows every error at once. */
const alongsideFieldErrors = { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null };

/**
 * Fields that apply only behind a choice are ignored, not validated, when it is off: the renewal
 * interval outside a subscription, the reward amount while earnPoints is off, the download address
 * outside a lead magnet, a grant's fields unless the product grants that (a membership's bookings
 * while it is unlimited).
 */
const productFieldsApply = {
  renewalIntervalUnits: (v: Record<string, unknown>) => v.priceType === 'subscription',
  renewalIntervalQuantity: (v: Record<string, unknown>) => v.priceType === 'subscription',
  rewardAmount: (v: Record<string, unknown>) => v.earnPoints === true,
  downloadUrl: (v: Record<string, unknown>) => v.priceType === 'leadMagnet',
  membershipBookings: (v: Record<string, unknown>) => v.grant === 'membership' && v.membershipUnlimited !== true,
  membershipUnlimited: (v: Record<string, unknown>) => v.grant === 'membership',
  packCredits: (v: Record<string, unknown>) => v.grant === 'pack',
  packExpiresAfterQuantity: (v: Record<string, unknown>) => v.grant === 'pack',
  packExpiresAfterUnit: (v: Record<string, unknown>) => v.grant === 'pack',
  coversActivityIds: (v: Record<string, unknown>) => v.grant === 'membership' || v.grant === 'pack',
  coversCategoryIds: (v: Record<string, unknown>) => v.grant === 'membership' || v.grant === 'pack',
};

/** POST /api/admin/products and PUT /api/admin/products/{id} (spec 000 §3, §5): amount in cents. */
export const productPayloadSchema = ignoreWhenOff(
  z.object(shape).strict().superRefine(crossFieldRules, alongsideFieldErrors),
  productFieldsApply,
);
export type ProductPayloadInput = z.input<typeof productPayloadSchema>;
export type ProductPayload = z.output<typeof productPayloadSchema>;

/** Amount as typed in dollars ("19.99"), turned into cents. */
const amountDollars = z.preprocess(
  (v) => (blankToUndefined(v) === undefined ? undefined : (parseAmountToCents(v as string | number) ?? Number.NaN)),
  cents({ error: M.amountInvalid }),
);

/**
 * Enabling points needs the organization's active loyalty programme (spec 000 §4). The API asks the
 * loyalty module; the form is told whether the programme is active. Answers the field message or null.
 */
export function loyaltyProgramIssue(earnPoints: boolean, programActive: boolean): string | null {
  return earnPoints && !programActive ? M.loyaltyProgramRequired : null;
}

/** The New / Edit Product form: the same rules, the amount in dollars, and the loyalty programme rule. */
export function productFormSchema(options: { loyaltyProgramActive: boolean }) {
  return ignoreWhenOff(
    z
      .object({ ...shape, amount: amountDollars })
      .strict()
      .superRefine(crossFieldRules, alongsideFieldErrors)
      .superRefine((value, ctx) => {
        const issue = loyaltyProgramIssue(Boolean(value.earnPoints), options.loyaltyProgramActive);
        if (issue) ctx.addIssue({ code: 'custom', path: ['earnPoints'], message: issue });
      }),
    productFieldsApply,
  );
}

/** What the product form holds: text as typed, the amount in dollars. */
export interface ProductFormValues {
  productName: string;
  productDescription: string;
  priceType: ProductPriceType;
  renewalIntervalUnits: RenewalIntervalUnit | '';
  renewalIntervalQuantity: number | '';
  /** Dollars as typed ("19.99"). */
  amount: string;
  images: string[];
  earnPoints: boolean;
  rewardAmount: number | '';
  status: ProductStatus;
  /** A lead magnet's download address, as typed ('' for none). */
  downloadUrl: string;
  grant: ProductGrant;
  membershipBookings: number | '';
  membershipUnlimited: boolean;
  packCredits: number | '';
  packExpiresAfterQuantity: number | '';
  packExpiresAfterUnit: RenewalIntervalUnit | '';
  coversActivityIds: string[];
  coversCategoryIds: number[];
}

export const PRODUCT_FORM_DEFAULTS: ProductFormValues = {
  productName: '',
  productDescription: '',
  priceType: 'oneTime',
  renewalIntervalUnits: 'months',
  renewalIntervalQuantity: 1,
  amount: '',
  images: [],
  earnPoints: false,
  rewardAmount: '',
  status: 'published',
  downloadUrl: '',
  grant: 'none',
  membershipBookings: '',
  membershipUnlimited: false,
  packCredits: '',
  packExpiresAfterQuantity: '',
  packExpiresAfterUnit: '',
  coversActivityIds: [],
  coversCategoryIds: [],
};

/**
 * The payload a valid product keeps: a subscription's interval only on a subscription, a reward only
 * with points, a download address only on a lead magnet.
 */
export function normalizeProductPayload(payload: ProductPayload) {
  const subscription = payload.priceType === 'subscription';
  return {
    ...payload,
    renewalIntervalUnits: subscription ? (payload.renewalIntervalUnits ?? null) : null,
    renewalIntervalQuantity: subscription ? (payload.renewalIntervalQuantity ?? null) : null,
    rewardAmount: payload.earnPoints ? (payload.rewardAmount ?? null) : null,
    downloadUrl: payload.priceType === 'leadMagnet' ? (payload.downloadUrl ?? null) : null,
    ...normalizeGrant(payload),
  };
}

/** What a price row keeps of a grant: each field only where it applies, null (or false) otherwise. */
export interface ProductGrantTerms {
  grant: ProductGrant;
  membershipBookings: number | null;
  membershipUnlimited: boolean;
  packCredits: number | null;
  packExpiresAfterQuantity: number | null;
  packExpiresAfterUnit: RenewalIntervalUnit | null;
  coversActivityIds: string[] | null;
  coversCategoryIds: number[] | null;
}

function normalizeGrant(payload: ProductPayload): ProductGrantTerms {
  const grant = payload.grant ?? 'none';
  const membership = grant === 'membership';
  const pack = grant === 'pack';
  const unlimited = membership && payload.membershipUnlimited === true;
  const expires = pack && payload.packExpiresAfterQuantity !== undefined && payload.packExpiresAfterUnit !== undefined;
  const covers = membership || pack;
  return {
    grant,
    membershipBookings: membership && !unlimited ? (payload.membershipBookings ?? null) : null,
    membershipUnlimited: unlimited,
    packCredits: pack ? (payload.packCredits ?? null) : null,
    packExpiresAfterQuantity: expires ? payload.packExpiresAfterQuantity! : null,
    packExpiresAfterUnit: expires ? payload.packExpiresAfterUnit! : null,
    coversActivityIds: covers && payload.coversActivityIds?.length ? [...new Set(payload.coversActivityIds.map((id) => id.toLowerCase()))] : null,
    coversCategoryIds: covers && payload.coversCategoryIds?.length ? [...new Set(payload.coversCategoryIds)].sort((a, b) => a - b) : null,
  };
}

/** Query of GET /api/admin/products: search (name) and page in SQL; limit=10000 is the pickers' whole list. */
export const PRODUCT_LIST_MESSAGES = {
  page: 'Page must be a whole number from 1.',
  limit: `Limit must be between 1 and ${PRODUCT_LIST_MAX_LIMIT}.`,
  search: 'Search is at most 200 characters.',
} as const;

export const productListQuerySchema = z
  .object({
    page: z.coerce
      .number({ error: PRODUCT_LIST_MESSAGES.page })
      .int(PRODUCT_LIST_MESSAGES.page)
      .min(1, PRODUCT_LIST_MESSAGES.page)
      .max(1_000_000, PRODUCT_LIST_MESSAGES.page)
      .optional()
      .default(1),
    limit: z.coerce
      .number({ error: PRODUCT_LIST_MESSAGES.limit })
      .int(PRODUCT_LIST_MESSAGES.limit)
      .min(1, PRODUCT_LIST_MESSAGES.limit)
      .max(PRODUCT_LIST_MAX_LIMIT, PRODUCT_LIST_MESSAGES.limit)
      .optional()
      .default(PRODUCT_LIST_MAX_LIMIT),
    search: safeText({ error: PRODUCT_LIST_MESSAGES.search }).trim().max(200, PRODUCT_LIST_MESSAGES.search).optional(),
  })
  .strict();
export type ProductListQuery = z.output<typeof productListQuerySchema>;

/** "$19.99", or "$19.99 every 2 months" for a subscription, "Free" for a free lead magnet. */
export function describeProductPrice(
  price: {
    unit_price: number;
    category: ProductPriceType;
    renewal_interval_unit: RenewalIntervalUnit | null;
    renewal_interval_quantity: number | null;
  },
  format: (cents: number) => string,
): string {
  if (price.category === 'leadMagnet' && price.unit_price === 0) return 'Free';
  const amount = format(price.unit_price);
  if (price.category !== 'subscription' || !price.renewal_interval_unit) return amount;
  const quantity = price.renewal_interval_quantity ?? 1;
  const unit = quantity === 1 ? price.renewal_interval_unit.replace(/s$/, '') : price.renewal_interval_unit;
  return quantity === 1 ? `${amount} every ${unit}` : `${amount} every ${quantity} ${unit}`;
}

/** Labels of the categories, as the Products page and the drawer show them. */
export const PRODUCT_PRICE_TYPE_LABELS: Record<ProductPriceType, string> = {
  oneTime: 'One-time',
  subscription: 'Subscription',
  leadMagnet: 'Lead magnet',
};

/** A grant as the API answers it on a price (snake case), as describeProductGrant reads it. */
export interface ProductGrantOut {
  grant: ProductGrant;
  membership_bookings: number | null;
  membership_unlimited: boolean;
  pack_credits: number | null;
  pack_expires_after_quantity: number | null;
  pack_expires_after_unit: RenewalIntervalUnit | null;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 'es'}`;
const period = (quantity: number, unit: RenewalIntervalUnit) =>
  quantity === 1 ? unit.replace(/s$/, '') : `${quantity} ${unit}`;

/**
 * What a product grants, in the store's words: "10 classes, valid 6 months", "10 classes, no
 * expiry", "Unlimited classes every month", "8 classes every 2 weeks", "Gift card worth $50.00";
 * null when it grants nothing.
 */
export function describeProductGrant(
  price: ProductGrantOut & {
    unit_price: number;
    renewal_interval_unit: RenewalIntervalUnit | null;
    renewal_interval_quantity: number | null;
  },
  format: (cents: number) => string,
): string | null {
  const every = price.renewal_interval_unit ? ` every ${period(price.renewal_interval_quantity ?? 1, price.renewal_interval_unit)}` : '';
  switch (price.grant) {
    case 'membership':
      if (price.membership_unlimited) return `Unlimited classes${every}`;
      return price.membership_bookings ? `${plural(price.membership_bookings, 'class')}${every}` : null;
    case 'pack': {
      if (!price.pack_credits) return null;
      const validity =
        price.pack_expires_after_quantity && price.pack_expires_after_unit
          ? `valid ${price.pack_expires_after_quantity} ${price.pack_expires_after_quantity === 1 ? price.pack_expires_after_unit.replace(/s$/, '') : price.pack_expires_after_unit}`
          : 'no expiry';
      return `${plural(price.pack_credits, 'class')}, ${validity}`;
    }
    case 'giftCard':
      return `Gift card worth ${format(price.unit_price)}`;
    default:
      return null;
  }
}

/**
 * When a pack bought at `paidAt` expires: its validity later (calendar months and years, in UTC),
 * or null when it never expires.
 */
export function packExpiresAt(
  paidAt: Date,
  quantity: number | null,
  unit: RenewalIntervalUnit | null,
): Date | null {
  if (!quantity || !unit) return null;
  const at = new Date(paidAt.getTime());
  if (unit === 'days') at.setUTCDate(at.getUTCDate() + quantity);
  else if (unit === 'weeks') at.setUTCDate(at.getUTCDate() + 7 * quantity);
  else if (unit === 'months') at.setUTCMonth(at.getUTCMonth() + quantity);
  else at.setUTCFullYear(at.getUTCFullYear() + quantity);
  return at;
}
