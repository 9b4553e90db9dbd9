import type { availabilitySchema } from '@studio/contracts';
import { $api, answer, api, useMutation, useQueryClient } from '@studio/ui';

const AVAILABILITY = '/api/admin/instructor/{instructor_id}/availability';
export type AvailabilityBody = ReturnType<(typeof availabilitySchema)['parse']>;

/** GET an instructor's bookable hours (weekly and date overrides; none set: every day closed). */
export const instructorAvailabilityQuery = (instructorId: string) =>
  $api.queryOptions('get', AVAILABILITY, { params: { path: { instructor_id: instructorId } } });

/** PUT an instructor's bookable hours; the answer (the hours as saved) becomes the cached read. */
export function useSaveInstructorAvailability(instructorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AvailabilityBody) =>
      answer(api.PUT(AVAILABILITY, { params: { path: { instructor_id: instructorId } }, body })),
    onSuccess: (saved) => queryClient.setQueryData(instructorAvailabilityQuery(instructorId).queryKey, saved),
  });
}
