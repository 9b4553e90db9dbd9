import { z } from 'zod';
import { safeText } from '../safe-input';

/** Columns the Courses list sorts by, in SQL (GET /api/admin/activities?sortField=...). */
export const COURSE_SORT_FIELDS = ['created_at', 'name', 'unit_price', 'capacity'] as const;
export type CourseSortField = (typeof COURSE_SORT_FIELDS)[number];

/** The Courses page asks for this many rows a page. */
export const COURSE_PAGE_SIZE = 20;
/**
 * Without `limit` the list answers up to this many courses, newest first: the pickers of spec 001
 * (share drawer) read the whole list by name and id.
 */
export const COURSE_LIST_MAX_LIMIT = 1000;

export const COURSE_LIST_MESSAGES = {
  page: 'Page must be a whole number from 1.',
  limit: `Limit must be between 1 and ${COURSE_LIST_MAX_LIMIT}.`,
  sortField: `Sort by one of: ${COURSE_SORT_FIELDS.join(', ')}.`,
  sortOrder: 'Sort order is asc or desc.',
  search: 'Search is at most 200 characters.',
} as const;

const M = COURSE_LIST_MESSAGES;

/** Query of the Courses list: search (name), sort and page, all applied in SQL. */
export const courseListQuerySchema = z
  .object({
    page: z.coerce
      .number({ error: M.page })
      .int(M.page)
      .min(1, M.page)
      .max(1_000_000, M.page)
      .optional()
      .default(1),
    limit: z.coerce
      .number({ error: M.limit })
      .int(M.limit)
      .min(1, M.limit)
      .max(COURSE_LIST_MAX_LIMIT, M.limit)
      .optional()
      .default(COURSE_LIST_MAX_LIMIT),
    search: safeText({ error: M.search }).trim().max(200, M.search).optional(),
    sortField: z.enum(COURSE_SORT_FIELDS, { error: M.sortField }).optional().default('created_at'),
    sortOrder: z
      .enum(['asc', 'desc', 'ascend', 'descend', 'ASC', 'DESC'], { error: M.sortOrder })
      .optional()
      .transform((v) =>
        v === undefined
          ? undefined
          : v.toLowerCase().startsWith('desc')
            ? ('desc' as const)
            : ('asc' as const),
      ),
  })
  .strict();
export type CourseListQuery = z.output<typeof courseListQuerySchema>;
