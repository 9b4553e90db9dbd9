import { z } from 'zod';
import { parseAmountToCents } from '../money';
import { cents, count, ignoreWhenOff, INT4_MAX, multilineText, safeText } from '../safe-input';
import { requiredUnless } from '../required-when';
import {
  ACTIVITY_TYPES,
  APPOINTMENT_DURATION_RANGE_MINS,
  BOOKING_WINDOW_RANGE_DAYS,
  BUFFER_RANGE_MINS,
  DEFAULT_BOOKING_WINDOW_DAYS,
  DEFAULT_DAILY_MINS,
  DEFAULT_DAILY_MINS_OPTIONS,
  DEFAULT_DAYS,
  DEFAULT_DAYS_APART,
  DEFAULT_START_TIME,
  ENABLED_PRICE_TYPES,
  FORM_COLLECTION_TYPES,
  LEVELS,
  MATERIALS,
  MAX_COURSE_IMAGES,
  MIN_NOTICE_RANGE_MINS,
  START_TIME_INCREMENTS_MINS,
  START_TIME_OPTIONS,
} from './catalog-constants';
import { availabilitySchema } from '../scheduling/availability.schema';
import { checkoutFormFieldsSchema } from './checkout-form.schema';
import { COURSE_MESSAGES as M } from './course-messages';
import { isCancellationPolicy, isReschedulingPolicy, POLICY_IDS } from './policies';

/*
 * Each rule and its message lives here once. The API validates the payload with the `...Schema`
 * objects (money in cents); the forms use the `...FormSchema` objects, which read the dollar text
 * the admin typed and transform it into the same payload.
 */

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A whole number within a range (that fits its integer column), with one message for every way of missing it. */
const wholeNumber = (message: string, min: number, max = INT4_MAX) =>
  z.preprocess(blankToUndefined, count({ error: message, min, max }));

const uuid = (message: string) => z.uuid({ error: message });

const startTime = z.enum(
  START_TIME_OPTIONS.map((o) => o.value) as [string, ...string[]],
  { error: M.defaultStartTime },
);

const dailyMins = z
  .number({ error: M.defaultDailyMins })
  .refine((v) => DEFAULT_DAILY_MINS_OPTIONS.includes(v), M.defaultDailyMins);

/**
 * Price in cents as the API receives it, at most $1,000,000.00. A whole number of cents here;
 * "greater than 0" is a rule of standard prices only (priceRules), so a free course may send 0 or nothing.
 */
const priceCents = z.preprocess(blankToUndefined, cents({ error: M.price }).optional());
/** Price as typed in dollars ("450.99"), turned into cents. */
const priceDollars = z.preprocess(
  (v) => (blankToUndefined(v) === undefined ? undefined : (parseAmountToCents(v as string | number) ?? Number.NaN)),
  cents({ error: M.price }).optional(),
);

type PriceRuleInput = { priceType?: string; price?: unknown };

/** A standard price is required and greater than 0 (spec 000 §5, spec 001 §5); a free course has none. */
function priceRules(value: PriceRuleInput, ctx: z.RefinementCtx) {
  if ((value.priceType ?? 'standard') !== 'standard') return;
  // A price of the wrong shape already has its field error; only a missing or zero price is added here.
  if (value.price === undefined || value.price === 0) ctx.addIssue({ code: 'custom', path: ['price'], message: M.price });
}

/** priceRules for the OpenAPI document: price is required unless priceType is "free". */
const priceRequiredUnlessFree = requiredUnless('price', {
  properties: { priceType: { const: 'free' } },
  required: ['priceType'],
});

/** A free course has no price: whatever the price field still holds is ignored, not validated. */
const priceApplies = { price: (v: Record<string, unknown>) => v.priceType !== 'free' };

/** Hours of its own belong to an appointment course only: a scheduled course's are ignored, not validated. */
const createApplies = { ...priceApplies, availability: (v: Record<string, unknown>) => v.activity_type === 'appointment' };

/** Run the price rule even when another field is missing, so the form shows every error at once. */
const alongsideFieldErrors = { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null };

const images = z
  .array(safeText({ error: M.imageUrl }).min(1, M.imageUrl).max(2048, M.imageUrl), { error: M.imagesRequired })
  .min(1, M.imagesRequired)
  .max(MAX_COURSE_IMAGES, M.imagesMax);

