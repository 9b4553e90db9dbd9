import type { EntityManager } from '@mikro-orm/postgresql';
import type { BookingKind } from '@studio/contracts';

/** A booking (a seat in a session, or an appointment) as its page and the admin's dialogs read it. */
export interface BookingRow {
  kind: BookingKind;
  id: string;
  organization_id: string;
  /** active: booked (or an appointment held while its order is paid); cancelled: removed or cancelled. */
  status: 'active' | 'cancelled';
  student_id: string;
  event_id: string | null;
  activity_id: string;
  course_name: string;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  location_name: string;
  address: string;
  online: boolean;
  party_size: number;
  order_id: string | null;
  order_number: number | null;
  order_status: string | null;
  total_cents: number;
  refunded_cents: number;
  cancel_policy_id: number;
  reschedule_policy_id: number;
  /** This booking's own refund in the order's ledger (not failed): requested, or made. */
  refund_state: 'none' | 'requested' | 'made';
}

/**
 * One booking of an organization, or null (another organization's is not found either).
 *
 * A read across modules for speed (scheduling's enrollment, event and appointment, catalog's
 * activity and location, orders' customer_order and order_refund), living here once and writing
 * nothing: every change goes through EnrollmentsService, AppointmentsService and RefundsService.
 */
export async function bookingRow(em: EntityManager, organizationId: string, kind: BookingKind, id: string): Promise<BookingRow | null> {
  const order = `o.order_number, o.status as order_status, coalesce(o.total_cents, 0) as total_cents, coalesce(o.refunded_cents, 0) as refunded_cents`;
  const place = `l.name as location_name, l.address, l.timezone, l.online, a.id as activity_id, a.name as course_name,
                 a.cancel_policy_id, a.reschedule_policy_id`;
  const [row] =
    kind === 'enrollment'
      ? await em.execute<BookingRow[]>(
          `select 'enrollment' as kind, e.id, e.organization_id, case when e.status = 'active' then 'active' else 'cancelled' end as status,
                  e.student_id, e.event_id, ev.starts_at, ev.ends_at, 1 + e.guest_count as party_size, e.order_id, ${order}, ${place},
                  coalesce((select case when bool_or(r.status = 'requested') then 'requested' else 'made' end
                              from order_refund r where r.enrollment_id = e.id and r.status not in ('failed', 'canceled')), 'none') as refund_state
             from enrollment e
             join event ev on ev.id = e.event_id
             join activity a on a.id = ev.activity_id
             join location l on l.id = ev.location_id
             left join customer_order o on o.id = e.order_id
            where e.id = ? and e.organization_id = ?`,
          [id, organizationId],
        )
      : await em.execute<BookingRow[]>(
          `select 'appointment' as kind, ap.id, ap.organization_id, case when ap.status = 'cancelled' then 'cancelled' else 'active' end as status,
                  ap.student_id, null as event_id, ap.starts_at, ap.ends_at, 1 + ap.guest_count as party_size, ap.order_id, ${order}, ${place},
                  coalesce((select case when bool_or(r.status = 'requested') then 'requested' else 'made' end
                              from order_refund r where r.appointment_id = ap.id and r.status not in ('failed', 'canceled')), 'none') as refund_state
             from appointment ap
             join activity a on a.id = ap.activity_id
             join location l on l.id = ap.location_id
             left join customer_order o on o.id = ap.order_id
            where ap.id = ? and ap.organization_id = ? and (ap.status <> 'held' or ap.order_id is not null)`,
          [id, organizationId],
        );
  if (!row) return null;
  return {
    ...row,
    starts_at: new Date(row.starts_at),
    ends_at: new Date(row.ends_at),
    party_size: Number(row.party_size),
    total_cents: Number(row.total_cents),
    refunded_cents: Number(row.refunded_cents),
    cancel_policy_id: Number(row.cancel_policy_id),
    reschedule_policy_id: Number(row.reschedule_policy_id),
    order_number: row.order_number === null ? null : Number(row.order_number),
  };
}

/** Sessions of the course a party may move to: active, not started, not `exceptEventId`, soonest first (at most 50). */
export async function sessionsOfCourse(
  em: EntityManager,
  organizationId: string,
  activityId: string,
  exceptEventId: string | null,
): Promise<{ id: string; starts_at: Date; ends_at: Date; capacity: number }[]> {
  return em.execute(
    `select id, starts_at, ends_at, capacity from event
      where organization_id = ? and activity_id = ? and status = 'active' and starts_at > now() and id <> coalesce(?::uuid, '00000000-0000-0000-0000-000000000000'::uuid)
      order by starts_at, id limit 50`,
    [organizationId, activityId, exceptEventId],
  );
}
