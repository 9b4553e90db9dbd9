import type { EntityManager } from '@mikro-orm/postgresql';
import type { CheckoutFormField, FormCollectionType } from '@studio/contracts';
import { PUBLISHED_COURSE } from '../organizations/published-courses.query';

/** An appointment course as the store's checkout prices it (issue 22): its price, form, waiver and place. */
export interface StoreAppointmentCourseRow {
  activity_id: string;
  /** The course's category (material): what a membership or pack may cover. */
  category_id: number | null;
  name: string;
  activity_type: 'scheduled' | 'appointment';
  price_cents: number;
  free: boolean;
  capacity: number;
  duration_mins: number;
  auto_email: string;
  form_collection_type: FormCollectionType;
  form_fields: CheckoutFormField[] | null;
  required_waiver_id: string | null;
}

/**
 * A course the store lists (any type: the caller refuses a scheduled one with its message), or null
 * (another organization's course is not found either).
 *
 * A read across modules for speed (catalog's `activity` and `checkout_form`), living here once and
 * writing nothing: the appointment itself is held by AppointmentsService.
 */
export async function storeAppointmentCourse(
  em: EntityManager,
  organizationId: string,
  activityId: string,
): Promise<StoreAppointmentCourseRow | null> {
  const [row] = await em.execute<StoreAppointmentCourseRow[]>(
    `select a.id as activity_id, a.category_id, a.name, a.activity_type, a.price_cents, (a.price_type = 'free' or a.price_cents = 0) as free,
            a.capacity, a.duration_mins, a.auto_email, a.form_collection_type, a.required_waiver_id,
            (select f.fields from checkout_form f where f.id = a.required_form_id) as form_fields
       from activity a
      where a.organization_id = ? and a.id = ? and ${PUBLISHED_COURSE}`,
    [organizationId, activityId],
  );
  return row ? { ...row, price_cents: Number(row.price_cents), capacity: Number(row.capacity) } : null;
}

/** The appointment a store order holds or booked, with its course and where it is (issue 22). */
export interface StoreOrderAppointmentRow {
  appointment_id: string;
  status: 'held' | 'booked' | 'cancelled';
  starts_at: Date;
  ends_at: Date;
  guest_count: number;
  course_name: string;
  auto_email: string;
  location_name: string;
  address: string;
  timezone: string;
  online: boolean;
}

/**
 * The newest appointment of an order, or null (a session's or a product's order). A read across
 * modules for speed (scheduling's `appointment`, catalog's `activity` and `location`), writing nothing.
 */
export async function storeOrderAppointment(
  em: EntityManager,
  organizationId: string,
  orderId: string,
): Promise<StoreOrderAppointmentRow | null> {
  const [row] = await em.execute<StoreOrderAppointmentRow[]>(
    `select ap.id as appointment_id, ap.status, ap.starts_at, ap.ends_at, ap.guest_count,
            a.name as course_name, a.auto_email, l.name as location_name, l.address, l.timezone, l.online
       from appointment ap
       join activity a on a.id = ap.activity_id
       join location l on l.id = ap.location_id
      where ap.organization_id = ? and ap.order_id = ?
      order by ap.created_at desc
      limit 1`,
    [organizationId, orderId],
  );
  return row ?? null;
}
