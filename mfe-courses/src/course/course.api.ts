import type { CourseCreatePayload, CourseImagesUpdateInput, CourseUpdatePayload } from '@studio/contracts';
import {
  apiFetch,
  type CourseDetail,
  type CreatedCourse,
  type InstructorListResponse,
  type LocationListResponse,
  type WaiverListResponse,
} from '@studio/ui';

const coursePath = (id: string) => `/api/admin/activities/${encodeURIComponent(id)}`;

export function createCourse(payload: CourseCreatePayload): Promise<CreatedCourse> {
  return apiFetch<CreatedCourse>('/api/admin/activities', { method: 'POST', body: payload });
}

export function fetchCourse(id: string): Promise<CourseDetail> {
  return apiFetch<CourseDetail>(coursePath(id));
}

export function updateCourse(id: string, body: CourseUpdatePayload): Promise<CourseDetail> {
  return apiFetch<CourseDetail>(coursePath(id), { method: 'PUT', body });
}

/** The images-only save of edit mode, sent at once on each upload, delete or move (spec 001 §7). */
export function saveCourseImages(id: string, body: CourseImagesUpdateInput): Promise<CourseDetail> {
  return apiFetch<CourseDetail>(coursePath(id), { method: 'PUT', body });
}

/** The chat alert for a new course (spec 001 §7); it must never fail the creation itself. */
export async function alertNewCourse(name: string): Promise<void> {
  try {
    await apiFetch('/api/slack-alert-new-course', {
      method: 'POST',
      body: { message: `New course created: ${name}` },
    });
  } catch (error) {
    console.error('The new-course chat alert failed', error);
  }
}

/* Picker lists, read through useList (a failure leaves the list empty, spec 001 §8). */
export const LOCATIONS_PATH = '/api/admin/location';
export const INSTRUCTORS_PATH = '/api/admin/instructor';
export const WAIVERS_PATH = '/api/admin/waiver?limit=1000&page=1';
/** Not built on the server yet: its failure is an empty list. */
export const EVENTBRITE_EVENTS_PATH = '/api/admin/partners/eventbrite/events';

export const pickLocations = (answer: LocationListResponse) => answer.locations;
export const pickInstructors = (answer: InstructorListResponse) => answer.instructors;
export const pickWaivers = (answer: WaiverListResponse) => answer.waivers;

export interface TicketingEvent {
  id: string;
  name: string;
}

/** The ticketing events answer's shape is not specified (spec 001 §7): accept a list or {events}. */
export function pickTicketingEvents(answer: unknown): TicketingEvent[] {
  const list = Array.isArray(answer) ? answer : (answer as { events?: unknown } | null)?.events;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const row = item as { id?: unknown; event_id?: unknown; name?: unknown; title?: unknown };
    const id = row.id ?? row.event_id;
    if (typeof id !== 'string' && typeof id !== 'number') return [];
    const name = row.name ?? row.title ?? id;
    return [{ id: String(id), name: typeof name === 'string' ? name : String(id) }];
  });
}
