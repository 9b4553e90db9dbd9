import {
  apiFetch,
  type CourseDetail,
  type CourseListResponse,
  type CourseSession,
  type CourseSessionsResponse,
  type CourseSummary,
} from '@studio/ui';

/** The organization's courses; a failure is logged and the list is empty (spec 001 §8). */
export async function fetchCourses(): Promise<CourseSummary[]> {
  try {
    return (await apiFetch<CourseListResponse>('/api/admin/activities')).activities;
  } catch (error) {
    console.error('Could not load the courses', error);
    return [];
  }
}

export function fetchCourse(id: string): Promise<CourseDetail> {
  return apiFetch<CourseDetail>(`/api/admin/activities/${encodeURIComponent(id)}`);
}

export async function fetchSessions(id: string, includePast: boolean): Promise<CourseSession[]> {
  try {
    const answer = await apiFetch<CourseSessionsResponse>(
      `/api/admin/activities/${encodeURIComponent(id)}/sessions?include_past=${includePast}&limit=10000`,
    );
    return answer.sessions;
  } catch (error) {
    console.error('Could not load the sessions', error);
    return [];
  }
}
