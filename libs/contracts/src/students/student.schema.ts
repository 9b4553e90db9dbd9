import { z } from 'zod';
import { safeText } from '../safe-input';

export const STUDENT_MESSAGES = {
  firstNameRequired: 'A first name is required.',
  lastNameRequired: 'A last name is required.',
  nameTooLong: 'Names are at most 100 characters.',
  email: 'Enter a valid email address',
  emailTaken: 'A student with this email already exists.',
  created: 'Student added',
  createFailed: 'Could not add the student. Please try again.',
  page: 'Page must be a whole number from 1.',
  limit: 'Limit must be between 1 and 100.',
  search: 'Search is at most 200 characters.',
} as const;

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
  })
  .strict();
export type StudentListQuery = z.output<typeof studentListQuerySchema>;
