import { attendanceOf, type AppointmentOut } from '@studio/contracts';

/**
 * The label of the membership or class pack a booking was paid with (issue 24), read-only from the
 * wallet's ledger by the use's key (`use:enrollment:<id>`, `use:appointment:<id>`: a unique index),
 * while that use is not given back; null otherwise. One indexed look-up per row of a page.
 */
export function paidWithSql(kind: 'enrollment' | 'appointment', alias: string): string {
  return `(select h.label from wallet_entry we join wallet_holding h on h.id = we.holding_id
            where we.organization_id = ${alias}.organization_id and we.key = 'use:${kind}:' || ${alias}.id::text
              and not exists (select 1 from wallet_entry r where r.returns_entry_id = we.id)) as paid_with`;
}

/**
 * THE read of appointments as the admin sees them (appointmentOutSchema), in one statement. It
 * joins, read-only, the course (activity), instructor and location of the catalog module, the
 * student of the students module and the order (customer_order) of the orders module: the answer
 * names them, and a join is one round trip where each module's service would be five. Nothing here
 * writes another module's table.
 */
export const APPOINTMENT_VIEW_SELECT = `
  select ap.id, ap.activity_id, a.name as course_name, a.price_cents, ap.instructor_id,
         trim(i.first_name || ' ' || coalesce(i.last_name, '')) as instructor_name,
         ap.location_id, l.name as location_name, l.timezone as time_zone, l.online as location_online,
         l.address as location_address,
         ap.student_id, s.first_name as student_first_name, s.last_name as student_last_name, s.email as student_email,
         ap.guest_count, ap.status, ap.starts_at, ap.ends_at, ap.hold_expires_at, ap.meeting_url, ap.sequence, ap.checked_in_at,
         ap.order_id, o.order_number, o.status as order_status, o.total_cents as order_total,
         o.access_token_hash is not null as store_order,
         ${paidWithSql('appointment', 'ap')}
    from appointment ap
    join activity a on a.id = ap.activity_id
    join instructor i on i.id = ap.instructor_id
    join location l on l.id = ap.location_id
    join student s on s.id = ap.student_id
    left join customer_order o on o.id = ap.order_id and o.organization_id = ap.organization_id`;

export interface AppointmentViewRow {
  id: string;
  activity_id: string;
  course_name: string;
  /** The course's price (what a payment link for it charges). */
  price_cents: number;
  instructor_id: string;
  instructor_name: string;
  location_id: string;
  location_name: string;
  time_zone: string;
  location_online: boolean;
  location_address: string | null;
  student_id: string;
  student_first_name: string;
  student_last_name: string | null;
  student_email: string;
  guest_count: number;
  status: 'held' | 'booked' | 'cancelled';
  starts_at: Date | string;
  ends_at: Date | string;
  hold_expires_at: Date | string | null;
  meeting_url: string | null;
  sequence: number;
  checked_in_at: Date | string | null;
  order_id: string | null;
  order_number: number | null;
  order_status: string | null;
  order_total: number | null;
  store_order: boolean | null;
  paid_with: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export function toAppointmentOut(row: AppointmentViewRow): AppointmentOut {
  return {
    id: row.id,
    activity_id: row.activity_id,
    course_name: row.course_name,
    instructor_id: row.instructor_id,
    instructor_name: row.instructor_name,
    location_id: row.location_id,
    location_name: row.location_name,
    time_zone: row.time_zone,
    student: {
      id: row.student_id,
      first_name: row.student_first_name,
      last_name: row.student_last_name ?? '',
      email: row.student_email,
    },
    guest_count: Number(row.guest_count),
    status: row.status,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    hold_expires_at: row.status === 'held' && row.hold_expires_at ? iso(row.hold_expires_at) : null,
    order:
      row.order_id && row.order_number !== null
        ? { id: row.order_id, order_number: Number(row.order_number), status: row.order_status ?? '', total: Number(row.order_total ?? 0) }
        : null,
    paid_with: row.paid_with ?? null,
    meeting_url: row.meeting_url,
    checked_in_at: row.checked_in_at ? iso(row.checked_in_at) : null,
    attendance: attendanceOf(row.checked_in_at, row.ends_at),
  };
}