const schedulingSettings = {
  buffer_before_mins: wholeNumber(M.buffer, BUFFER_RANGE_MINS.min, BUFFER_RANGE_MINS.max).optional().default(0),
  buffer_after_mins: wholeNumber(M.buffer, BUFFER_RANGE_MINS.min, BUFFER_RANGE_MINS.max).optional().default(0),
  min_notice_mins: wholeNumber(M.minNotice, MIN_NOTICE_RANGE_MINS.min, MIN_NOTICE_RANGE_MINS.max).optional().default(0),
  start_time_increments_mins: z
    .union(START_TIME_INCREMENTS_MINS.map((v) => z.literal(v)) as [z.ZodLiteral<15>, z.ZodLiteral<30>, z.ZodLiteral<60>], {
      error: M.increments,
    })
    .optional()
    .default(30),
  duration_mins: wholeNumber(M.duration, APPOINTMENT_DURATION_RANGE_MINS.min, APPOINTMENT_DURATION_RANGE_MINS.max)
    .optional()
    .default(60),
  /** How far ahead a student may book (issue 22), beside the spec's four settings. */
  booking_window_days: wholeNumber(M.bookingWindow, BOOKING_WINDOW_RANGE_DAYS.min, BOOKING_WINDOW_RANGE_DAYS.max)
    .optional()
    .default(DEFAULT_BOOKING_WINDOW_DAYS),
  /**
   * The course's own bookable hours (issue 22), in the location's zone; null or absent: it books
   * its instructor's. Only an appointment course has them (ignored otherwise).
   */
  availability: availabilitySchema.nullable().optional(),
};

const courseDefaults = {
  default_days: wholeNumber(M.defaultDays, 1, 365).optional().default(DEFAULT_DAYS),
  default_days_apart: wholeNumber(M.defaultDaysApart, 1, 365).optional().default(DEFAULT_DAYS_APART),
  default_daily_mins: dailyMins.optional().default(DEFAULT_DAILY_MINS),
  default_start_time: startTime.optional().default(DEFAULT_START_TIME),
};

