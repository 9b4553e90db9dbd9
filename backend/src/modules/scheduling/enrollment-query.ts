import {
  ENROLLMENT_FILTER_COLUMNS,
  ENROLLMENT_PAGE_SIZE,
  ENROLLMENT_SORT_FIELDS,
  WAIVER_STATUS_VALUES,
} from './enrollment-columns';
import { ATTENDANCE_VALUES, MAX_GUESTS, MAX_PAGE, queryCount, safeText, SCHEDULING_MESSAGES } from '@studio/contracts';
import { ZodValidationException } from 'nestjs-zod';
import { z } from 'zod';

const querySchema = z
  .object({
    page: queryCount({ error: 'Page must be a whole number from 1.', min: 1, max: MAX_PAGE })
      .optional()
      .default(1),
    limit: queryCount({ error: 'Limit must be between 1 and 100.', min: 1, max: 100 })
      .optional()
      .default(ENROLLMENT_PAGE_SIZE),
    search: safeText().trim().max(200).optional(),
    sortField: z
      .enum(ENROLLMENT_SORT_FIELDS, { error: `Sort by one of: ${ENROLLMENT_SORT_FIELDS.join(', ')}.` })
      .optional()
      .default('created_at'),
    sortOrder: z
      .enum(['asc', 'desc', 'ascend', 'descend', 'ASC', 'DESC'], { error: 'Sort order is asc or desc.' })
      .optional()
      .default('asc')
      .transform((v) => (v.toLowerCase().startsWith('desc') ? ('desc' as const) : ('asc' as const))),
    filter: z
      .object({
        first_name: safeText().max(100).optional(),
        last_name: safeText().max(100).optional(),
        email: safeText().max(200).optional(),
        phone: safeText().max(40).optional(),
        waiverStatus: z
          .enum(WAIVER_STATUS_VALUES, {
            error: `Waiver status is one of: ${WAIVER_STATUS_VALUES.join(', ')}.`,
          })
          .optional(),
        guestCount: queryCount({
          error: SCHEDULING_MESSAGES.guestCountMin,
          min: 0,
          max: MAX_GUESTS,
          tooLarge: SCHEDULING_MESSAGES.guestCountMax,
        }).optional(),
        attendance: z
          .enum(ATTENDANCE_VALUES, { error: `Attendance is one of: ${ATTENDANCE_VALUES.join(', ')}.` })
          .optional(),
      })
      .strict()
      .optional()
      .default({}),
  })
  .strict();

export type EnrollmentQuery = z.output<typeof querySchema>;

/**
 * Reads `?page&limit&search&sortField&sortOrder&filter[column]=value`, whether the query parser
 * nested `filter` or left `filter[column]` keys flat.
 */
export function parseEnrollmentQuery(raw: Record<string, unknown>): EnrollmentQuery {
  const shaped: Record<string, unknown> = {};
  const filter: Record<string, unknown> =
    typeof raw.filter === 'object' && raw.filter !== null ? { ...(raw.filter as object) } : {};
  for (const [key, value] of Object.entries(raw)) {
    const match = /^filter\[(\w+)\]$/.exec(key);
    if (match) filter[match[1]] = value;
    else if (key !== 'filter') shaped[key] = value;
  }
  if (Object.keys(filter).length) shaped.filter = filter;
  const parsed = querySchema.safeParse(shaped);
  if (!parsed.success) throw new ZodValidationException(parsed.error);
  return parsed.data;
}

export { ENROLLMENT_FILTER_COLUMNS };
