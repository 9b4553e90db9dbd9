/**
 * The small reads about one enrollment or session that other journeys ask the scheduling module
 * (the course's rules at enrolment, Remove student's refund terms, the seat an order paid, the seats
 * a waiver covers). Each joins, read-only and by id, the course (activity) of the catalog module;
 * nothing here writes.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../common/api-error';

/** The session's course rules read at enrolment: a single party, and the waiver it requires (if any). */
export async function courseRules(
  em: EntityManager,
  eventId: string,
): Promise<{ singleParty: boolean; requiredWaiverId: string | null }> {
  const [row] = await em.execute<{ single_party: boolean; required_waiver_id: string | null }[]>(
    'select a.single_party, a.required_waiver_id from event e join activity a on a.id = e.activity_id where e.id = ?',
    [eventId],
  );
  return { singleParty: Boolean(row?.single_party), requiredWaiverId: row?.required_waiver_id ?? null };
}

/**
 * The student's active enrollments (in the organization) whose course requires this waiver
 * template: what the waivers module asks before withdrawing a request.
 */
export async function activeRequiringWaiver(em: EntityManager, organizationId: string, studentId: string, templateId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select e.id
       from enrollment e join event ev on ev.id = e.event_id join activity a on a.id = ev.activity_id
      where e.organization_id = ? and e.student_id = ? and e.status = 'active' and a.required_waiver_id = ?`,
    [organizationId, studentId, templateId],
  );
  return rows.map((r) => r.id);
}

/**
 * What the Remove student refund needs of an active enrollment of the organization: its order, the
 * session's start and the course's cancellation policy. Another organization's is 404.
 */
export async function removalContext(
  em: EntityManager,
  organizationId: string,
  enrollmentId: string,
): Promise<{ orderId: string | null; startsAt: Date; cancelPolicyId: number }> {
  const [row] = await em.execute<{ order_id: string | null; starts_at: Date; cancel_policy_id: number }[]>(
    `select e.order_id, ev.starts_at, a.cancel_policy_id
       from enrollment e join event ev on ev.id = e.event_id join activity a on a.id = ev.activity_id
      where e.id = ? and e.organization_id = ? and e.status = 'active'`,
    [enrollmentId, organizationId],
  );
  if (!row) throw notFound('Enrollment not found');
  return { orderId: row.order_id, startsAt: new Date(row.starts_at), cancelPolicyId: Number(row.cancel_policy_id) };
}

/** The active enrollment an order paid for (the store's confirmation links its manage page), or null. */
export async function activeForOrder(em: EntityManager, organizationId: string, orderId: string): Promise<string | null> {
  const [row] = await em.getConnection().execute<{ id: string }[]>(
    `select id from enrollment where organization_id = ? and order_id = ? and status = 'active' order by created_at limit 1`,
    [organizationId, orderId],
  );
  return row?.id ?? null;
}
