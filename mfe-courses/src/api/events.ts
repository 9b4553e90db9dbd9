import { EXPORT_FILE_NAME, type EventSchedulePayload, type components } from '@studio/contracts';
import {
  $api,
  answer,
  api,
  downloadEnrollments,
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@studio/ui';
import type { EnrollmentQuery } from '../event/enrollment-query';
import { courseKeys } from './courses';

/*
 * Scheduled events (sessions) and their enrollments, as this remote's drawers read and change them:
 * query-key factory, reads, and mutation hooks that refresh the event, its enrollments grid and its
 * course's sessions lists (their seat counts), as Medusa's dashboard does in `hooks/api/*.tsx`.
 */
const LIST = '/api/admin/events';
const DETAIL = '/api/admin/events/{event_id}';
const ENROLLMENTS = '/api/admin/enrollment/event/{event_id}';
const CANCEL = '/api/admin/events/{event_id}/cancel';
const CANCELLATION = '/api/admin/events/{event_id}/cancellation';
/** How often the drawer asks how far a cancellation has got while students are still being processed. */
export const CANCELLATION_POLL_MS = 1000;

type Schemas = components['schemas'];
export type EventDetail = Schemas['EventOutDto_Output'];
export type EnrollmentPage = Schemas['EnrollmentPageDto_Output'];
export type EnrollmentRow = EnrollmentPage['enrollments'][number];
export type HeldSeat = EnrollmentPage['heldSeats'][number];
export type DeletedEvent = Schemas['DeletedEventDto_Output'];
export type GuestCountAnswer = Schemas['GuestCountOutDto_Output'];
export type CheckInAnswer = Schemas['CheckInOutDto_Output'];
export type CreatedEvent = Schemas['CreatedEventDto_Output'];
export type Cancellation = Schemas['CancellationDto_Output'];
export type SessionCancelPayload = Schemas['SessionCancelDto'];

const byId = (event_id: string) => ({ params: { path: { event_id } } });

export const eventKeys = {
  detail: (id: string) => ['get', DETAIL, byId(id)] as const,
  /** Every page of the event's enrollments grid (its search, sort and filters follow). */
  enrollments: (id: string) => ['get', ENROLLMENTS, byId(id)] as const,
};

export const eventQueries = {
  detail: (id: string) => $api.queryOptions('get', DETAIL, byId(id)),
  /** A cancelled session's cancellation, read again while students are still being processed. */
  cancellation: (id: string) => ({
    ...$api.queryOptions('get', CANCELLATION, byId(id)),
    refetchInterval: (query: { state: { data?: Cancellation } }) => {
      const data = query.state.data;
      return data && data.processed >= data.total ? false : CANCELLATION_POLL_MS;
    },
  }),
};

/**
 * After an event's price, capacity or enrollments change: the event, its enrollments grid and every
 * course's sessions list (seats taken) read again. Also what the students remote's enrollment
 * dialogs trigger through their `onDone`.
 */
export function refreshEvent(queryClient: QueryClient, id: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: eventKeys.detail(id) }),
    queryClient.invalidateQueries({ queryKey: eventKeys.enrollments(id) }),
    queryClient.invalidateQueries({ queryKey: courseKeys.allSessions() }),
  ]);
}

/** POST /api/admin/events: a dated session of a course; the course and its sessions read again. */
export function useScheduleEvent(activityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payload: EventSchedulePayload): Promise<CreatedEvent> =>
      answer(api.POST(LIST, { body: payload })),
    onSuccess: () =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: courseKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: courseKeys.detail(activityId) }),
        queryClient.invalidateQueries({ queryKey: courseKeys.sessions(activityId) }),
      ]),
  });
}

/** PUT /api/admin/events/{event_id}: price in cents; changes apply to future orders only (spec 001 §4). */
export function useUpdateEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['EventUpdateDto']): Promise<EventDetail> =>
      answer(api.PUT(DETAIL, { ...byId(id), body })),
    onSuccess: () => void refreshEvent(queryClient, id),
  });
}

/** DELETE /api/admin/events/{event_id}: refused (409) while students are enrolled. */
export function useDeleteEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<DeletedEvent> => answer(api.DELETE(DETAIL, byId(id))),
    onSuccess: (deleted) =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: courseKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: courseKeys.allSessions() }),
        ...(deleted.activity_id
          ? [queryClient.invalidateQueries({ queryKey: courseKeys.detail(deleted.activity_id) })]
          : []),
      ]),
  });
}

/**
 * POST /api/admin/events/{event_id}/cancel: the session cancelled with its students (refund everyone
 * in full, or no refund, and the reason); the event, its grid, its course's sessions and the
 * cancellation's progress read again.
 */
export function useCancelEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SessionCancelPayload): Promise<Cancellation> => answer(api.POST(CANCEL, { ...byId(id), body })),
    onSuccess: (cancellation) => {
      queryClient.setQueryData(eventQueries.cancellation(id).queryKey, cancellation);
      void Promise.all([refreshEvent(queryClient, id), queryClient.invalidateQueries({ queryKey: courseKeys.lists() })]);
    },
  });
}

/** PUT /api/admin/enrollment/{enrollment_id}/guests: 409 when not enough seats are left. */
export function useSetGuestCount(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      enrollmentId,
      guestCount,
    }: {
      enrollmentId: string;
      guestCount: number;
    }): Promise<GuestCountAnswer> =>
      answer(
        api.PUT('/api/admin/enrollment/{enrollment_id}/guests', {
          params: { path: { enrollment_id: enrollmentId } },
          body: { guestCount },
        }),
      ),
    onSuccess: () => void refreshEvent(queryClient, eventId),
  });
}

/**
 * PUT (check in) or DELETE (undo) /api/admin/enrollment/{enrollment_id}/check-in, both idempotent;
 * the enrollments grid reads again. 409 when the student was removed meanwhile.
 */
export function useCheckIn(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ enrollmentId, checkedIn }: { enrollmentId: string; checkedIn: boolean }): Promise<CheckInAnswer> => {
      const params = { params: { path: { enrollment_id: enrollmentId } } };
      return answer(
        checkedIn
          ? api.PUT('/api/admin/enrollment/{enrollment_id}/check-in', params)
          : api.DELETE('/api/admin/enrollment/{enrollment_id}/check-in', params),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventKeys.enrollments(eventId) }),
  });
}

/** `page&limit&search&sortField&sortOrder&filter[column]=value`, leaving out what is empty. */
function fetchEnrollments(eventId: string, query: EnrollmentQuery): Promise<EnrollmentPage> {
  const filter = Object.fromEntries(
    Object.entries(query.filter).flatMap(([column, value]) =>
      value?.trim() ? [[column, value.trim()]] : [],
    ),
  );
  return answer(
    api.GET(ENROLLMENTS, {
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

/**
 * One page of the event's enrollments (server-side paging, search, sort, filters); the previous page
 * stays while the next loads. A failure is only logged by the grid and shows an empty list (spec 001
 * §8), so it is not retried.
 */
export function useEnrollmentPage(eventId: string, query: EnrollmentQuery) {
  return useQuery({
    queryKey: [...eventKeys.enrollments(eventId), query] as const,
    queryFn: () => fetchEnrollments(eventId, query),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The chosen enrollments, or all of the session's when none are chosen, as enrollments.csv. */
export function exportEnrollments(eventId: string, enrollmentIds: string[]): Promise<void> {
  return downloadEnrollments({ event_id: eventId, enrollment_ids: enrollmentIds }, EXPORT_FILE_NAME);
}
