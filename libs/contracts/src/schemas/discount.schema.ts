import { z } from 'zod';
import { parseAmountToCents } from '../money';
import { INPUT_MESSAGES, MAX_CENTS, safeText } from '../safe-input';
import { wallClockToUtc } from '../time';

/** Discount form messages (spec 000 §5 rules; §8 names only the toasts, so these are ours). */
export const DISCOUNT_MESSAGES = {
  labelRequired: 'A label is required',
  codeRequired: 'A code is required',
  codeTooShort: 'Code must be at least 3 characters',
  valueRequired: 'A value is required',
  dollarInvalid: 'Amount must be greater than 0 with at most 2 decimals',
  percentageInvalid: 'Percentage must be a whole number from 1 to 100',
  startDateRequired: 'A start date is required',
  endDateRequired: 'An end date is required',
  courseRequired: 'A course is required when the discount is limited to a course',
  saved: 'Discount added',
  saveFailed: 'Error adding discount',
  formError: 'Failed to update the course. Please try again later.',
} as const;

/** Discount time choices: hourly from 1 AM to 11 PM; the default is 12:00 (spec 000 §9). */
export const DISCOUNT_TIME_CHOICES = Array.from({ length: 23 }, (_, i) => {
  const hour = i + 1;
  const label = `${hour % 12 === 0 ? 12 : hour % 12}:00 ${hour < 12 ? 'AM' : 'PM'}`;
  return { value: `${String(hour).padStart(2, '0')}:00`, label };
});
export const DISCOUNT_DEFAULT_TIME = '12:00';

const PERCENT_PATTERN = /^\d+$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):00$/;

/** What the New / Edit Discount form holds: the value as typed, dates and times as wall clock. */
export const discountFormSchema = z
  .object({
    label: safeText().trim().min(1, DISCOUNT_MESSAGES.labelRequired).max(200),
    code: safeText().trim().min(1, DISCOUNT_MESSAGES.codeRequired).min(3, DISCOUNT_MESSAGES.codeTooShort).max(100),
    type: z.enum(['dollar', 'percentage']),
    value: z.string().trim().min(1, DISCOUNT_MESSAGES.valueRequired),
    limit_to_course: z.boolean(),
    activity_id: z.string().nullable(),
    apply_logic: z.enum(['once', 'each']),
    has_start: z.boolean(),
    start_date: z.string(),
    start_time: z.string().regex(TIME_PATTERN),
    has_end: z.boolean(),
    end_date: z.string(),
    end_time: z.string().regex(TIME_PATTERN),
  })
  .superRefine((form, ctx) => {
    if (form.value.trim()) {
      if (form.type === 'dollar') {
        const cents = parseAmountToCents(form.value);
        if (cents === null || cents <= 0)
          ctx.addIssue({ code: 'custom', path: ['value'], message: DISCOUNT_MESSAGES.dollarInvalid });
        else if (cents > MAX_CENTS) ctx.addIssue({ code: 'custom', path: ['value'], message: INPUT_MESSAGES.amountTooLarge });
      } else {
        const text = form.value.trim();
        const percent = Number(text);
        if (!PERCENT_PATTERN.test(text) || percent < 1 || percent > 100) {
          ctx.addIssue({ code: 'custom', path: ['value'], message: DISCOUNT_MESSAGES.percentageInvalid });
        }
      }
    }
    if (form.limit_to_course && !form.activity_id) {
      ctx.addIssue({ code: 'custom', path: ['activity_id'], message: DISCOUNT_MESSAGES.courseRequired });
    }
    if (form.has_start && !DATE_PATTERN.test(form.start_date)) {
      ctx.addIssue({ code: 'custom', path: ['start_date'], message: DISCOUNT_MESSAGES.startDateRequired });
    }
    if (form.has_end && !DATE_PATTERN.test(form.end_date)) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: DISCOUNT_MESSAGES.endDateRequired });
    }
  });
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

/** POST /api/admin/promo-code and PUT /api/admin/promo-code/{id}: value in cents or whole percent. */
export const discountPayloadSchema = z
  .object({
    label: safeText().trim().min(1, DISCOUNT_MESSAGES.labelRequired).max(200),
    code: safeText().trim().min(3, DISCOUNT_MESSAGES.codeTooShort).max(100),
    type: z.enum(['dollar', 'percentage']),
    value: z.number({ error: DISCOUNT_MESSAGES.valueRequired }).int().positive().max(MAX_CENTS, INPUT_MESSAGES.amountTooLarge),
    activity_id: z.uuid().nullable(),
    apply_logic: z.enum(['once', 'each']),
    start_date: z.iso.datetime().nullable(),
    expiration_date: z.iso.datetime().nullable(),
  })
  .superRefine((payload, ctx) => {
    if (payload.type === 'percentage' && payload.value > 100) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: DISCOUNT_MESSAGES.percentageInvalid });
    }
  });
export type DiscountPayload = z.infer<typeof discountPayloadSchema>;

/** Turns a valid form into the API payload: dollars to cents, wall clock in the organization zone to UTC. */
export function toDiscountPayload(form: DiscountFormInput, timezone: string): DiscountPayload {
  const instant = (on: boolean, date: string, time: string) =>
    on ? (wallClockToUtc(date, time, timezone)?.toISOString() ?? null) : null;
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
