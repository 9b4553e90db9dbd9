import type { QueryClient } from '@tanstack/react-query';
import { $api } from '../api/query-client';

/* Students: query-key factory and invalidation. */
const LIST = '/api/admin/student';
const DETAIL = '/api/admin/student/{student_id}';

export const studentQueries = {
  list: (query: { search?: string; page?: number; limit?: number }) =>
    $api.queryOptions('get', LIST, { params: { query } }),
  detail: (id: string) => $api.queryOptions('get', DETAIL, { params: { path: { student_id: id } } }),
};

export const studentKeys = {
  lists: () => ['get', LIST] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { student_id: id } } }] as const,
};

/** After a student is created or renamed: the lists and its detail read again. */
export function invalidateStudent(client: QueryClient, id?: string): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: studentKeys.lists() }),
    ...(id ? [client.invalidateQueries({ queryKey: studentKeys.detail(id) })] : []),
  ]).then(() => undefined);
}
