import { STUDENT_SEARCH_LIMIT, type components } from '@studio/contracts';
import { apiFetch } from '@studio/ui';

type Schemas = components['schemas'];
export type StudentListItem = Schemas['StudentListDto_Output']['students'][number];
export type Enrolled = Schemas['EnrolledDto_Output'];

/** Server-side search, so the picker works for thousands of students. */
export async function searchStudents(search: string, signal?: AbortSignal): Promise<StudentListItem[]> {
  const params = new URLSearchParams({ page: '1', limit: String(STUDENT_SEARCH_LIMIT) });
  if (search.trim()) params.set('search', search.trim());
  const answer = await apiFetch<{ students?: StudentListItem[] }>(`/api/admin/student?${params}`, { signal });
  return answer.students ?? [];
}

/** Enrolls directly: a zero-total workbench order and the enrollment. */
export function enrollStudent(studentId: string, target: { event_id?: string; appointment_id?: string }): Promise<Enrolled> {
  return apiFetch<Enrolled>(`/api/admin/orders/enroll/${encodeURIComponent(studentId)}`, {
    method: 'POST',
    body: target,
  });
}

export function removeEnrollment(enrollmentId: string): Promise<void> {
  return apiFetch<void>(`/api/admin/enrollment/${encodeURIComponent(enrollmentId)}`, { method: 'DELETE' });
}
