import type {
  AppointmentCancelPayload,
  AppointmentCreatePayload,
  AppointmentMovePayload,
  AppointmentOut,
} from '@studio/contracts';
import { $api, answer, api, useMutation, useQueryClient, type QueryClient } from '@studio/ui';

/*
 * The admin's appointment calls (issue 22, libs/contracts appointment.schema.ts) as the students
 * remote's dialogs make them: the free times of a course, hold a time for a student, move, cancel.
 * Keys are openapi-react-query's `[method, path, init]`, so the courses remote's Booking card and
 * Calendar page (which read the lists) are refreshed by the same prefixes.
 */
const SLOTS = '/api/admin/activities/{activity_id}/slots';
const COURSE_APPOINTMENTS = '/api/admin/activities/{activity_id}/appointments';
const APPOINTMENT = '/api/admin/appointments/{appointment_id}';
const CALENDAR = '/api/admin/calendar';

/** The free starts of an appointment course in [from, to), grouped by day in the course location's zone. */
export const slotsQuery = (activityId: string, from: string, to: string) =>
  $api.queryOptions('get', SLOTS, { params: { path: { activity_id: activityId }, query: { from, to } } });

/**
 * After an appointment is held, moved or cancelled: the free times, the course's appointments, the
 * appointment itself and the calendar read again (in whichever remote shows them).
 */
export function refreshAppointments(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [SLOTS, COURSE_APPOINTMENTS, APPOINTMENT, CALENDAR].map((path) =>
      queryClient.invalidateQueries({ queryKey: ['get', path] }),
    ),
  );
}

/** Holds a free start for a student (ADMIN_APPOINTMENT_HOLD_MINUTES) before enroll or invoice. */
export function holdAppointment(activityId: string, body: AppointmentCreatePayload): Promise<AppointmentOut> {
  return answer(api.POST(COURSE_APPOINTMENTS, { params: { path: { activity_id: activityId } }, body }));
}

/** Cancels an appointment; with `refund`, the order is refunded in the same operation. */
export async function cancelAppointment(id: string, body: AppointmentCancelPayload = {}): Promise<void> {
  await answer(api.DELETE(APPOINTMENT, { params: { path: { appointment_id: id } }, body }));
}

/** POST …/move: another free start of the same course; the lists and free times read again. */
export function useMoveAppointment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppointmentMovePayload): Promise<AppointmentOut> =>
      answer(api.POST(`${APPOINTMENT}/move`, { params: { path: { appointment_id: id } }, body })),
    onSuccess: () => void refreshAppointments(queryClient),
  });
}

/** DELETE …: Remove student on an appointment (with the removal's refund); the lists read again. */
export function useCancelAppointment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppointmentCancelPayload) => cancelAppointment(id, body),
    onSuccess: () => void refreshAppointments(queryClient),
  });
}

/** What Remove student on an appointment offers to refund: the server's quote, as for a session. */
export const appointmentRefundQuoteQuery = (id: string) =>
  $api.queryOptions('get', `${APPOINTMENT}/refund-quote`, { params: { path: { appointment_id: id } } });
