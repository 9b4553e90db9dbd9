import type { QueryClient } from '@tanstack/react-query';
import type { paths } from '@studio/contracts/src/generated/api';
import { $api } from '../api/query-client';

/* Courses (activities): query-key factory and invalidation (Medusa dashboard pattern). */
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
  sessions: (id: string, includePast: boolean) =>
    $api.queryOptions('get', SESSIONS, {
      params: {
        path: { activity_id: id },
        query: { include_past: includePast ? 'true' : 'false', limit: SESSIONS_LIMIT },
      },
    }),
};

export const courseKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { activity_id: id } } }] as const,
  sessions: (id: string) => ['get', SESSIONS, { params: { path: { activity_id: id } } }] as const,
};

/** After a course is created or saved: its list, its detail and its sessions read again. */
export function invalidateCourse(client: QueryClient, id?: string): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: courseKeys.lists() }),
    client.invalidateQueries({ queryKey: id ? courseKeys.detail(id) : courseKeys.details() }),
    ...(id ? [client.invalidateQueries({ queryKey: courseKeys.sessions(id) })] : []),
  ]).then(() => undefined);
}
