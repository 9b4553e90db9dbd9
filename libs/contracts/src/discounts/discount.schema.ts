import { z } from 'zod';
import { parseAmountToCents, centsToAmountText } from '../money';
import { dateTimeInput, dateTimeIsAfter } from '../date-time-input';
import { cents, INPUT_MESSAGES, MAX_CENTS, MAX_PAGE, safeText } from '../safe-input';
import { DISCOUNT_MESSAGES as M } from './discount-messages';
import { wallClockToUtc } from '../time';
import { DISCOUNT_DEFAULT_TIME, discountInstant, discountWallClock, isDiscountTime } from './discount-time';

export const DISCOUNT_TYPES = ['dollar', 'percentage'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];
export const DISCOUNT_APPLY_LOGIC = ['once', 'each'] as const;
export type DiscountApplyLogic = (typeof DISCOUNT_APPLY_LOGIC)[number];
export const DISCOUNT_STATUSES = ['scheduled', 'active', 'expired'] as const;
export type DiscountStatus = (typeof DISCOUNT_STATUSES)[number];

export const DISCOUNT_CODE_MIN = 3;
export const DISCOUNT_CODE_MAX = 50;
export const DISCOUNT_LABEL_MAX = 200;
/** The Discounts page asks for this many rows a page. */
export const DISCOUNT_PAGE_SIZE = 20;

const PERCENT_PATTERN = /^\d+$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const labelField = safeText({ error: M.labelRequired }).trim().min(1, M.labelRequired).max(DISCOUNT_LABEL_MAX, M.labelTooLong);
const codeField = safeText({ error: M.codeRequired })
  .trim()
  .min(1, M.codeRequired)
  .min(DISCOUNT_CODE_MIN, M.codeTooShort)
  .max(DISCOUNT_CODE_MAX, M.codeTooLong);

/** Cross-field rules run even when another field is missing, so every error shows at once. */
const alongsideFieldErrors = { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null };

/** A percentage is a whole number from 1 to 100. */
const percentOk = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100;
/** A dollar value in cents: whole cents (at most 2 decimals), above 0, within the amount bound. */
const dollarCents = cents({ error: M.dollarInvalid }).positive(M.dollarInvalid);

/* ---------------------------------------------------------------- the form ------------------- */

/** What the New / Edit Discount form holds: the value as typed, dates and hours as wall clock. */
export const discountFormSchema = z
  .object({
    label: labelField,
    code: codeField,
    type: z.enum(DISCOUNT_TYPES, { error: M.typeInvalid }),
    value: z.string().trim().min(1, M.valueRequired),
    limit_to_course: z.boolean(),
    activity_id: z.string().nullable(),
    apply_logic: z.enum(DISCOUNT_APPLY_LOGIC, { error: M.applyLogicInvalid }),
    has_start: z.boolean(),
    start_date: z.string(),
    /** Read only while has_start is on (a field that does not apply is not validated). */
    start_time: z.string(),
    has_end: z.boolean(),
    end_date: z.string(),
    /** Read only while has_end is on. */
    end_time: z.string(),
  })
  .superRefine((form, ctx) => {
    const value = typeof form.value === 'string' ? form.value.trim() : '';
    if (value) {
      if (form.type === 'dollar') {
        const amount = parseAmountToCents(value);
        if (amount === null || amount <= 0) ctx.addIssue({ code: 'custom', path: ['value'], message: M.dollarInvalid });
        else if (!dollarCents.safeParse(amount).success)
          ctx.addIssue({ code: 'custom', path: ['value'], message: INPUT_MESSAGES.amountTooLarge });
      } else if (form.type === 'percentage' && (!PERCENT_PATTERN.test(value) || !percentOk(Number(value)))) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: M.percentageInvalid });
      }
    }
    if (form.limit_to_course && !form.activity_id) {
      ctx.addIssue({ code: 'custom', path: ['activity_id'], message: M.courseRequired });
    }
    // The start and the end are read only while their switch is on; a date left empty is required,
    // one that is there but is not a day says so.
    const windowEdge = (on: boolean, date: string, time: string, [dateField, timeField]: [string, string], required: string) => {
      if (!on) return true;
      const timeOk = isDiscountTime(time);
      if (!timeOk) ctx.addIssue({ code: 'custom', path: [timeField], message: M.timeInvalid });
      const empty = !date?.trim();
      const dateOk = !empty && DATE_PATTERN.test(date) && wallClockToUtc(date, DISCOUNT_DEFAULT_TIME, 'UTC') !== null;
      if (empty) ctx.addIssue({ code: 'custom', path: [dateField], message: required });
      else if (!dateOk) ctx.addIssue({ code: 'custom', path: [dateField], message: M.dateInvalid });
      return timeOk && dateOk;
    };
    const startOk = windowEdge(form.has_start, form.start_date, form.start_time, ['start_date', 'start_time'], M.startDateRequired);
    const endOk = windowEdge(form.has_end, form.end_date, form.end_time, ['end_date', 'end_time'], M.endDateRequired);
    if (form.has_start && form.has_end && startOk && endOk) {
      // Compared as wall clock: the zone moves both the same way (hours are whole, so ISO order holds).
      if (`${form.end_date} ${form.end_time}` <= `${form.start_date} ${form.start_time}`)
        ctx.addIssue({ code: 'custom', path: ['end_date'], message: M.endBeforeStart });
    }
  }, alongsideFieldErrors);
export type DiscountFormInput = z.infer<typeof discountFormSchema>;

