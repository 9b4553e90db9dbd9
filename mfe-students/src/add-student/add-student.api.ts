import { STUDENT_SEARCH_LIMIT, type RefundDestination, type components } from '@studio/contracts';
import { $api, answer, api } from '@studio/ui';

type Schemas = components['schemas'];
export type StudentListItem = Schemas['StudentListDto_Output']['students'][number];
export type Enrolled = Schemas['EnrolledDto_Output'];
export type PaymentLinkSent = Schemas['PaymentLinkSentDto_Output'];

/** Server-side search, so the picker works for thousands of students. */
export async function searchStudents(search: string, signal?: AbortSignal): Promise<StudentListItem[]> {
  const query = { page: 1, limit: STUDENT_SEARCH_LIMIT, ...(search.trim() ? { search: search.trim() } : {}) };
  return (await answer(api.GET('/api/admin/student', { params: { query }, signal }))).students;
}

/** The student's memberships and packs that can book the course, in the written order (issue 24). */
export const coveringQuery = (studentId: string, activityId: string) =>
  $api.queryOptions('get', '/api/admin/student/{student_id}/wallet/covering', {
    params: { path: { student_id: studentId }, query: { activity_id: activityId } },
  });

/** Enrolls directly: a zero-total workbench order and the enrollment; with `holding_id`, booked on that membership or pack. */
export function enrollStudent(
  studentId: string,
  target: { event_id?: string; appointment_id?: string; holding_id?: string },
): Promise<Enrolled> {
  return answer(
    api.POST('/api/admin/orders/enroll/{student_id}', {
      params: { path: { student_id: studentId } },
      body: target,
    }),
  );
}

/** Sends the student a payment link: a pending order, the seat held until the link expires, the link mailed. */
export function sendPaymentLink(
  studentId: string,
  target: { event_id?: string; appointment_id?: string },
): Promise<PaymentLinkSent> {
  return answer(
    api.POST('/api/admin/orders/invoice/{student_id}', {
      params: { path: { student_id: studentId } },
      body: target,
    }),
  );
}

/** Removes the student; with `refund`, refunds the order in the same operation (a refused refund keeps the student enrolled). */
export async function removeEnrollment(
  enrollmentId: string,
  refund?: { amount: number; reason: string; refund_to?: RefundDestination },
  options: { keep_use?: boolean } = {},
): Promise<void> {
  const body = { ...(refund ? { refund } : {}), ...(options.keep_use ? { keep_use: true } : {}) };
  await answer(
    api.DELETE('/api/admin/enrollment/{enrollment_id}', {
      params: { path: { enrollment_id: enrollmentId } },
      ...(Object.keys(body).length ? { body } : {}),
    }),
  );
}

export type RefundQuote = Schemas['RefundQuoteDto_Output'];

/** The student's order and the refund the course's cancellation policy suggests now. */
export const refundQuoteQuery = (enrollmentId: string) =>
  $api.queryOptions('get', '/api/admin/enrollment/{enrollment_id}/refund-quote', {
    params: { path: { enrollment_id: enrollmentId } },
  });
