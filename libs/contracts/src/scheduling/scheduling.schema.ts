import { z } from 'zod';
import { parseAmountToCents } from '../money';
import { cents, count, ignoreWhenOff, INPUT_MESSAGES, MAX_CENTS, safeText } from '../safe-input';
import { wallClockToUtc } from '../time';
import { requiredUnless, requiredWhen } from '../required-when';
import { COURSE_MESSAGES } from '../catalog/course-messages';
import { SCHEDULING_MESSAGES as M } from './scheduling-messages';

/** Schedule duration choices: 15-minute steps to 4 h, 30-minute steps to 8 h, then hourly to 24 h (spec 000 §9). */
export const SCHEDULE_DURATION_OPTIONS_MINS = [
  ...Array.from({ length: 16 }, (_, i) => (i + 1) * 15),
  ...Array.from({ length: 8 }, (_, i) => 240 + (i + 1) * 30),
  ...Array.from({ length: 16 }, (_, i) => 480 + (i + 1) * 60),
];
/** Spec 001 §9: a new day starts at 09:00 for 60 minutes. */
export const NEW_DAY_DEFAULTS = { time: '09:00', duration: 60 } as const;
export const MAX_SESSION_DAYS = 60;
export const ENROLLMENT_PAGE_SIZE = 20;
export const HOT_TAG_MIN_ENROLLMENTS = 11;
export const TAG_UPDATE_DEBOUNCE_MS = 50;
export const EXPORT_FILE_NAME = 'enrollments.csv';
/** Guests one student can bring. */
export const MAX_GUESTS = 1000;
/** Seats of one session. */
export const MAX_CAPACITY = 100000;

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** One day row. Any missing part gives the one message of spec 000 §5 on that row. */
export const scheduleDaySchema = z
  .object({
    date: z.string({ error: M.completeDayFields }).nullish().describe('YYYY-MM-DD in the location’s time zone'),
    time: z.string({ error: M.completeDayFields }).nullish().describe('HH:mm, 24-hour wall-clock time'),
    duration: z.number({ error: M.completeDayFields }).nullish().describe('Minutes, one of the schedule duration choices'),
  })
  .strict()
  .superRefine((row, ctx) => {
    if (blank(row.date) || blank(row.time) || blank(row.duration)) {
      ctx.addIssue({ code: 'custom', message: M.completeDayFields });
      return;
    }
    const valid =
      typeof row.date === 'string' &&
      typeof row.time === 'string' &&
      wallClockToUtc(row.date, row.time, 'UTC') !== null &&
      typeof row.duration === 'number' &&
      SCHEDULE_DURATION_OPTIONS_MINS.includes(row.duration);
    if (!valid) ctx.addIssue({ code: 'custom', message: M.invalidDate });
  })
  .transform((row) => ({ date: row.date as string, time: row.time as string, duration: row.duration as number }));

/** An overridden price (spec 000 §5): greater than 0, whole cents. Leaving it out keeps the course's price. */
const overrideCents = cents({ error: M.schedulePrice }).positive(M.schedulePrice).optional();
const optionalDollars = z.preprocess(
  (v) => (blank(v) ? undefined : (parseAmountToCents(v as string) ?? Number.NaN)),
  cents({ error: M.schedulePrice }).positive(M.schedulePrice).optional(),
);
const scheduleCapacity = count({ error: M.scheduleCapacity, min: 1, max: MAX_CAPACITY });

const scheduleShape = {
  activity_id: z.uuid({ error: M.courseRequired }),
  dates: z.array(scheduleDaySchema, { error: M.completeDayFields }).min(1, M.completeDayFields).max(MAX_SESSION_DAYS, M.tooManyDays),
  instructor_id: z.uuid({ error: M.instructorRequired }),
  location_id: z.uuid({ error: M.locationRequired }),
  sync_with_eventbrite: z.boolean().optional().default(false),
  /** The session's name; left out, the course's name. When sent it cannot be blank (spec 001 §2 error state). */
  course_name: safeText({ error: COURSE_MESSAGES.nameRequired }).trim().min(1, COURSE_MESSAGES.nameRequired).max(200).optional(),
  /** Left out, the course's capacity. */
  capacity: scheduleCapacity.optional(),
  /** Left out, the course's price; sent, an override, which must be a real price (null or '' is refused). */
  price: overrideCents,
  internal_short_description: safeText().trim().max(120).optional(),
};

/** POST /api/admin/events (spec 000 §3 event schedule payload; price override in cents). */
export const eventScheduleSchema = z.object(scheduleShape).strict();
export type EventScheduleInput = z.input<typeof eventScheduleSchema>;
export type EventSchedulePayload = z.output<typeof eventScheduleSchema>;

/**
 * The Schedule Course drawer: the same rules, price typed in dollars. The price and capacity
 * toggles say whether the admin overrides them; an override that is on is required (spec 000 §5).
 */
