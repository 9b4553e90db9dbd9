import type { EntityManager } from '@mikro-orm/postgresql';

/** A session as the waitlist shows and mails it. */
export interface WaitlistSessionRow {
  event_id: string;
  name: string;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  status: 'active' | 'cancelled';
  listed: boolean;
  location_name: string;
  timezone: string;
  organization_name: string;
  slug: string;
  claim_hours: number;
}

/**
 * A session of the organization with what the waitlist's mails and the store's join need, or null.
 * A read across modules (scheduling's `event`, catalog's `activity` and `location`, the
 * organization's settings), living here once and writing nothing: the seats themselves are read and
 * held under the session's seat lock (lockEventForSeats, EnrollmentsService).
 */
export async function waitlistSession(
  em: EntityManager,
  organizationId: string,
  eventId: string,
): Promise<WaitlistSessionRow | null> {
  const [row] = await em.execute<WaitlistSessionRow[]>(
    `select e.id as event_id, e.name, e.starts_at, e.ends_at, e.capacity, e.status,
            (a.status = 'listed') as listed, l.name as location_name, l.timezone,
            o.name as organization_name, o.slug, o.waitlist_claim_hours as claim_hours
       from event e
       join activity a on a.id = e.activity_id
       join location l on l.id = e.location_id
       join organization o on o.id = e.organization_id
      where e.organization_id = ? and e.id = ?`,
    [organizationId, eventId],
  );
  return row ?? null;
}
