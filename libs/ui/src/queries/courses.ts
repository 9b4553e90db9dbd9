import type { paths } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/*
 * Shared: the courses reads that the shell's Courses pages (list, detail and sessions), the courses
 * remote's drawers and the orders remote's discount picker all make. The courses remote owns the
 * key factory and the saves (mfe-courses/src/api/courses.ts); its saves refresh these reads through
 * the same openapi-react-query keys, `[method, path, init]`.
 */
const LIST = '/api/admin/activities';
const DETAIL = '/api/admin/activities/{activity_id}';
const SESSIONS = '/api/admin/activities/{activity_id}/sessions';

/** Spec 001 §9: sessions limit 10000. */
export const SESSIONS_LIMIT = 10000;

/** The Courses page's query: search, sort and page, applied by the server (none: the pickers' whole list). */
export type CourseListQuery = NonNullable<paths[typeof LIST]['get']['parameters']['query']>;

export const courseQueries = {
  list: (query?: CourseListQuery) =>
    $api.queryOptions('get', LIST, query ? { params: { query } } : undefined),
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { activity_id: id } } }),
  /** With `includeCancelled`, the sessions the studio cancelled too (the course page; never the share drawer's picker). */
  sessions: (id: string, includePast: boolean, includeCancelled = false) =>
    $api.queryOptions('get', SESSIONS, {
      params: {
        path: { activity_id: id },
        query: {
          include_past: includePast ? 'true' : 'false',
          limit: SESSIONS_LIMIT,
          ...(includeCancelled ? { include_cancelled: 'true' as const } : {}),
        },
      },
    }),
};