export const eventScheduleFormSchema = ignoreWhenOff(
  z
    .object({
      ...scheduleShape,
      course_name: safeText({ error: COURSE_MESSAGES.nameRequired }).trim().min(1, COURSE_MESSAGES.nameRequired).max(200),
      override_price: z.boolean().optional().default(false),
      price: optionalDollars,
      set_capacity: z.boolean().optional().default(false),
      capacity: z.preprocess((v) => (blank(v) ? undefined : v), scheduleCapacity.optional()),
    })
    .strict()
    .superRefine(
      (form, ctx) => {
        if (form.override_price && form.price === undefined) {
          ctx.addIssue({ code: 'custom', path: ['price'], message: M.schedulePriceRequired });
        }
        if (form.set_capacity && form.capacity === undefined) {
          ctx.addIssue({ code: 'custom', path: ['capacity'], message: M.scheduleCapacity });
        }
      },
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
    )
    .transform(({ override_price, set_capacity, price, capacity, ...rest }): EventSchedulePayload => ({
      ...rest,
      ...(override_price && price !== undefined && { price }),
      ...(set_capacity && capacity !== undefined && { capacity }),
    })),
  // A price or capacity typed and then switched off is ignored, not validated.
  {
    price: (v) => v.override_price === true,
    capacity: (v) => v.set_capacity === true,
  },
);

/** Edit event dialog (spec 001 §5): capacity and price are required; price in cents on the wire. */
const capacityRule = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z
    .number({ error: (issue) => (issue.input === undefined ? M.capacityEmpty : M.capacityWhole) })
    .int(M.capacityWhole)
    .min(1, M.capacityMin)
    .max(MAX_CAPACITY, M.capacityWhole),
);

/**
 * Price of a session in cents. A paid session keeps spec 001 §5: required and greater than 0. A free
 * session (price 0, a free course's session) may leave it empty or at 0 and stays free; a price above
 * 0 makes it paid.
 */
const eventPriceCents = (free: boolean) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : v),
    free
      ? z
          .number({ error: M.priceInvalid })
          .int(M.priceCurrency)
          .min(0, M.priceInvalid)
          .max(MAX_CENTS, INPUT_MESSAGES.amountTooLarge)
          .optional()
      : z
          .number({ error: (issue) => (issue.input === undefined ? M.priceEmpty : M.priceInvalid) })
          .int(M.priceCurrency)
          .positive(M.pricePositive)
          .max(MAX_CENTS, INPUT_MESSAGES.amountTooLarge),
  );

/** PUT /api/admin/events/{id} for a session that is free (`free`) or paid: the rules of spec 001 §5. */
export const eventUpdateSchemaFor = (free: boolean) =>
  z
    .object({
      price: eventPriceCents(free).meta(
        requiredWhen(
          'the session is paid (its price is above 0)',
          'Cents; required and above 0 for a paid session, optional for a free one',
        ),
      ),
      capacity: capacityRule,
      internal_short_description: safeText().trim().max(120).nullable().optional(),
    })
    .strict();

/**
 * The body PUT /api/admin/events/{id} takes. Price may be left out here because a free session may
 * leave it out; the API then checks the body against the session with `eventUpdateSchemaFor`.
 */
export const eventUpdateSchema = eventUpdateSchemaFor(true);
export type EventUpdateInput = z.input<typeof eventUpdateSchema>;

/** The dialog's price as typed: text with up to two decimals, then cents; empty or 0 only for a free session. */
const eventPriceText = (free: boolean) =>
  z
    .string({ error: M.priceEmpty })
    .trim()
    .refine((v) => (free && v === '') || v.length > 0, M.priceEmpty)
    .refine((v) => v === '' || (/^\$?\d*(\.\d{0,2})?$/.test(v.replace(/,/g, '')) && v !== '.'), M.priceCurrency)
    .transform((v, ctx) => {
      if (v === '') return undefined;
      const amount = parseAmountToCents(v.endsWith('.') ? v.slice(0, -1) : v);
      if (amount === null) {
        ctx.addIssue({ code: 'custom', message: M.priceInvalid });
        return z.NEVER;
      }
      if (amount <= 0 && !free) {
        ctx.addIssue({ code: 'custom', message: M.pricePositive });
        return z.NEVER;
      }
      if (amount > MAX_CENTS) {
        ctx.addIssue({ code: 'custom', message: INPUT_MESSAGES.amountTooLarge });
        return z.NEVER;
      }
      return amount;
    });

const eventCapacityText = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === 'string' ? (/^\d+$/.test(v.trim()) ? Number(v) : Number.NaN) : v),
  z
    .number({ error: (issue) => (issue.input === undefined ? M.capacityEmpty : M.capacityWhole) })
    .int(M.capacityWhole)
    .min(1, M.capacityMin)
    .max(MAX_CAPACITY, M.capacityWhole),
);

/** The edit event dialog of a free (price 0) or paid session: capacity and price as typed. */
export const eventUpdateFormSchemaFor = (free: boolean) =>
  eventUpdateSchemaFor(free).extend({ capacity: eventCapacityText, price: eventPriceText(free) });

