import { EXPORT_FILE_NAME, type components, type EventUpdateInput } from '@studio/contracts';
import { apiFetch, downloadFile } from '@studio/ui';
import { enrollmentQueryString, type EnrollmentQuery } from './enrollment-query';

type Schemas = components['schemas'];
/** The generated type says string[] for this nullable column; the API sends a string or null. */
export type EventDetail = Omit<Schemas['EventOutDto_Output'], 'internal_short_description'> & {
  internal_short_description: string | null;
};
export type EnrollmentPage = Schemas['EnrollmentPageDto_Output'];
export type EnrollmentRow = EnrollmentPage['enrollments'][number];
export type DeletedEvent = Schemas['DeletedEventDto_Output'];
export type GuestCountAnswer = Schemas['GuestCountOutDto_Output'];

const eventPath = (id: string) => `/api/admin/events/${encodeURIComponent(id)}`;

export function fetchEvent(id: string): Promise<EventDetail> {
  return apiFetch<EventDetail>(eventPath(id));
}

/** Price in cents; changes apply to future orders only (spec 001 §4). */
export function updateEvent(id: string, body: EventUpdateInput): Promise<EventDetail> {
  return apiFetch<EventDetail>(eventPath(id), { method: 'PUT', body });
}

export function deleteEvent(id: string): Promise<DeletedEvent> {
  return apiFetch<DeletedEvent>(eventPath(id), { method: 'DELETE' });
}

export function fetchEnrollments(eventId: string, query: EnrollmentQuery): Promise<EnrollmentPage> {
  return apiFetch<EnrollmentPage>(
    `/api/admin/enrollment/event/${encodeURIComponent(eventId)}?${enrollmentQueryString(query)}`,
  );
}

export function setGuestCount(enrollmentId: string, guestCount: number): Promise<GuestCountAnswer> {
  return apiFetch<GuestCountAnswer>(`/api/admin/enrollment/${encodeURIComponent(enrollmentId)}/guests`, {
    method: 'PUT',
    body: { guestCount },
  });
}

/** The chosen enrollments, or all of the session's when none are chosen, as enrollments.csv. */
export function exportEnrollments(eventId: string, enrollmentIds: string[]): Promise<void> {
  return downloadFile(
    '/api/admin/export/enrollment',
    { event_id: eventId, enrollment_ids: enrollmentIds },
    EXPORT_FILE_NAME,
  );
}
