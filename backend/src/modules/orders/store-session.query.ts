import type { EntityManager } from '@mikro-orm/postgresql';
import type { CheckoutFormField, FormCollectionType } from '@studio/contracts';

/** A session as the store's checkout prices it: its course, price, and where and when it is. */
export interface StoreSessionRow {
  event_id: string;
  name: string;
  price_cents: number;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  activity_id: string;
  activity_name: string;
  /** The course's category (material): what a membership or pack may cover. */
  category_id: number | null;
  free: boolean;
  auto_email: string;
  location_name: string;
  address: string;
  timezone: string;
  online: boolean;
  meeting_join_url: string | null;
  /** The course's checkout form: how it is collected and its fields as the builder stored them. */
  form_collection_type: FormCollectionType;
  form_fields: CheckoutFormField[] | null;
  /** The waiver template the course requires the buyer to sign, or null. */
  required_waiver_id: string | null;
}

/**
 * A bookable session of a store: active, not started, of a listed course of the organization; null
 * otherwise (another organization's session is not found either).
 *
 * A read across modules for speed (scheduling's `event`, catalog's `activity` and `location`),
 * living here once and writing nothing: the checkout's seats themselves are taken by
 * EnrollmentsService, under the session's seat lock.
 */
export async function storeSession(
  em: EntityManager,
  organizationId: string,
  eventId: string,
  options: { bookable: boolean } = { bookable: true },
): Promise<StoreSessionRow | null> {
  const [row] = await em.execute<StoreSessionRow[]>(
    `select e.id as event_id, e.name, e.price_cents, e.starts_at, e.ends_at, e.capacity,
            a.id as activity_id, a.name as activity_name, a.category_id,
            (a.price_type = 'free' or e.price_cents = 0) as free, a.auto_email, a.form_collection_type, a.required_waiver_id,
            (select f.fields from checkout_form f where f.id = a.required_form_id) as form_fields,
            l.name as location_name, l.address, l.timezone, l.online, e.meeting_join_url
       from event e
       join activity a on a.id = e.activity_id
       join location l on l.id = e.location_id
      where e.organization_id = ? and e.id = ?
        ${options.bookable ? `and e.status = 'active' and a.status = 'listed' and e.starts_at > now()` : ''}`,
    [organizationId, eventId],
  );
  return row ?? null;
}