export const DISCOUNT_FORM_DEFAULTS: DiscountFormInput = {
  label: '',
  code: '',
  type: 'dollar',
  value: '',
  limit_to_course: false,
  activity_id: null,
  apply_logic: 'once',
  has_start: false,
  start_date: '',
  start_time: DISCOUNT_DEFAULT_TIME,
  has_end: false,
  end_date: '',
  end_time: DISCOUNT_DEFAULT_TIME,
};

/* ---------------------------------------------------------------- the API -------------------- */

/**
 * POST /api/admin/promo-code and PUT /api/admin/promo-code/{id} (spec 000 §3): the value in cents
 * for a dollar discount, a whole percent otherwise; the window as ISO instants (null: no limit).
 */
export const discountPayloadSchema = z
  .object({
    label: labelField,
    code: codeField,
    type: z.enum(DISCOUNT_TYPES, { error: M.typeInvalid }),
    value: z
      .number({ error: M.valueRequired })
      .min(-MAX_CENTS, M.valueInvalid)
      .max(MAX_CENTS, INPUT_MESSAGES.amountTooLarge)
      .describe('cents for a dollar discount; a whole percent (1 to 100) otherwise'),
    activity_id: z.uuid({ error: M.courseNotFound }).nullable().optional().default(null),
    apply_logic: z.enum(DISCOUNT_APPLY_LOGIC, { error: M.applyLogicInvalid }),
    /** Null or left out: no start. A wall-clock time without offset is read in the organization's zone. */
    start_date: dateTimeInput({ required: M.startDateRequired }).nullable().optional().default(null),
    /** Null or left out: no end. */
    expiration_date: dateTimeInput({ required: M.endDateRequired }).nullable().optional().default(null),
  })
  .strict()
  .superRefine((payload, ctx) => {
    if (typeof payload.value === 'number' && Math.abs(payload.value) <= MAX_CENTS) {
      if (payload.type === 'dollar' && !dollarCents.safeParse(payload.value).success) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: M.dollarInvalid });
      }
      if (payload.type === 'percentage' && !percentOk(payload.value)) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: M.percentageInvalid });
      }
    }
    if (typeof payload.start_date === 'string' && typeof payload.expiration_date === 'string') {
      // An instant against a wall-clock time is compared by the API once the zone made both instants.
      if (dateTimeIsAfter(payload.expiration_date, payload.start_date) === false)
        ctx.addIssue({ code: 'custom', path: ['expiration_date'], message: M.endBeforeStart });
    }
  }, alongsideFieldErrors);
export type DiscountPayloadInput = z.input<typeof discountPayloadSchema>;
export type DiscountPayload = z.output<typeof discountPayloadSchema>;

/** GET /api/admin/promo-code: search (code or label), paged in SQL, newest first. */
export const discountListQuerySchema = z
  .object({
    search: safeText({ error: M.search }).trim().max(200, M.search).optional(),
    page: z.coerce.number({ error: M.page }).int(M.page).min(1, M.page).max(MAX_PAGE, M.page).optional().default(1),
    limit: z.coerce.number({ error: M.limit }).int(M.limit).min(1, M.limit).max(100, M.limit).optional().default(DISCOUNT_PAGE_SIZE),
  })
  .strict();
export type DiscountListQuery = z.output<typeof discountListQuerySchema>;

/* ------------------------------------------------------- form <-> API ------------------------ */

/** A discount as the API answers it, the fields the form reads. */
export interface DiscountRecord {
  label: string;
  code: string;
  type: DiscountType;
  value: number;
  activity_id: string | null;
  apply_logic: DiscountApplyLogic;
  start_date: string | null;
  expiration_date: string | null;
}

/** Turns a valid form into the API payload: dollars to cents, wall clock in the organization zone to UTC. */
export function toDiscountPayload(form: DiscountFormInput, timezone: string): DiscountPayload {
  const instant = (on: boolean, date: string, time: string) =>
    on ? (discountInstant(date, time, timezone)?.toISOString() ?? null) : null;
  return {
    label: form.label.trim(),
    code: form.code.trim(),
    type: form.type,
    value: form.type === 'dollar' ? (parseAmountToCents(form.value) ?? 0) : Number(form.value.trim()),
    activity_id: form.limit_to_course ? form.activity_id : null,
    apply_logic: form.apply_logic,
    start_date: instant(form.has_start, form.start_date, form.start_time),
    expiration_date: instant(form.has_end, form.end_date, form.end_time),
  };
}

/** An existing discount as form values: cents back to text, instants to wall clock in the zone. */
export function discountToForm(discount: DiscountRecord, timezone: string): DiscountFormInput {
  const start = discount.start_date ? discountWallClock(discount.start_date, timezone) : null;
  const end = discount.expiration_date ? discountWallClock(discount.expiration_date, timezone) : null;
  return {
    label: discount.label,
    code: discount.code,
    type: discount.type,
    value: discount.type === 'dollar' ? centsToAmountText(discount.value) : String(discount.value),
    limit_to_course: Boolean(discount.activity_id),
    activity_id: discount.activity_id,
    apply_logic: discount.apply_logic,
    has_start: Boolean(start),
    start_date: start?.date ?? '',
    start_time: start?.time ?? DISCOUNT_DEFAULT_TIME,
    has_end: Boolean(end),
    end_date: end?.date ?? '',
    end_time: end?.time ?? DISCOUNT_DEFAULT_TIME,
  };
}
