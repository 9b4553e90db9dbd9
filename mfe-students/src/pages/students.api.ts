import type { components } from '@studio/contracts';
import { $api, keepPreviousData, useQuery, useQueryClient } from '@studio/ui';

/* The Students page's list and its New student save: the shell alone reads and creates here. */
const LIST = '/api/admin/student';
export const studentKeys = { lists: () => ['get', LIST] as const };

export type StudentListPage = components['schemas']['StudentListDto_Output'];
export type StudentListRow = StudentListPage['students'][number];
export type CreatedStudent = components['schemas']['StudentOutDto_Output'];

export interface StudentListParams {
  search: string;
  page: number;
  limit: number;
  /** The previous page's `next_cursor`: the page starts after its last student (keyset). */
  cursor?: string;
}

/** One page of the organization's students, searched and paged by the server; the previous page stays while the next loads. */
export function useStudentPage({ search, page, limit, cursor }: StudentListParams) {
  return useQuery({
    ...$api.queryOptions('get', LIST, {
      params: {
        query: {
          page,
          limit,
          ...(cursor ? { cursor } : {}),
          ...(search.trim() ? { search: search.trim() } : {}),
        },
      },
    }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/admin/student; a success refreshes every students list. */
export function useCreateStudent() {
  const queryClient = useQueryClient();
  return $api.useMutation('post', LIST, {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studentKeys.lists() }),
  });
}
