import { apiFetch, type StudentDetail } from '@studio/ui';

const studentPath = (id: string) => `/api/admin/student/${encodeURIComponent(id)}`;

export function fetchStudent(id: string): Promise<StudentDetail> {
  return apiFetch<StudentDetail>(studentPath(id));
}

export function updateStudentName(id: string, first_name: string, last_name: string): Promise<unknown> {
  return apiFetch(studentPath(id), { method: 'PUT', body: { first_name, last_name } });
}

export function setLoyaltyBalance(id: string, amount: number): Promise<unknown> {
  return apiFetch(`${studentPath(id)}/loyalty-balance/set`, { method: 'POST', body: { amount } });
}

export function sendWaiverReminder(submissionId: string): Promise<unknown> {
  return apiFetch(`/api/admin/submission/remind/${encodeURIComponent(submissionId)}`);
}
