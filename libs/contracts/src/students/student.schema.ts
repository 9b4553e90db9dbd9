import { z } from 'zod';
import { safeText } from '../safe-input';

import { STUDENT_MESSAGES } from './student-messages';

export { STUDENT_MESSAGES };

const M = STUDENT_MESSAGES;

/** The Students page asks for this many rows a page. */
export const STUDENT_PAGE_SIZE = 20;

export const studentNameSchema = z
  .object({
    first_name: safeText({ error: M.firstNameRequired })
      .trim()
      .min(1, M.firstNameRequired)
      .max(100, M.nameTooLong),
    last_name: safeText({ error: M.lastNameRequired })
      .trim()
      .min(1, M.lastNameRequired)
      .max(100, M.nameTooLong),
  })
  .strict();

/** POST /api/admin/student and the New student form: the email (stored lower-cased) is unique inside the organization. */
export const studentCreateSchema = z
  .object({
    first_name: studentNameSchema.shape.first_name,
    last_name: studentNameSchema.shape.last_name,
    email: z
      .string({ error: M.email })
      .trim()
      .max(254, M.email)
      .pipe(z.email({ error: M.email })),
    phone: safeText().trim().max(40).nullable().optional(),
  })
  .strict();
export type StudentCreateInput = z.input<typeof studentCreateSchema>;
export type StudentCreatePayload = z.output<typeof studentCreateSchema>;

/**
 * Where the next page of the Students page starts (keyset paging on last name, first name, id): the
 * last row's sort key. Opaque to the browser, which sends back the `next_cursor` the API gave it.
 */
export interface StudentCursor {
  last: string;
  first: string;
  id: string;
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURSOR_MAX = 3000;

/** The cursor the API hands out after a page ending on this student (UTF-8, base64url). */
export function encodeStudentCursor(cursor: StudentCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.last, cursor.first, cursor.id]));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor back from its text, or null when it is not one the API could have made. */
export function decodeStudentCursor(text: string): StudentCursor | null {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!Array.isArray(value) || value.length !== 3) return null;
    const [last, first, id] = value as unknown[];
    if (typeof last !== 'string' || typeof first !== 'string' || typeof id !== 'string' || !UUID_SHAPE.test(id)) return null;
    if (last.length > 1000 || first.length > 1000 || last.includes('\0') || first.includes('\0')) return null;
    return { last, first, id: id.toLowerCase() };
  } catch {
    return null;
  }
}

/** GET /api/admin/student: search (name or email), paged in SQL, by last name. */
export const studentListQuerySchema = z
  .object({
    search: safeText({ error: M.search }).trim().max(200, M.search).optional(),
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
      .max(100, M.limit)
      .optional()
      .default(STUDENT_PAGE_SIZE),
    /** The `next_cursor` of the previous page: the page starts after its last student (keyset), not at an offset. */
    cursor: z
      .string({ error: M.cursor })
      .max(CURSOR_MAX, M.cursor)
      .regex(/^[A-Za-z0-9_-]+$/, M.cursor)
      .transform((text, ctx) => {
        const cursor = decodeStudentCursor(text);
        if (!cursor) ctx.addIssue({ code: 'custom', message: M.cursor });
        return cursor ?? undefined;
      })
      .optional(),
  })
  .strict();
export type StudentListQuery = z.output<typeof studentListQuerySchema>;