const createShape = {
  name: safeText({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(200),
  material: z.enum(MATERIALS, { error: M.categoryCreate }),
  priceType: z.enum(ENABLED_PRICE_TYPES, { error: M.priceType }).optional().default('standard'),
  price: priceCents,
  description: multilineText({ error: M.descriptionMin }).trim().min(10, M.descriptionMin).max(20000),
  capacity: wholeNumber(M.capacityCreate, 2, 100000),
  images,
  tools: multilineText().max(2000, M.tools).optional().default(''),
  location_id: uuid(M.locationRequired),
  instructor_id: uuid(M.instructorRequired),
  level: z.enum(LEVELS, { error: M.levelRequired }),
  cancel_policy_id: z
    .number({ error: M.cancelPolicy })
    .refine(isCancellationPolicy, M.cancelPolicy)
    .optional()
    .default(POLICY_IDS.firm),
  reschedule_policy_id: z
    .number({ error: M.reschedulePolicy })
    .refine(isReschedulingPolicy, M.reschedulePolicy)
    .optional()
    .default(POLICY_IDS.agile),
  activity_type: z.enum(ACTIVITY_TYPES, { error: M.activityType }).optional().default('scheduled'),
  single_party: z.boolean().optional().default(false),
  checkoutFormFields: checkoutFormFieldsSchema.optional().default([]),
  formCollectionType: z.enum(FORM_COLLECTION_TYPES, { error: M.formCollectionType }).optional().default('order'),
  required_form_id: z.uuid().nullable().optional(),
  selected_waiver: z.uuid().nullable().optional(),
  auto_email: multilineText().max(10000, M.autoEmail).optional().default(''),
  ...schedulingSettings,
  ...courseDefaults,
};

/** Rules across fields: a standard price needs an amount; appointment mode needs single party. */
function crossFieldRules(value: PriceRuleInput & { activity_type?: string; single_party?: boolean }, ctx: z.RefinementCtx) {
  priceRules(value, ctx);
  if (value.activity_type === 'appointment' && !value.single_party) {
    ctx.addIssue({ code: 'custom', path: ['single_party'], message: M.appointmentNeedsSingleParty });
  }
}

/** POST /api/admin/activities (spec 000 §3, §5). */
export const courseCreateSchema = ignoreWhenOff(
  z.object(createShape).strict().superRefine(crossFieldRules, alongsideFieldErrors).meta(priceRequiredUnlessFree),
  createApplies,
);
export type CourseCreateInput = z.input<typeof courseCreateSchema>;
export type CourseCreatePayload = z.output<typeof courseCreateSchema>;

/** The New Course form: the same rules, price typed in dollars. */
export const courseCreateFormSchema = ignoreWhenOff(
  z.object({ ...createShape, price: priceDollars }).strict().superRefine(crossFieldRules, alongsideFieldErrors),
  createApplies,
);

const editShape = {
  name: safeText({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .min(10, M.nameMinEdit)
    .max(200),
  /** Not in spec 001's body: sent so that a free course stays free (no price) when re-saved. */
  priceType: z.enum(ENABLED_PRICE_TYPES, { error: M.priceType }).optional().default('standard'),
  price: priceCents,
  description: multilineText({ error: M.descriptionMin }).trim().min(10, M.descriptionMin).max(20000),
  required_waiver_id: z.uuid().nullable().optional(),
  capacity: wholeNumber(M.capacityEdit, 1, 100000),
  level: z.enum(LEVELS, { error: M.levelRequired }),
  category_id: z
    .number({ error: M.materialEdit })
    .int(M.materialEdit)
    .min(1, M.materialEdit)
    .max(MATERIALS.length, M.materialEdit),
  autoEmail: multilineText().max(10000, M.autoEmail).optional(),
  images,
  instructor_id: uuid(M.instructorSelect),
  location_id: uuid(M.locationSelect),
  sync_with_eventbrite: z.boolean().optional().default(false),
  eventbrite_event_id: safeText().max(100).nullable().optional(),
  /**
   * When sent, the course's checkout fields as they are now: an empty list removes the form. The
   * course's form is its own; a form another course also uses is copied, never changed in place.
   */
  checkoutFormFields: checkoutFormFieldsSchema.optional(),
  formCollectionType: z.enum(FORM_COLLECTION_TYPES, { error: M.formCollectionType }).optional(),
  /** Attaches another existing form of the organization; with its own id or null, the fields decide. */
  required_form_id: z.uuid().nullable().optional(),
  default_days: wholeNumber(M.defaultDays, 1, 365).optional(),
  default_days_apart: wholeNumber(M.defaultDaysApart, 1, 365).optional(),
  default_daily_mins: dailyMins.optional(),
  default_start_time: startTime.optional(),
  buffer_before_mins: schedulingSettings.buffer_before_mins.unwrap().optional(),
  buffer_after_mins: schedulingSettings.buffer_after_mins.unwrap().optional(),
  min_notice_mins: schedulingSettings.min_notice_mins.unwrap().optional(),
  start_time_increments_mins: schedulingSettings.start_time_increments_mins.unwrap().optional(),
  duration_mins: schedulingSettings.duration_mins.unwrap().optional(),
  booking_window_days: schedulingSettings.booking_window_days.unwrap().optional(),
  /** The course's own hours (null: its instructor's); kept only when the course is an appointment course. */
  availability: schedulingSettings.availability,
};

function editRules(
  value: PriceRuleInput & { sync_with_eventbrite?: boolean; eventbrite_event_id?: string | null },
  ctx: z.RefinementCtx,
) {
  priceRules(value, ctx);
  if (value.sync_with_eventbrite && !value.eventbrite_event_id) {
    ctx.addIssue({ code: 'custom', path: ['eventbrite_event_id'], message: M.eventbriteEvent });
  }
}

/** PUT /api/admin/activities/{id} with the Edit Course panel's body (spec 001 §5, §7). */
export const courseUpdateSchema = ignoreWhenOff(
  z.object(editShape).strict().superRefine(editRules, alongsideFieldErrors).meta(priceRequiredUnlessFree),
  priceApplies,
);
export type CourseUpdateInput = z.input<typeof courseUpdateSchema>;
export type CourseUpdatePayload = z.output<typeof courseUpdateSchema>;

/** The Edit Course form: the same rules, price typed in dollars. */
export const courseUpdateFormSchema = ignoreWhenOff(
  z.object({ ...editShape, price: priceDollars }).strict().superRefine(editRules, alongsideFieldErrors),
  priceApplies,
);

/** PUT /api/admin/activities/{id} with only images, sent at once on upload or delete (spec 001 §7). */
export const courseImagesUpdateSchema = z.object({ images }).strict();
export type CourseImagesUpdateInput = z.input<typeof courseImagesUpdateSchema>;

/** Days and days-apart are sent only when whole numbers (spec 001 §5). */
export function keepWholeDays<T extends { default_days?: unknown; default_days_apart?: unknown }>(values: T): T {
  const out = { ...values };
  if (!Number.isInteger(out.default_days)) delete out.default_days;
  if (!Number.isInteger(out.default_days_apart)) delete out.default_days_apart;
  return out;
}
