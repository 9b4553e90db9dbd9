/**
 * THE read of a session's enrollments grid: one page of its students with
 * search, filters and sort in SQL on indexes, their count, and the seats held above them. A read
 * across modules for speed, as the architecture allows in one query file of the reading module: it
 * joins, read-only and by id, the student (students module), the seat's order (customer_order,
 * orders module) and the wallet's ledger (paid_with). It writes nothing.
 */
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { attendanceOf, type OrderStatus } from '@studio/contracts';
import { notFound } from '../../common/api-error';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { paidWithSql } from './appointment-view.query';
import { SORT_SQL } from './enrollment-columns';
import { EnrollmentQuery } from './enrollment-query';
import { WaiverStatus } from './entities/enrollment.entity';
import { heldSeats } from './held-seats.query';

export interface EnrollmentRow {
  enrollment_id: string;
  student_id: string;
  created_at: Date;
  guest_count: number;
  waiver_status: WaiverStatus;
  order_id: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  user_id: string | null;
  order_number: number | null;
  total_cents: number | null;
  /** What was refunded of the seat's order, and the order's status (refunded, partially_refunded, …). */
  refunded_cents: number | null;
  order_status: OrderStatus | null;
  checked_in_at: Date | null;
  /** The membership or class pack the seat was booked on (issue 24), or null. */
  paid_with: string | null;
}

/** Builds the WHERE clause of the enrollments grid and export for one event. */
export function enrollmentWhere(
  organizationId: string,
  eventId: string,
  query: Pick<EnrollmentQuery, 'search' | 'filter'>,
) {
  const clauses = [`e.organization_id = ?`, `e.event_id = ?`, `e.status = 'active'`];
  const params: unknown[] = [organizationId, eventId];
  let readsStudent = false;
  const search = query.search?.toLowerCase();
  if (search) {
    clauses.push(`lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`);
    params.push(`%${likeEscape(search)}%`);
    readsStudent = true;
  }
  const f = query.filter;
  for (const [column, sql] of [
    ['first_name', 's.first_name'],
    ['last_name', 's.last_name'],
    ['email', 's.email'],
    ['phone', 's.phone'],
  ] as const) {
    const value = f[column]?.trim().toLowerCase();
    if (value) {
      // Name and email filters also match the indexed search expression, so the trigram index narrows them.
      if (column !== 'phone') {
        clauses.push(`lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`);
        params.push(`%${likeEscape(value)}%`);
      }
      clauses.push(`lower(${sql}) like ?`);
      params.push(`%${likeEscape(value)}%`);
      readsStudent = true;
    }
  }
  if (f.waiverStatus) {
    clauses.push(`e.waiver_status = ?`);
    params.push(f.waiverStatus);
  }
  if (f.guestCount !== undefined) {
    clauses.push(`e.guest_count = ?`);
    params.push(f.guestCount);
  }
  // attendanceOf in SQL: checked in, or not checked in before / after the session's end.
  if (f.attendance === 'checked_in') clauses.push(`e.checked_in_at is not null`);
  else if (f.attendance)
    clauses.push(
      `e.checked_in_at is null and ${f.attendance === 'no_show' ? '' : 'not '}exists (select 1 from event ev where ev.id = e.event_id and ev.ends_at <= now())`,
    );
  return { sql: clauses.join(' and '), params, readsStudent };
}

export const ENROLLMENT_SELECT = `
  select e.id as enrollment_id, e.student_id, e.created_at, e.guest_count, e.waiver_status, e.order_id, e.checked_in_at,
         s.first_name, s.last_name, s.email, s.phone, s.user_id,
         o.order_number, o.total_cents, o.refunded_cents, o.status as order_status, ${paidWithSql('enrollment', 'e')}
    from enrollment e
    join student s on s.id = e.student_id
    left join customer_order o on o.id = e.order_id`;

@Injectable()
export class EnrollmentGridQuery {
  constructor(private readonly em: EntityManager) {}

  /** One page of a session's enrollments: search, filters and sort in SQL, on indexes. */
  async list(ctx: RequestContext, eventId: string, query: EnrollmentQuery) {
    const where = enrollmentWhere(ctx.organizationId, eventId, query);
    const order = SORT_SQL[query.sortField](query.sortOrder);
    const connection = this.em.getConnection();
    // The session check runs beside the page and the count (one round trip, not two); the page
    // reads only the caller's organization, so another organization's session answers 404 and shows nothing.
    const [found, rows, [count], held] = await Promise.all([
      connection.execute<{ ends_at: Date }[]>(`select ends_at from event where id = ? and organization_id = ?`, [eventId, ctx.organizationId]),
      // Naming the students' organization lets a sort by name walk the student name index in order.
      connection.execute<EnrollmentRow[]>(
        `${ENROLLMENT_SELECT} where ${where.sql} and s.organization_id = ? order by ${order} limit ? offset ?`,
        [...where.params, ctx.organizationId, query.limit, (query.page - 1) * query.limit],
      ),
      // The count joins students only when the search or a filter reads them.
      connection.execute<{ total: string }[]>(
        `select count(*) as total from enrollment e${where.readsStudent ? ' join student s on s.id = e.student_id' : ''} where ${where.sql}`,
        where.params,
      ),
      // The seats held but not enrolled (payment links, waitlist offers, store checkouts): they count
      // against capacity, so the grid names them.
      heldSeats(connection, ctx.organizationId, eventId),
    ]);
    if (found.length === 0) throw notFound('Event not found');
    return { rows, total: Number(count.total), endsAt: new Date(found[0].ends_at), held };
  }
}

/** A grid row as the API answers it (the controller's enrollmentOut); attendance as of `now`. */
export function mapEnrollmentRow(row: EnrollmentRow, endsAt: Date, now: Date = new Date()) {
  return {
    enrollment_id: row.enrollment_id,
    student_id: row.student_id,
    created_at: new Date(row.created_at).toISOString(),
    checked_in_at: row.checked_in_at ? new Date(row.checked_in_at).toISOString() : null,
    attendance: attendanceOf(row.checked_in_at, endsAt, now),
    guestCount: row.guest_count,
    waiverStatus: row.waiver_status,
    Student: {
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      phone: row.phone,
      User: row.user_id ? { user_id: row.user_id } : null,
    },
    GuestEnrollments: Array.from({ length: row.guest_count }, (_, i) => ({ guest_number: i + 1 })),
    Order: row.order_id
      ? {
          order_id: row.order_id,
          order_number: row.order_number,
          totalPrice: row.total_cents ?? 0,
          refundedPrice: row.refunded_cents ?? 0,
          status: row.order_status ?? 'paid',
        }
      : null,
    paid_with: row.paid_with ?? null,
  };
}
