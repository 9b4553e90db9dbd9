import { z } from 'zod';
import { parseAmountToCents } from '../money';
import {
  ACTIVITY_TYPES,
  APPOINTMENT_DURATION_RANGE_MINS,
  BUFFER_RANGE_MINS,
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
import { checkoutFormFieldsSchema } from './checkout-form.schema';
import { COURSE_MESSAGES as M } from './course-messages';
import { isCancellationPolicy, isReschedulingPolicy, POLICY_IDS } from './policies';

/*
 * Each rule and its message lives here once. The API validates the payload with the `...Schema`
 * objects (money in cents); the forms use the `...FormSchema` objects, which read the dollar text
 * the admin typed and transform it into the same payload.
 */

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A whole number within a range, with one message for every way of missing it. */
const wholeNumber = (message: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(blankToUndefined, z.number({ error: message }).int(message).min(min, message).max(max, message));

const uuid = (message: string) => z.uuid({ error: message });

const startTime = z.enum(
  START_TIME_OPTIONS.map((o) => o.value) as [string, ...string[]],
  { error: M.defaultStartTime },
);

const dailyMins = z
  .number({ error: M.defaultDailyMins })
  .refine((v) => DEFAULT_DAILY_MINS_OPTIONS.includes(v), M.defaultDailyMins);

/** Price in cents as the API receives it. */
const priceCents = z.preprocess(blankToUndefined, z.number({ error: M.price }).int(M.price).positive(M.price));
/** Price as typed in dollars ("450.99"), turned into cents. */
const priceDollars = z.preprocess(
  (v) => (blankToUndefined(v) === undefined ? undefined : (parseAmountToCents(v as string | number) ?? Number.NaN)),
  z.number({ error: M.price }).int(M.price).positive(M.price),
);

const images = z
  .array(z.string({ error: M.imageUrl }).min(1, M.imageUrl).max(2048, M.imageUrl), { error: M.imagesRequired })
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
};

const courseDefaults = {
  default_days: wholeNumber(M.defaultDays, 1, 365).optional().default(DEFAULT_DAYS),
  default_days_apart: wholeNumber(M.defaultDaysApart, 1, 365).optional().default(DEFAULT_DAYS_APART),
  default_daily_mins: dailyMins.optional().default(DEFAULT_DAILY_MINS),
  default_start_time: startTime.optional().default(DEFAULT_START_TIME),
};

const createShape = {
  name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(200),
  material: z.enum(MATERIALS, { error: M.categoryCreate }),
  priceType: z.enum(ENABLED_PRICE_TYPES, { error: M.priceType }).optional().default('standard'),
  price: priceCents.optional(),
  description: z.string({ error: M.descriptionMin }).trim().min(10, M.descriptionMin).max(20000),
  capacity: wholeNumber(M.capacityCreate, 2, 100000),
  images,
  tools: z.string().max(2000, M.tools).optional().default(''),
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
  auto_email: z.string().max(10000, M.autoEmail).optional().default(''),
  ...schedulingSettings,
  ...courseDefaults,
};

type PriceRuleInput = { priceType?: string; price?: number; activity_type?: string; single_party?: boolean };

/** Rules across fields: a standard price needs an amount; appointment mode needs single party. */
function crossFieldRules(value: PriceRuleInput, ctx: z.RefinementCtx) {
  if (value.priceType === 'standard' && value.price === undefined) {
    ctx.addIssue({ code: 'custom', path: ['price'], message: M.price });
  }
  if (value.activity_type === 'appointment' && !value.single_party) {
    ctx.addIssue({ code: 'custom', path: ['single_party'], message: M.appointmentNeedsSingleParty });
  }
}

/** POST /api/admin/activities (spec 000 §3, §5). */
export const courseCreateSchema = z.object(createShape).strict().superRefine(crossFieldRules);
export type CourseCreateInput = z.input<typeof courseCreateSchema>;
export type CourseCreatePayload = z.output<typeof courseCreateSchema>;

/** The New Course form: the same rules, price typed in dollars. */
export const courseCreateFormSchema = z
  .object({ ...createShape, price: priceDollars.optional() })
  .strict()
  .superRefine(crossFieldRules);

const editShape = {
  name: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .min(10, M.nameMinEdit)
    .max(200),
  price: priceCents,
  description: z.string({ error: M.descriptionMin }).trim().min(10, M.descriptionMin).max(20000),
  required_waiver_id: z.uuid().nullable().optional(),
  capacity: wholeNumber(M.capacityEdit, 1, 100000),
  level: z.enum(LEVELS, { error: M.levelRequired }),
  category_id: z
    .number({ error: M.materialEdit })
    .int(M.materialEdit)
    .min(1, M.materialEdit)
    .max(MATERIALS.length, M.materialEdit),
  autoEmail: z.string().max(10000, M.autoEmail).optional(),
  images,
  instructor_id: uuid(M.instructorSelect),
  location_id: uuid(M.locationSelect),
  sync_with_eventbrite: z.boolean().optional().default(false),
  eventbrite_event_id: z.string().max(100).nullable().optional(),
  checkoutFormFields: checkoutFormFieldsSchema.optional(),
  formCollectionType: z.enum(FORM_COLLECTION_TYPES, { error: M.formCollectionType }).optional(),
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
};

function editRules(value: { sync_with_eventbrite?: boolean; eventbrite_event_id?: string | null }, ctx: z.RefinementCtx) {
  if (value.sync_with_eventbrite && !value.eventbrite_event_id) {
    ctx.addIssue({ code: 'custom', path: ['eventbrite_event_id'], message: M.eventbriteEvent });
  }
}

/** PUT /api/admin/activities/{id} with the Edit Course panel's body (spec 001 §5, §7). */
export const courseUpdateSchema = z.object(editShape).strict().superRefine(editRules);
export type CourseUpdateInput = z.input<typeof courseUpdateSchema>;
export type CourseUpdatePayload = z.output<typeof courseUpdateSchema>;

/** The Edit Course form: the same rules, price typed in dollars. */
export const courseUpdateFormSchema = z
  .object({ ...editShape, price: priceDollars })
  .strict()
  .superRefine(editRules);

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