/** The edit event dialog of a paid session. */
export const eventUpdateFormSchema = eventUpdateFormSchemaFor(false);

/** Add student (spec 000 §5): a student is required; the target is an event or an appointment. */
export const addStudentFormSchema = z.object({
  student_id: z.uuid({ error: M.selectStudent }),
  /** enroll directly, send a payment link, or book on the student's membership or pack (`holding_id`). */
  method: z.enum(['enroll', 'invoice', 'holding']).default('enroll'),
  holding_id: z.string().optional(),
});

export const enrollBodySchema = z
  .object({
    event_id: z.uuid().optional(),
    appointment_id: z.uuid().optional(),
    holding_id: z
      .uuid()
      .optional()
      .describe("book on the student's membership (uses 1 booking) or class pack (a credit per person), written to the wallet's ledger"),
  })
  .strict()
  .refine((b) => Boolean(b.event_id) !== Boolean(b.appointment_id), {
    message: M.eventOrAppointment,
    path: ['event_id'],
  })
  // The rule above, for the OpenAPI document: event_id, or else appointment_id, never both.
  .meta(requiredUnless('event_id', { required: ['appointment_id'] }, { not: { required: ['event_id'] } }));

export const guestCountSchema = z
  .object({
    guestCount: z.preprocess(
      (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      count({ error: M.guestCountMin, min: 0, max: MAX_GUESTS, tooLarge: M.guestCountMax }),
    ),
  })
  .strict();

export const tagSchema = z
  .object({
    name: safeText({ error: M.tagNameRequired }).trim().min(1, M.tagNameRequired).max(40),
    color: z
      .string({ error: M.tagColor })
      .regex(/^#[0-9a-fA-F]{6}$/, M.tagColor)
      .optional()
      .default('#5b6cff'),
    icon: safeText().max(40).optional(),
  })
  .strict();

export const eventTagsSchema = z
  .object({ tags: z.array(safeText({ error: M.invalidTagData }).min(1, M.invalidTagData).max(64, M.invalidTagData), { error: M.invalidTagData }).max(50) })
  .strict();

export const exportEnrollmentsSchema = z
  .object({ event_id: z.uuid(), enrollment_ids: z.array(z.uuid()).max(100000).optional().default([]) })
  .strict();

export const ENROLLMENT_SORT_FIELDS = ['created_at', 'first_name', 'last_name', 'email', 'guestCount', 'waiverStatus', 'checked_in_at'] as const;
export const ENROLLMENT_FILTER_COLUMNS = ['first_name', 'last_name', 'email', 'phone', 'waiverStatus', 'guestCount', 'attendance'] as const;

/** System tags are derived, shown, and never stored or modified (spec 001 §4). */
export const SYSTEM_TAGS = {
  featured: { tag_id: 'system-featured', name: 'Featured', color: '#f5a623', icon: 'star' },
  special: { tag_id: 'system-special', name: 'Special', color: '#9b59b6', icon: 'gift' },
  hot: { tag_id: 'system-hot', name: 'Hot', color: '#e74c3c', icon: 'fire' },
} as const;
export const isSystemTagId = (id: string) => id.startsWith('system-');

/** Days after the first, spaced by days-apart, with the course's defaults (spec 001 §9). */
export function defaultScheduleRows(
  firstDate: string,
  options: { days?: number; daysApart?: number; time?: string; duration?: number } = {},
): { date: string; time: string; duration: number }[] {
  const days = Math.max(1, options.days ?? 1);
  const apart = Math.max(1, options.daysApart ?? 1);
  const [y, m, d] = firstDate.split('-').map(Number);
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(Date.UTC(y, m - 1, d + i * apart));
    return {
      date: date.toISOString().slice(0, 10),
      time: options.time ?? NEW_DAY_DEFAULTS.time,
      duration: options.duration ?? NEW_DAY_DEFAULTS.duration,
    };
  });
}

/** A phone number as people write it: an optional +, then digits, spaces, ( ) . - with 7 digits or more. */
const PHONE_SHAPED = /^\+?[0-9][0-9 ().-]*[0-9]$/;
const isPhoneShaped = (value: string) => PHONE_SHAPED.test(value) && value.replace(/\D/g, '').length >= 7;

/**
 * Cells a spreadsheet would run as a formula are neutralised (OWASP CSV injection): an apostrophe
 * goes before a formula character (= + - @ tab CR) that starts the cell, or that follows a ; or ,
 * (optionally after spaces), because a spreadsheet in a semicolon-separated locale splits the cell
 * there and runs what follows. A phone number ("+1 212 555 0118") is left as is: made only of
 * digits, spaces and ( ) . - it can call no function, and it stays readable.
 */
export function neutraliseCsvCell(value: string): string {
  if (isPhoneShaped(value)) return value;
  return value.replace(/(^|[;,])( *)(?=[=+\-@\t\r])/g, "$1$2'");
}
