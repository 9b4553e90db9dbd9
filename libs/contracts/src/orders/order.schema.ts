import { z } from 'zod';
import { dateTimeInput, dateTimeIsAfter } from '../date-time-input';
import { MAX_PAGE, queryCount, safeText } from '../safe-input';

/*
 * Orders (issue 9, spec 001 §3, §4): the statuses, the sources, and the query of the Orders page
 * (GET /api/admin/orders). Each rule and its message lives here once, for the API and the page.
 */

/** Spec 001 §4. Only paid and partial_refund orders can be refunded. */
export const ORDER_STATUSES = ['pending', 'failed', 'paid', 'refunded', 'partial_refund', 'fraudulent'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The label and Tag colour of each status on the Orders page and in the order drawer. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'gold' },
  failed: { label: 'Failed', color: 'red' },
  paid: { label: 'Paid', color: 'green' },
  refunded: { label: 'Refunded', color: 'default' },
  partial_refund: { label: 'Partially refunded', color: 'blue' },
  fraudulent: { label: 'Fraudulent', color: 'volcano' },
};

/** Orders made in the back office or the studio's own checkout; synced orders carry the service's name. */
export const WORKBENCH_SOURCE = 'workbench';

/**
 * An order's source as an owner reads it (issue 25: "workbench" was shown raw): the studio's own
 * sales read "This studio", a ticketing service its name. The API keeps the value.
 */
export function orderSourceLabel(source: string): string {
  if (source === WORKBENCH_SOURCE) return 'This studio';
  if (source === 'eventbrite') return 'Eventbrite';
  return source ? source.charAt(0).toUpperCase() + source.slice(1) : source;
}

/** What an order line sells: a seat in a session, a product, or an appointment (its time is on the appointment). */
export const ORDER_LINE_KINDS = ['seat', 'product', 'appointment'] as const;
export type OrderLineKind = (typeof ORDER_LINE_KINDS)[number];

/** Columns the Orders page sorts by, in SQL. */
export const ORDER_SORT_FIELDS = ['created_at', 'order_number', 'total'] as const;
export type OrderSortField = (typeof ORDER_SORT_FIELDS)[number];

export const ORDER_PAGE_SIZE = 20;
export const ORDER_LIST_MAX_LIMIT = 100;

export const ORDER_MESSAGES = {
  page: 'Page must be a whole number from 1.',
  limit: `Limit must be between 1 and ${ORDER_LIST_MAX_LIMIT}.`,
  search: 'Search is at most 200 characters.',
  status: `Status is one of: ${ORDER_STATUSES.join(', ')}.`,
  source: 'Source is at most 50 characters.',
  date: 'Not a date and time: use YYYY-MM-DDTHH:mm (read in the organization’s time zone) or an ISO 8601 instant with its offset, e.g. 2026-01-31T00:00 or 2026-01-31T05:00:00Z.',
  dateRequired: 'A date and time is required when the filter is sent.',
  dateRange: 'The start of the date range must not be after its end.',
  sortField: `Sort by one of: ${ORDER_SORT_FIELDS.join(', ')}.`,
  sortOrder: 'Sort order is asc or desc.',
  cursor: 'This page link is no longer valid; start again from the first page.',
  notFound: 'Order not found',
  receiptNotFound: 'Receipt URL not found',
  soldThrough: (source: string) => `Sold through ${source}`,
} as const;

const M = ORDER_MESSAGES;

/** An instant, or a wall-clock time read in the organization's zone (dateTimeInstant on the server). */
const instant = dateTimeInput({ required: M.dateRequired, invalid: M.date });

/**
 * Where the next page of the Orders page starts (keyset paging): the sort it was made for, the last
 * row's sort key (microseconds since the epoch for created_at, else the number or the total in
 * cents) and its id. Opaque to the browser: it sends back the `next_cursor` the API gave it.
 */
export interface OrderCursor {
  f: OrderSortField;
  o: 'asc' | 'desc';
  k: number;
  id: string;
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor the API hands out after a page ending on this row. */
export function encodeOrderCursor(cursor: OrderCursor): string {
  const json = JSON.stringify({ f: cursor.f, o: cursor.o, k: cursor.k, id: cursor.id });
  return btoa(json).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor back from its text, or null when it is not one the API could have made. */
export function decodeOrderCursor(text: string): OrderCursor | null {
  try {
    const value: unknown = JSON.parse(atob(text.replace(/-/g, '+').replace(/_/g, '/')));
    if (typeof value !== 'object' || value === null) return null;
    const { f, o, k, id } = value as Record<string, unknown>;
    if (!(ORDER_SORT_FIELDS as readonly unknown[]).includes(f) || (o !== 'asc' && o !== 'desc')) return null;
    if (typeof k !== 'number' || !Number.isSafeInteger(k) || typeof id !== 'string' || !UUID_SHAPE.test(id)) return null;
    return { f: f as OrderSortField, o, k, id: id.toLowerCase() };
  } catch {
    return null;
  }
}

/** Query of the Orders page: search, filters, sort and page, all applied in SQL. */
export const orderListQuerySchema = z
  .object({
    page: queryCount({ error: M.page, min: 1, max: MAX_PAGE }).optional().default(1),
    limit: queryCount({ error: M.limit, min: 1, max: ORDER_LIST_MAX_LIMIT }).optional().default(ORDER_PAGE_SIZE),
    /** Order number, or any part of the student's name or email. */
    search: safeText({ error: M.search }).trim().max(200, M.search).optional(),
    status: z.enum(ORDER_STATUSES, { error: M.status }).optional(),
    source: safeText({ error: M.source }).trim().min(1, M.source).max(50, M.source).optional(),
    /** Created at or after this instant. */
    created_from: instant.optional(),
    /** Created before this instant. */
    created_to: instant.optional(),
    sortField: z.enum(ORDER_SORT_FIELDS, { error: M.sortField }).optional().default('created_at'),
    sortOrder: z.enum(['asc', 'desc'], { error: M.sortOrder }).optional().default('desc'),
    /** The `next_cursor` of the previous page: the page starts after its row (keyset), not at an offset. */
    cursor: z
      .string({ error: M.cursor })
      .max(300, M.cursor)
      .regex(/^[A-Za-z0-9_-]+$/, M.cursor)
      .transform((text, ctx) => {
        const cursor = decodeOrderCursor(text);
        if (!cursor) ctx.addIssue({ code: 'custom', message: M.cursor });
        return cursor ?? undefined;
      })
      .optional(),
  })
  .strict()
  .refine((q) => !q.cursor || (q.cursor.f === q.sortField && q.cursor.o === q.sortOrder), {
    message: M.cursor,
    path: ['cursor'],
  })
  .refine((q) => !q.created_from || !q.created_to || dateTimeIsAfter(q.created_from, q.created_to) !== true, {
    message: M.dateRange,
    path: ['created_to'],
  });
export type OrderListQuery = z.output<typeof orderListQuerySchema>;
export type OrderListQueryInput = z.input<typeof orderListQuerySchema>;
