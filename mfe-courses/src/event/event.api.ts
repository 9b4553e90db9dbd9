import { EXPORT_FILE_NAME, type components } from '@studio/contracts';
import { answer, api, downloadEnrollments } from '@studio/ui';
import type { EnrollmentQuery } from './enrollment-query';

type Schemas = components['schemas'];
export type EventDetail = Schemas['EventOutDto_Output'];
export type EnrollmentPage = Schemas['EnrollmentPageDto_Output'];
export type EnrollmentRow = EnrollmentPage['enrollments'][number];
export type DeletedEvent = Schemas['DeletedEventDto_Output'];
export type GuestCountAnswer = Schemas['GuestCountOutDto_Output'];

const byId = (event_id: string) => ({ params: { path: { event_id } } });

export async function fetchEvent(id: string): Promise<EventDetail> {
  return await answer(api.GET('/api/admin/events/{event_id}', byId(id)));
}

/** Price in cents; changes apply to future orders only (spec 001 §4). */
export async function updateEvent(id: string, body: Schemas['EventUpdateDto']): Promise<EventDetail> {
  return await answer(api.PUT('/api/admin/events/{event_id}', { ...byId(id), body }));
}

export function deleteEvent(id: string): Promise<DeletedEvent> {
  return answer(api.DELETE('/api/admin/events/{event_id}', byId(id)));
}

/** `page&limit&search&sortField&sortOrder&filter[column]=value`, leaving out what is empty. */
export function fetchEnrollments(eventId: string, query: EnrollmentQuery): Promise<EnrollmentPage> {
  const filter = Object.fromEntries(
    Object.entries(query.filter).flatMap(([column, value]) =>
      value?.trim() ? [[column, value.trim()]] : [],
    ),
  );
  return answer(
    api.GET('/api/admin/enrollment/event/{event_id}', {
      params: {
        path: { event_id: eventId },
        query: {
          page: query.page,
          limit: query.limit,
          ...(query.search.trim() ? { search: query.search.trim() } : {}),
          sortField: query.sortField,
          sortOrder: query.sortOrder,
          // filter[column]=value (deepObject); the generator types the map's values as never.
          ...(Object.keys(filter).length ? { filter: filter as Record<string, never> } : {}),
        },
      },
    }),
  );
}

export function setGuestCount(enrollmentId: string, guestCount: number): Promise<GuestCountAnswer> {
  return answer(
    api.PUT('/api/admin/enrollment/{enrollment_id}/guests', {
      params: { path: { enrollment_id: enrollmentId } },
      body: { guestCount },
    }),
  );
}

/** The chosen enrollments, or all of the session's when none are chosen, as enrollments.csv. */
export function exportEnrollments(eventId: string, enrollmentIds: string[]): Promise<void> {
  return downloadEnrollments({ event_id: eventId, enrollment_ids: enrollmentIds }, EXPORT_FILE_NAME);
}
