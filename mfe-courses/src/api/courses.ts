import type { CourseCreatePayload, CourseImagesUpdateInput, CourseUpdatePayload } from '@studio/contracts';
import {
  answer,
  api,
  useMutation,
  useQueryClient,
  type CourseDetail,
  type CreatedCourse,
  type paths,
  type QueryClient,
} from '@studio/ui';

/*
 * Courses (activities) as this remote's drawers save them (Medusa dashboard `hooks/api/*.tsx`): a
 * query-key factory and mutation hooks that refresh their own lists and details. The reads the
 * shell's Courses pages and other remotes' pickers share stay in @studio/ui (`courseQueries`); the
 * keys are openapi-react-query's `[method, path, init]`, so these cover them whichever package built them.
 */
const LIST = '/api/admin/activities';
const DETAIL = '/api/admin/activities/{activity_id}';
const SESSIONS = '/api/admin/activities/{activity_id}/sessions';

export const courseKeys = {
  lists: () => ['get', LIST] as const,
  details: () => ['get', DETAIL] as const,
  detail: (id: string) => ['get', DETAIL, { params: { path: { activity_id: id } } }] as const,
  /** Every course's sessions lists (past included or not). */
  allSessions: () => ['get', SESSIONS] as const,
  sessions: (id: string) => ['get', SESSIONS, { params: { path: { activity_id: id } } }] as const,
};

/** After a course is created or saved: its lists, its detail and its sessions read again. */
export function refreshCourse(queryClient: QueryClient, id?: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: courseKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: id ? courseKeys.detail(id) : courseKeys.details() }),
    ...(id ? [queryClient.invalidateQueries({ queryKey: courseKeys.sessions(id) })] : []),
  ]);
}

type CreateBody = paths[typeof LIST]['post']['requestBody']['content']['application/json'];
const byId = (activity_id: string) => ({ params: { path: { activity_id } } });

/** POST /api/admin/activities; the courses lists read again. */
export function useCreateCourse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: CourseCreatePayload): Promise<CreatedCourse> => {
      // The schema checks the start time against the 15-minute grid with a refine; the document lists the grid.
      const body = {
        ...payload,
        default_start_time: payload.default_start_time as CreateBody['default_start_time'],
      };
      return answer(api.POST(LIST, { body }));
    },
    onSuccess: () => void refreshCourse(queryClient),
  });
}

/** PUT /api/admin/activities/{activity_id}: the Edit Course form's save. */
export function useUpdateCourse(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CourseUpdatePayload): Promise<CourseDetail> =>
      answer(api.PUT(DETAIL, { ...byId(id), body })),
    onSuccess: () => void refreshCourse(queryClient, id),
  });
}

/** The images-only save of edit mode, sent at once on each upload, delete or move (spec 001 §7). */
export function useSaveCourseImages(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CourseImagesUpdateInput): Promise<CourseDetail> =>
      answer(api.PUT(DETAIL, { ...byId(id), body })),
    onSuccess: () => void refreshCourse(queryClient, id),
  });
}

/** The chat alert for a new course (spec 001 §7); it must never fail the creation itself. */
export async function alertNewCourse(name: string): Promise<void> {
  try {
    await answer(
      api.POST('/api/slack-alert-new-course', { body: { message: `New course created: ${name}` } }),
    );
  } catch (error) {
    console.error('The new-course chat alert failed', error);
  }
}
