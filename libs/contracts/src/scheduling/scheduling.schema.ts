import { z } from 'zod';
import { parseAmountToCents } from '../money';
import { wallClockToUtc } from '../time';
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

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** One day row. Any missing part gives the one message of spec 000 §5 on that row. */
export const scheduleDaySchema = z
  .object({ date: z.unknown(), time: z.unknown(), duration: z.unknown() })
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

const optionalCents = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z.number({ error: M.schedulePrice }).int(M.schedulePrice).positive(M.schedulePrice).optional(),
);
const optionalDollars = z.preprocess(
  (v) => (blank(v) ? undefined : (parseAmountToCents(v as string) ?? Number.NaN)),
  z.number({ error: M.schedulePrice }).int(M.schedulePrice).positive(M.schedulePrice).optional(),
);

const scheduleShape = {
  activity_id: z.uuid({ error: M.courseRequired }),
  dates: z.array(scheduleDaySchema, { error: M.completeDayFields }).min(1, M.completeDayFields).max(MAX_SESSION_DAYS, M.tooManyDays),
  instructor_id: z.uuid({ error: M.instructorRequired }),
  location_id: z.uuid({ error: M.locationRequired }),
  sync_with_eventbrite: z.boolean().optional().default(false),
  course_name: z.string().trim().max(200).optional(),
  capacity: z.preprocess(
    (v) => (blank(v) ? undefined : v),
    z.number({ error: M.scheduleCapacity }).int(M.scheduleCapacity).min(1, M.scheduleCapacity).max(100000, M.scheduleCapacity).optional(),
  ),
  price: optionalCents,
  internal_short_description: z.string().trim().max(120).optional(),
};

/** POST /api/admin/events (spec 000 §3 event schedule payload; price override in cents). */
export const eventScheduleSchema = z.object(scheduleShape).strict();
export type EventScheduleInput = z.input<typeof eventScheduleSchema>;
export type EventSchedulePayload = z.output<typeof eventScheduleSchema>;

/** The Schedule Course drawer: the same rules, price typed in dollars. */
export const eventScheduleFormSchema = z.object({ ...scheduleShape, price: optionalDollars }).strict();

/** Edit event dialog (spec 001 §5): capacity and price are required; price in cents on the wire. */
const capacityRule = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z
    .number({ error: (issue) => (issue.input === undefined ? M.capacityEmpty : M.capacityWhole) })
    .int(M.capacityWhole)
    .min(1, M.capacityMin)
    .max(100000, M.capacityWhole),
);

export const eventUpdateSchema = z
  .object({
    price: z.preprocess(
      (v) => (blank(v) ? undefined : v),
      z
        .number({ error: (issue) => (issue.input === undefined ? M.priceEmpty : M.priceInvalid) })
        .int(M.priceCurrency)
        .positive(M.pricePositive),
    ),
    capacity: capacityRule,
    internal_short_description: z.string().trim().max(120).nullable().optional(),
  })
  .strict();
export type EventUpdateInput = z.input<typeof eventUpdateSchema>;

/** The edit event dialog's price as typed: text with up to two decimals, then cents. */
export const eventUpdateFormSchema = eventUpdateSchema.extend({
  capacity: z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? (/^\d+$/.test(v.trim()) ? Number(v) : Number.NaN) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? M.capacityEmpty : M.capacityWhole) })
      .int(M.capacityWhole)
      .min(1, M.capacityMin),
  ),
  price: z
    .string({ error: M.priceEmpty })
    .trim()
    .min(1, M.priceEmpty)
    .refine((v) => /^\$?\d*(\.\d{0,2})?$/.test(v.replace(/,/g, '')) && v !== '.', M.priceCurrency)
    .transform((v, ctx) => {
      const cents = parseAmountToCents(v.endsWith('.') ? v.slice(0, -1) : v);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: M.priceInvalid });
        return z.NEVER;
      }
      if (cents <= 0) {
        ctx.addIssue({ code: 'custom', message: M.pricePositive });
        return z.NEVER;
      }
      return cents;
    }),
});

/** Add student (spec 000 §5): a student is required; the target is an event or an appointment. */
export const addStudentFormSchema = z.object({
  student_id: z.uuid({ error: M.selectStudent }),
  method: z.enum(['enroll', 'invoice']).default('enroll'),
});

export const enrollBodySchema = z
  .object({ event_id: z.uuid().optional(), appointment_id: z.uuid().optional() })
  .strict()
  .refine((b) => Boolean(b.event_id) !== Boolean(b.appointment_id), { message: M.eventOrAppointment, path: ['event_id'] });

export const guestCountSchema = z
  .object({
    guestCount: z.preprocess(
      (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z.number({ error: M.guestCountMin }).int(M.guestCountMin).min(0, M.guestCountMin).max(1000, M.guestCountMin),
    ),
  })
  .strict();

export const tagSchema = z
  .object({
    name: z.string({ error: M.tagNameRequired }).trim().min(1, M.tagNameRequired).max(40),
    color: z
      .string({ error: M.tagColor })
      .regex(/^#[0-9a-fA-F]{6}$/, M.tagColor)
      .optional()
      .default('#5b6cff'),
    icon: z.string().max(40).optional(),
  })
  .strict();

export const eventTagsSchema = z.object({ tags: z.array(z.string().min(1).max(64), { error: M.invalidTagData }).max(50) }).strict();

export const exportEnrollmentsSchema = z
  .object({ event_id: z.uuid(), enrollment_ids: z.array(z.uuid()).max(100000).optional().default([]) })
  .strict();

export const ENROLLMENT_SORT_FIELDS = ['created_at', 'first_name', 'last_name', 'email', 'guestCount', 'waiverStatus'] as const;
export const ENROLLMENT_FILTER_COLUMNS = ['first_name', 'last_name', 'email', 'phone', 'waiverStatus', 'guestCount'] as const;

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

/** Cells that a spreadsheet would run as a formula get a leading apostrophe (OWASP CSV injection). */
export function neutraliseCsvCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
