import type { instructorSchema, locationSchema, paths, waiverSchema } from '@studio/contracts';
import { answer, api, instructorKeys, locationKeys, useMutation, useQueryClient } from '@studio/ui';

/* What the forms hand over after the zod resolver parsed them (defaults filled in). */
export type LocationBody = ReturnType<(typeof locationSchema)['parse']>;
export type InstructorBody = ReturnType<(typeof instructorSchema)['parse']>;
export type WaiverBody = ReturnType<(typeof waiverSchema)['parse']>;

/** POST a new location, or PUT an existing one (`id`); every locations list (page and pickers) reads again. */
export function useSaveLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: LocationBody }): Promise<unknown> =>
      answer(
        id
          ? api.PUT('/api/admin/location/{location_id}', { params: { path: { location_id: id } }, body })
          : api.POST('/api/admin/location', { body }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: locationKeys.lists() }),
  });
}

/** POST a new instructor, or PUT an existing one (`id`); every instructors list (page and pickers) reads again. */
export function useSaveInstructor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: InstructorBody }): Promise<unknown> =>
      answer(
        id
          ? api.PUT('/api/admin/instructor/{instructor_id}', {
              params: { path: { instructor_id: id } },
              body,
            })
          : api.POST('/api/admin/instructor', { body }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: instructorKeys.lists() }),
  });
}

/** POST a waiver template; answers its template_id (the course form selects it). */
export function createWaiver(body: WaiverBody) {
  return answer(api.POST('/api/admin/waiver', { body }));
}

type DocumentUploadBody = NonNullable<
  paths['/api/admin/upload/document']['post']['requestBody']
>['content']['multipart/form-data'];

/**
 * POST /api/admin/upload/document as multipart (field `file`): a waiver's PDF; answers its url (the
 * waiver's document_url). The generated type names the binary field a string, the browser sends the File.
 */
export function uploadDocument(file: File) {
  const form = new FormData();
  form.append('file', file);
  return answer(api.POST('/api/admin/upload/document', { body: form as unknown as DocumentUploadBody }));
}

