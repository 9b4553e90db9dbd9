/**
 * What the catalog needs to know about a course's sessions (badges, next date) without reading the
 * scheduling tables itself. The scheduling module provides the implementation.
 */
export interface CourseScheduleSummary {
  event_count: number;
  future_event_count: number;
  next_start: Date | null;
  events: { event_id: string; starts_at: Date; ends_at: Date }[];
}

export interface CourseScheduleReader {
  summaries(organizationId: string, activityIds: string[], withEvents: boolean): Promise<Map<string, CourseScheduleSummary>>;
}

export const COURSE_SCHEDULE_READER = Symbol('COURSE_SCHEDULE_READER');

export const emptySummary = (): CourseScheduleSummary => ({
  event_count: 0,
  future_event_count: 0,
  next_start: null,
  events: [],
});
