import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What the store lists (issue 21), as one SQL condition on a course `a`: a listed course that can be
 * booked, an appointment course or one with an upcoming active session. The storefront's lists and
 * the organization's `listed_course` both use it.
 *
 * A read across modules for speed (catalog's `activity`, scheduling's `event`): it lives here, once,
 * and writes nothing.
 */
export const PUBLISHED_COURSE = `
  a.status = 'listed'
  and (a.activity_type = 'appointment'
       or exists (select 1 from event e
                   where e.activity_id = a.id and e.status = 'active' and e.starts_at > now()))`;

/** Whether the organization has a published course (spec 000 §3, Organization.listed_course). */
export async function hasPublishedCourse(em: EntityManager, organizationId: string): Promise<boolean> {
  const [row] = await em.execute<{ listed: boolean }[]>(
    `select exists (select 1 from activity a where a.organization_id = ? and ${PUBLISHED_COURSE}) as listed`,
    [organizationId],
  );
  return Boolean(row?.listed);
}
