import { type AdminCancelPayload, type AdminReschedulePayload, type components } from '@studio/contracts';
import { $api, answer, api, useMutation, useQuery, useQueryClient } from '@studio/ui';
import { refreshEvent } from './events';

/*
 * A booking after it was made (issue 23), as the event drawer's Cancel booking, Modify booking and
 * Move students read and change it: the policies' terms, and mutations that refresh the sessions
 * they changed (their grids and seat counts).
 */
const TERMS = '/api/admin/enrollment/{enrollment_id}/booking';

export type BookingTerms = components['schemas']['BookingTermsDto_Output'];
export type MoveStudentsAnswer = components['schemas']['MoveStudentsResultDto_Output'];

const byEnrollment = (enrollment_id: string) => ({ params: { path: { enrollment_id } } });

export const bookingKeys = {
  terms: (enrollmentId: string) => ['get', TERMS, byEnrollment(enrollmentId)] as const,
};

/** GET …/enrollment/{id}/booking: the policies' figures now and the sessions it may move to. */
export function useBookingTerms(enrollmentId: string) {
  return useQuery({ ...$api.queryOptions('get', TERMS, byEnrollment(enrollmentId)), staleTime: 0 });
}

/** Cancel booking: the policy's refund, or an owner's amount; the session reads again. */
export function useCancelBooking(eventId: string, enrollmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminCancelPayload): Promise<void> =>
      answer(api.POST('/api/admin/enrollment/{enrollment_id}/booking/cancel', { ...byEnrollment(enrollmentId), body })),
    onSuccess: () => void refreshEvent(queryClient, eventId),
  });
}

/** Modify booking: to another session of the course; both sessions read again. */
export function useRescheduleBooking(eventId: string, enrollmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminReschedulePayload): Promise<void> =>
      answer(api.POST('/api/admin/enrollment/{enrollment_id}/booking/reschedule', { ...byEnrollment(enrollmentId), body })),
    onSuccess: (_, body) =>
      void Promise.all([refreshEvent(queryClient, eventId), body.event_id ? refreshEvent(queryClient, body.event_id) : null]),
  });
}

/** Move students: one, some or all to another session (all or nothing); both sessions read again. */
export function useMoveStudents(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { to_event_id: string; enrollment_ids?: string[] }): Promise<MoveStudentsAnswer> =>
      answer(api.POST('/api/admin/events/{event_id}/move-students', { params: { path: { event_id: eventId } }, body })),
    onSuccess: (_, body) => void Promise.all([refreshEvent(queryClient, eventId), refreshEvent(queryClient, body.to_event_id)]),
  });
}
