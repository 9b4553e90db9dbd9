import type { AppointmentOut, CalendarOut } from '@studio/contracts';
import { $api, answer, api, useMutation, useQueryClient, type QueryClient } from '@studio/ui';

/*
 * Appointments (issue 22) as this remote's Booking card and Calendar page read them. The changes
 * (hold, move, cancel) are the students remote's dialogs, whose mutations refresh these same keys
 * (openapi-react-query's `[method, path, init]`); `refreshAppointments` is what a caller runs in the
 * dialogs' `onDone` too, so the lists here never wait for a stale time.
 */
const COURSE_APPOINTMENTS = '/api/admin/activities/{activity_id}/appointments';
const APPOINTMENT = '/api/admin/appointments/{appointment_id}';
const CALENDAR = '/api/admin/calendar';
const SLOTS = '/api/admin/activities/{activity_id}/slots';

export type { AppointmentOut, CalendarOut };
export type CalendarItem = CalendarOut['items'][number];

export interface CalendarFilter {
  from: string;
  to: string;
  instructor_id?: string;
  location_id?: string;
}

export const appointmentKeys = {
  forCourse: (activityId: string) =>
    ['get', COURSE_APPOINTMENTS, { params: { path: { activity_id: activityId } } }] as const,
  calendar: () => ['get', CALENDAR] as const,
};

export const appointmentQueries = {
  /** The course's upcoming appointments (held and booked), earliest first. */
  forCourse: (activityId: string) =>
    $api.queryOptions('get', COURSE_APPOINTMENTS, { params: { path: { activity_id: activityId } } }),
  detail: (id: string) => $api.queryOptions('get', APPOINTMENT, { params: { path: { appointment_id: id } } }),
  /** Sessions and appointments overlapping [from, to), in the organization's zone. */
  calendar: ({ from, to, instructor_id, location_id }: CalendarFilter) =>
    $api.queryOptions('get', CALENDAR, {
      params: {
        query: {
          from,
          to,
          ...(instructor_id ? { instructor_id } : {}),
          ...(location_id ? { location_id } : {}),
        },
      },
    }),
};

/** After an appointment is added, moved or removed: its course's list, the calendar and the free times read again. */
export function refreshAppointments(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [COURSE_APPOINTMENTS, APPOINTMENT, CALENDAR, SLOTS].map((path) =>
      queryClient.invalidateQueries({ queryKey: ['get', path] }),
    ),
  );
}

/**
 * PUT (check in) or DELETE (undo) /api/admin/appointments/{appointment_id}/check-in (issue 23), both
 * idempotent; the lists of appointments read again. 409 when it is no longer booked.
 */
export function useAppointmentCheckIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appointmentId, checkedIn }: { appointmentId: string; checkedIn: boolean }) => {
      const params = { params: { path: { appointment_id: appointmentId } } };
      return answer(
        checkedIn
          ? api.PUT('/api/admin/appointments/{appointment_id}/check-in', params)
          : api.DELETE('/api/admin/appointments/{appointment_id}/check-in', params),
      );
    },
    onSuccess: () => refreshAppointments(queryClient),
  });
}
