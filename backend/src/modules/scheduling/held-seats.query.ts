import type { EntityManager } from '@mikro-orm/postgresql';

type Connection = ReturnType<EntityManager['getConnection']>;

/**
 * Why a seat is held: a payment link not paid yet, a waitlist offer not claimed yet, or a store
 * checkout being paid (its order carries the buyer's access token).
 */
export type HoldKind = 'payment_link' | 'waitlist_offer' | 'checkout';

/** A live seat hold of a session as the enrollments grid shows it above its students (issue 25). */
export interface HeldSeatRow {
  hold_id: string;
  kind: HoldKind;
  seats: number;
  expires_at: string;
  /** Who the seats are held for: the student, or the waitlist entry an unclaimed offer went to. */
  name: string;
  email: string;
  student_id: string | null;
  Order: { order_id: string; order_number: number | null; totalPrice: number } | null;
}

/**
 * The live holds of one session (unreleased and unexpired: the ones seatsTaken counts), oldest
 * first. A fast read for one screen that joins other modules' tables (student, customer_order,
 * waitlist_entry) by id only; it writes nothing. At most 200: a session's holds are a handful.
 */
export async function heldSeats(connection: Connection, organizationId: string, eventId: string): Promise<HeldSeatRow[]> {
  const rows = await connection.execute<
    {
      id: string;
      seats: number;
      expires_at: Date;
      student_id: string | null;
      order_id: string | null;
      waitlist_entry_id: string | null;
      first_name: string | null;
      last_name: string | null;
      email: string | null;
      waitlist_name: string | null;
      waitlist_email: string | null;
      order_number: number | null;
      total_cents: number | null;
      store_order: boolean | null;
    }[]
  >(
    `select h.id, h.seats, h.expires_at, h.student_id, h.order_id, h.waitlist_entry_id,
            s.first_name, s.last_name, s.email, w.name as waitlist_name, w.email as waitlist_email,
            o.order_number, o.total_cents, (o.access_token_hash is not null) as store_order
       from seat_hold h
       left join student s on s.id = h.student_id
       left join customer_order o on o.id = h.order_id
       left join waitlist_entry w on w.id = h.waitlist_entry_id
      where h.organization_id = ? and h.event_id = ? and h.released_at is null and h.expires_at > clock_timestamp()
      order by h.created_at, h.id
      limit 200`,
    [organizationId, eventId],
  );
  return rows.map((row) => ({
    hold_id: row.id,
    kind: row.waitlist_entry_id && !row.order_id ? 'waitlist_offer' : row.store_order ? 'checkout' : 'payment_link',
    seats: Number(row.seats),
    expires_at: new Date(row.expires_at).toISOString(),
    name: row.first_name !== null ? `${row.first_name} ${row.last_name ?? ''}`.trim() : (row.waitlist_name ?? ''),
    email: row.email ?? row.waitlist_email ?? '',
    student_id: row.student_id,
    Order: row.order_id ? { order_id: row.order_id, order_number: row.order_number, totalPrice: row.total_cents ?? 0 } : null,
  }));
}
