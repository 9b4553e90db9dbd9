import type { components, EventSchedulePayload } from '@studio/contracts';
import { apiFetch } from '@studio/ui';

type Schemas = components['schemas'];
export type ScheduleCourse = Schemas['CourseOutDto_Output'];
export type LocationItem = Schemas['LocationListDto_Output']['locations'][number];
export type InstructorItem = Schemas['InstructorListDto_Output']['instructors'][number];
export type CreatedEvent = Schemas['CreatedEventDto_Output'];

export function fetchCourse(activityId: string): Promise<ScheduleCourse> {
  return apiFetch<ScheduleCourse>(`/api/admin/activities/${encodeURIComponent(activityId)}`);
}

export function scheduleEvent(payload: EventSchedulePayload): Promise<CreatedEvent> {
  return apiFetch<CreatedEvent>('/api/admin/events', { method: 'POST', body: payload });
}
