import type { components, EventSchedulePayload } from '@studio/contracts';
import { answer, api } from '@studio/ui';

type Schemas = components['schemas'];
export type ScheduleCourse = Schemas['CourseOutDto_Output'];
export type LocationItem = Schemas['LocationListDto_Output']['locations'][number];
export type InstructorItem = Schemas['InstructorListDto_Output']['instructors'][number];
export type CreatedEvent = Schemas['CreatedEventDto_Output'];

export function scheduleEvent(payload: EventSchedulePayload): Promise<CreatedEvent> {
  return answer(api.POST('/api/admin/events', { body: payload }));
}
