import { answer, api } from '@studio/ui';

export function updateStudentName(id: string, first_name: string, last_name: string): Promise<unknown> {
  return answer(
    api.PUT('/api/admin/student/{student_id}', {
      params: { path: { student_id: id } },
      body: { first_name, last_name },
    }),
  );
}
