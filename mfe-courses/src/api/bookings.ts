import { type AdminCancelPayload, type AdminReschedulePayload, type components } from '@studio/contracts';
import { $api, answer, api, useMutation, useQuery, useQueryClient } from '@studio/ui';
import { refreshEvent } from './events';

/*
 * A booking after it was made (issue 23), as the event drawer's Cancel booking, Modify booking and
 * Move students read and change it: the policies' terms, and mutations that refresh the sessions
 * they changed (their grids and seat counts).
 */
const TERMS = '/api/admin/enrollment/{enrollment_id}/booking';
const APPOINTMENT_TERMS = '/api/admin/appointments/{appointment_id}/booking';

export type BookingTerms = components['schemas']['BookingTermsDto_Output'];
export type MoveStudentsAnswer = components['schemas']['MoveStudentsResultDto_Output'];
/** A session's enrollment, or an appointment. */
export type BookingRef = { kind: 'enrollment' | 'appointment'; id: string };

const byEnrollment = (enrollment_id: string) => ({ params: { path: { enrollment_id } } });
const byAppointment = (appointment_id: string) => ({ params: { path: { appointment_id } } });

export const bookingKeys = {
  terms: (enrollmentId: string) => ['get', TERMS, byEnrollment(enrollmentId)] as const,
};

/** GET …/enrollment/{id}/booking (or …/appointments/{id}/booking): the policies' figures now and where it may move. */
export function useBookingTerms(booking: BookingRef) {
  const enrollment = useQuery({ ...$api.queryOptions('get', TERMS, byEnrollment(booking.id)), staleTime: 0, enabled: booking.kind === 'enrollment' });
  const appointment = useQuery({
    ...$api.queryOptions('get', APPOINTMENT_TERMS, byAppointment(booking.id)),
    staleTime: 0,
    enabled: booking.kind === 'appointment',
  });
  return booking.kind === 'enrollment' ? enrollment : appointment;
}

/** Cancel booking: the policy's refund, or an owner's amount; the session (when there is one) reads again, then `onChanged`. */
export function useCancelBooking(booking: BookingRef, eventId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminCancelPayload): Promise<void> =>
      booking.kind === 'enrollment'
        ? answer(api.POST('/api/admin/enrollment/{enrollment_id}/booking/cancel', { ...byEnrollment(booking.id), body }))
        : answer(api.POST('/api/admin/appointments/{appointment_id}/booking/cancel', { ...byAppointment(booking.id), body })),
    onSuccess: () => (eventId ? void refreshEvent(queryClient, eventId) : undefined),
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
