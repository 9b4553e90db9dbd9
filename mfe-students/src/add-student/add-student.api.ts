import { STUDENT_SEARCH_LIMIT, type components } from '@studio/contracts';
import { answer, api } from '@studio/ui';

type Schemas = components['schemas'];
export type StudentListItem = Schemas['StudentListDto_Output']['students'][number];
export type Enrolled = Schemas['EnrolledDto_Output'];

/** Server-side search, so the picker works for thousands of students. */
export async function searchStudents(search: string, signal?: AbortSignal): Promise<StudentListItem[]> {
  const query = { page: 1, limit: STUDENT_SEARCH_LIMIT, ...(search.trim() ? { search: search.trim() } : {}) };
  return (await answer(api.GET('/api/admin/student', { params: { query }, signal }))).students;
}

/** Enrolls directly: a zero-total workbench order and the enrollment. */
export function enrollStudent(
  studentId: string,
  target: { event_id?: string; appointment_id?: string },
): Promise<Enrolled> {
  return answer(
    api.POST('/api/admin/orders/enroll/{student_id}', {
      params: { path: { student_id: studentId } },
      body: target,
    }),
  );
}

export async function removeEnrollment(enrollmentId: string): Promise<void> {
  await answer(
    api.DELETE('/api/admin/enrollment/{enrollment_id}', {
      params: { path: { enrollment_id: enrollmentId } },
    }),
  );
}
