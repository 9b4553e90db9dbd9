import { z } from 'zod';
import { isValidTimeZone } from '../time';

/** The longest range one slots call answers (to − from), in days. */
export const MAX_SLOTS_RANGE_DAYS = 62;

/** Messages of the slots calls' query (issue 22). */
export const SLOTS_MESSAGES = {
  from: 'from is not a date and time (an ISO 8601 instant such as 2026-12-01T00:00:00Z).',
  to: 'to is not a date and time (an ISO 8601 instant such as 2026-12-01T00:00:00Z).',
  order: 'to must be after from.',
  range: `from and to can be at most ${MAX_SLOTS_RANGE_DAYS} days apart.`,
  tz: 'tz is not a known time zone (an IANA name such as America/New_York).',
} as const;

/** An ISO 8601 date and time with a zone (Z or ±hh:mm), e.g. 2026-12-01T00:00:00Z. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

const instant = (message: string) =>
  z
    .string({ error: message })
    .refine((v) => INSTANT.test(v) && Number.isFinite(new Date(v).getTime()), message);

/**
 * GET …/activities/{id}/slots?from&to&tz: the instants [from, to) to answer (at most
 * MAX_SLOTS_RANGE_DAYS apart) and the zone to group the slots by day in (default: the location's).
 */
export const slotsQuerySchema = z
  .object({
    from: instant(SLOTS_MESSAGES.from).describe('ISO 8601 instant: the first start asked for (inclusive)'),
    to: instant(SLOTS_MESSAGES.to).describe(`ISO 8601 instant: starts before it (at most ${MAX_SLOTS_RANGE_DAYS} days after from)`),
    tz: z
      .string({ error: SLOTS_MESSAGES.tz })
      .refine((v) => v.length <= 64 && isValidTimeZone(v), SLOTS_MESSAGES.tz)
      .optional()
      .describe("IANA zone the days are counted in (default: the location's)"),
  })
  .superRefine((q, ctx) => {
    const from = new Date(q.from).getTime();
    const to = new Date(q.to).getTime();
    if (!Number.isFinite(from) || !Number.isFinite(to)) return;
    if (!(from < to)) ctx.addIssue({ code: 'custom', path: ['to'], message: SLOTS_MESSAGES.order });
    else if (to - from > MAX_SLOTS_RANGE_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: SLOTS_MESSAGES.range });
  });
export type SlotsQueryInput = z.input<typeof slotsQuerySchema>;
export type SlotsQuery = z.output<typeof slotsQuerySchema>;

/** The answer of the slots calls. */
export const slotsOutSchema = z.object({
  zone: z.string().describe("The location's IANA zone (the availability's)"),
  display_zone: z.string().describe('The zone the days are counted in (tz)'),
  slots: z.array(z.object({ starts_at: z.string(), ends_at: z.string() })).describe('Free starts, earliest first (ISO instants)'),
  days: z
    .array(z.object({ date: z.string().describe('yyyy-MM-dd in display_zone'), slots: z.array(z.string()) }))
    .describe('The same starts grouped by their date in display_zone'),
});
export type SlotsOut = z.output<typeof slotsOutSchema>;
