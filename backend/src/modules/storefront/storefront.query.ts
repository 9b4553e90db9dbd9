import type { EntityManager } from '@mikro-orm/postgresql';
import {
  appointmentPartyLimit,
  describeProductGrant,
  formatCents,
  CATEGORIES,
  POLICIES,
  storeLinks,
  toPublicCheckoutForm,
  type CheckoutFormField,
  type FormCollectionType,
  type PublicCourse,
  type PublicCourseCard,
  type PublicProduct,
  type PublicSession,
} from '@studio/contracts';
import { PUBLISHED_COURSE } from '../organizations/published-courses.query';
import { seatsTaken } from '../scheduling/seats';

/**
 * The store's reads (issue 21): a read across modules for speed (catalog's courses, locations,
 * instructors and images, scheduling's sessions and their seats, products' prices and images),
 * living here once and writing nothing. What it returns is what any visitor may see: a session's
 * seats left, never who took the others.
 */

/** Upcoming sessions shown on a course page. */
export const MAX_PUBLIC_SESSIONS = 100;
/** Courses and products a store lists. */
export const MAX_PUBLIC_LIST = 200;

const SUMMARY_CHARS = 240;

/** The first lines of a description, cut at a word. */
export function summary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SUMMARY_CHARS) return flat;
  const cut = flat.slice(0, SUMMARY_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : SUMMARY_CHARS).trimEnd()}…`;
}

interface CourseRow {
  id: string;
  name: string;
  description: string;
  activity_type: 'scheduled' | 'appointment';
  level: PublicCourseCard['level'];
  category_id: number;
  price_type: string;
  price_cents: number;
  tools: string;
  single_party: boolean;
  duration_mins: number;
  booking_window_days: number;
  capacity: number;
  cancel_policy_id: number;
  reschedule_policy_id: number;
  required_waiver_id: string | null;
  form_collection_type: FormCollectionType;
  form_fields: CheckoutFormField[] | null;
  location_name: string;
  location_address: string;
  location_timezone: string;
  location_online: boolean;
  instructor_name: string;
  instructor_photo: string | null;
  images: string[] | null;
  next_starts_at: Date | null;
}

const COURSE_SELECT = `
  select a.id, a.name, a.description, a.activity_type, a.level, a.category_id, a.price_type, a.price_cents,
         a.tools, a.single_party, a.duration_mins, a.booking_window_days, a.capacity, a.cancel_policy_id, a.reschedule_policy_id,
         a.required_waiver_id, a.form_collection_type,
         (select f.fields from checkout_form f where f.id = a.required_form_id) as form_fields,
         l.name as location_name, l.address as location_address, l.timezone as location_timezone,
         l.online as location_online,
         trim(i.first_name || ' ' || i.last_name) as instructor_name, i.photo_url as instructor_photo,
         (select array_agg(m.url order by ai.position)
            from activity_image ai join media m on m.id = ai.media_id
           where ai.activity_id = a.id) as images,
         (select min(e.starts_at) from event e
           where e.activity_id = a.id and e.status = 'active' and e.starts_at > now()) as next_starts_at
    from activity a
    join location l on l.id = a.location_id
    join instructor i on i.id = a.instructor_id`;

const categoryName = (id: number) => CATEGORIES.find((c) => c.category_id === id)?.name ?? '';
const policy = (id: number) => {
  const found = POLICIES.find((p) => p.id === id);
  return { name: found?.name ?? '', rule: found?.rule ?? '' };
};

function card(row: CourseRow, store: string): PublicCourseCard {
  const free = row.price_type === 'free' || row.price_cents === 0;
  return {
    activity_id: row.id,
    name: row.name,
    summary: summary(row.description),
    activity_type: row.activity_type,
    level: row.level,
    category: categoryName(row.category_id),
    price_cents: free ? 0 : row.price_cents,
    free,
    image_url: row.images?.[0] ?? null,
    location_name: row.location_name,
    instructor_name: row.instructor_name,
    next_starts_at: row.next_starts_at ? new Date(row.next_starts_at).toISOString() : null,
    url: storeLinks.course(store, row.id),
  };
}

/** The published courses of a store, soonest session first, then by name. */
export async function publishedCourses(em: EntityManager, organizationId: string, store: string) {
  const rows = await em.execute<CourseRow[]>(
    `${COURSE_SELECT}
      where a.organization_id = ? and ${PUBLISHED_COURSE}
      order by next_starts_at asc nulls last, a.name asc, a.id
      limit ${MAX_PUBLIC_LIST}`,
    [organizationId],
  );
  return rows.map((row) => card(row, store));
}

interface SessionRow {
  id: string;
  name: string;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  price_cents: number;
  location_name: string;
  timezone: string;
  online: boolean;
}

/** A published course of the store with its upcoming sessions and their seats left; null if none. */
export async function publishedCourse(
  em: EntityManager,
  organizationId: string,
  activityId: string,
  store: string,
): Promise<PublicCourse | null> {
  const [row] = await em.execute<CourseRow[]>(
    `${COURSE_SELECT} where a.organization_id = ? and a.id = ? and ${PUBLISHED_COURSE}`,
    [organizationId, activityId],
  );
  if (!row) return null;
  const sessions = await em.execute<SessionRow[]>(
    `select e.id, e.name, e.starts_at, e.ends_at, e.capacity, e.price_cents,
            l.name as location_name, l.timezone, l.online
       from event e join location l on l.id = e.location_id
      where e.activity_id = ? and e.organization_id = ? and e.status = 'active' and e.starts_at > now()
      order by e.starts_at, e.id
      limit ${MAX_PUBLIC_SESSIONS}`,
    [activityId, organizationId],
  );
  const taken = await seatsTaken(
    em,
    sessions.map((s) => s.id),
  );
  const base = card(row, store);
  return {
    ...base,
    description: row.description,
    tools: row.tools,
    images: row.images ?? [],
    single_party: row.single_party,
    duration_mins: row.activity_type === 'appointment' ? row.duration_mins : null,
    booking_window_days: row.activity_type === 'appointment' ? row.booking_window_days : null,
    max_party_size: row.activity_type === 'appointment' ? appointmentPartyLimit(row.capacity) : null,
    instructor: { name: row.instructor_name, photo_url: row.instructor_photo },
    location: {
      name: row.location_name,
      address: row.location_online ? '' : row.location_address,
      timezone: row.location_timezone,
      online: row.location_online,
    },
    cancellation_policy: policy(row.cancel_policy_id),
    rescheduling_policy: policy(row.reschedule_policy_id),
    requires_waiver: row.required_waiver_id !== null,
    checkout_form: toPublicCheckoutForm(row.form_collection_type, row.form_fields),
    sessions: sessions.map((s): PublicSession => {
      const seatsLeft = Math.max(0, s.capacity - (taken.get(s.id)?.seats ?? 0));
      return {
        event_id: s.id,
        name: s.name,
        starts_at: new Date(s.starts_at).toISOString(),
        ends_at: new Date(s.ends_at).toISOString(),
        timezone: s.timezone,
        price_cents: base.free ? 0 : s.price_cents,
        seats_left: seatsLeft,
        sold_out: seatsLeft === 0,
        location_name: s.location_name,
        online: s.online,
      };
    }),
  };
}

interface ProductRow {
  id: string;
  name: string;
  description: string;
  category: PublicProduct['kind'];
  amount_cents: number;
  renewal_interval_unit: PublicProduct['renewal_interval_unit'];
  renewal_interval_quantity: number | null;
  image_url: string | null;
  grant_kind: PublicProduct['grant'];
  membership_bookings: number | null;
  membership_unlimited: boolean;
  pack_credits: number | null;
  pack_expires_after_quantity: number | null;
  pack_expires_after_unit: PublicProduct['renewal_interval_unit'];
}

/** The published products of a store with their current price, by name. */
export async function publishedProducts(
  em: EntityManager,
  organizationId: string,
  store: string,
  productId?: string,
): Promise<PublicProduct[]> {
  const rows = await em.execute<ProductRow[]>(
    `select p.id, p.name, p.description, pp.category, pp.amount_cents, pp.renewal_interval_unit,
            pp.renewal_interval_quantity, pp.grant_kind, pp.membership_bookings, pp.membership_unlimited, pp.pack_credits,
            pp.pack_expires_after_quantity, pp.pack_expires_after_unit,
            (select m.url from product_image pi join media m on m.id = pi.media_id
              where pi.product_id = p.id order by pi.position limit 1) as image_url
       from product p
       join product_price pp on pp.product_id = p.id and pp.current
      where p.organization_id = ? and p.status = 'published' ${productId ? 'and p.id = ?' : ''}
      order by p.name, p.id
      limit ${MAX_PUBLIC_LIST}`,
    productId ? [organizationId, productId] : [organizationId],
  );
  return rows.map((row) => ({
    product_id: row.id,
    name: row.name,
    description: row.description,
    kind: row.category,
    price_cents: row.amount_cents,
    renewal_interval_unit: row.category === 'subscription' ? row.renewal_interval_unit : null,
    renewal_interval_quantity: row.category === 'subscription' ? row.renewal_interval_quantity : null,
    image_url: row.image_url,
    url: storeLinks.checkoutProduct(store, row.id),
    grant: row.grant_kind,
    grant_text: describeProductGrant(
      {
        unit_price: row.amount_cents,
        renewal_interval_unit: row.renewal_interval_unit,
        renewal_interval_quantity: row.renewal_interval_quantity,
        grant: row.grant_kind,
        membership_bookings: row.membership_bookings,
        membership_unlimited: row.membership_unlimited,
        pack_credits: row.pack_credits,
        pack_expires_after_quantity: row.pack_expires_after_quantity,
        pack_expires_after_unit: row.pack_expires_after_unit,
      },
      formatCents,
    ),
  }));
}

/** The course of a session of the organization, or null: a checkout page shows the session with its course. */
export async function courseOfSession(
  em: EntityManager,
  organizationId: string,
  eventId: string,
): Promise<string | null> {
  const [row] = await em.execute<{ activity_id: string }[]>(
    `select activity_id from event where organization_id = ? and id = ?`,
    [organizationId, eventId],
  );
  return row?.activity_id ?? null;
}
