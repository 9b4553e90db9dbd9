import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  dateTimeInstant,
  encodeOrderCursor,
  parseDateTimeInput,
  type OrderCursor,
  type OrderListQuery,
  type OrderSortField,
} from '@studio/contracts';
import { likeEscape } from '../../common/like-escape';
import { RequestContext } from '../../common/request-context';
import { OrganizationsService } from '../organizations/organizations.service';
import { Order } from './entities/order.entity';

/*
 * The Orders page (spec 001 §2): a page of the organization's orders with their students (a read
 * across the orders and students tables, hence a query file), searched, filtered, sorted and paged
 * in SQL on the indexes of the order-details migration, by offset or by keyset cursor.
 */

/** ORDER BY of each sort of the Orders page; the id breaks ties so pages never overlap. */
const ORDER_SORT_SQL: Record<OrderSortField, (dir: 'asc' | 'desc') => string> = {
  created_at: (dir) => `o.created_at ${dir}, o.id ${dir}`,
  order_number: (dir) => `o.order_number ${dir}, o.id ${dir}`,
  total: (dir) => `o.total_cents ${dir}, o.id ${dir}`,
};

/** The sort key of each sort as an exact integer: the cursor carries it (created_at in microseconds). */
const ORDER_SORT_KEY_SQL: Record<OrderSortField, string> = {
  created_at: `(extract(epoch from o.created_at) * 1000000)::bigint`,
  order_number: 'o.order_number',
  total: 'o.total_cents',
};

/** Rows after the cursor's row in the sort's order, on the same indexes as the sort (keyset paging). */
function keysetClause(cursor: OrderCursor): { sql: string; params: unknown[] } {
  const op = cursor.o === 'desc' ? '<' : '>';
  switch (cursor.f) {
    case 'created_at':
      return {
        sql: `(o.created_at, o.id) ${op} (timestamptz 'epoch' + ?::float8 * interval '1 microsecond', ?::uuid)`,
        params: [cursor.k, cursor.id],
      };
    case 'order_number':
      // Unique in the organization: the number alone orders the rows.
      return { sql: `o.order_number ${op} ?`, params: [cursor.k] };
    case 'total':
      return { sql: `(o.total_cents, o.id) ${op} (?, ?::uuid)`, params: [cursor.k, cursor.id] };
  }
}

type OrderListRow = {
  id: string;
  order_number: number;
  status: Order['status'];
  source: string;
  total_cents: number;
  refunded_cents: number;
  created_at: Date;
  sort_key: string | number;
  student_id: string;
  first_name: string;
  last_name: string;
  email: string;
};

@Injectable()
export class OrderListQueryService {
  constructor(
    private readonly em: EntityManager,
    private readonly organizations: OrganizationsService,
  ) {}

  /**
   * A page of the organization's orders: search (order number, student name or email), filters
   * (status, source, created range), sort and paging, all in SQL on the indexes of the order-details migration.
   */
  async list(ctx: RequestContext, query: OrderListQuery) {
    const clauses = ['o.organization_id = ?'];
    const params: unknown[] = [ctx.organizationId];
    const term = query.search?.toLowerCase();
    if (term) {
      const number = /^#?\d{1,9}$/.test(term) ? Number(term.replace('#', '')) : null;
      const byName = `lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like ?`;
      if (number !== null) {
        clauses.push(`(o.order_number = ? or ${byName})`);
        params.push(number);
      } else clauses.push(byName);
      params.push(`%${likeEscape(term)}%`);
    }
    if (query.status) {
      clauses.push('o.status = ?');
      params.push(query.status);
    }
    if (query.source) {
      clauses.push('o.source = ?');
      params.push(query.source);
    }
    // A wall-clock bound ("2026-01-31T00:00") is read in the organization's zone.
    const wallClock = [query.created_from, query.created_to].some((d) => d && parseDateTimeInput(d)?.kind === 'wall');
    const zone = wallClock ? (await this.organizations.current(ctx)).timezone : null;
    if (query.created_from) {
      clauses.push('o.created_at >= ?');
      params.push(dateTimeInstant(query.created_from, zone));
    }
    if (query.created_to) {
      clauses.push('o.created_at < ?');
      params.push(dateTimeInstant(query.created_to, zone));
    }
    const from = 'customer_order o join student s on s.id = o.student_id';
    const where = clauses.join(' and ');
    const connection = this.em.getConnection();
    // With a cursor the page starts after its row (no OFFSET) and the count is not run again: the
    // page keeps the total of the first page it showed.
    const keyset = query.cursor ? keysetClause(query.cursor) : null;
    const [rows, count] = await Promise.all([
      connection.execute<OrderListRow[]>(
        `select o.id, o.order_number, o.status, o.source, o.total_cents, o.refunded_cents, o.created_at,
                s.id as student_id, s.first_name, s.last_name, s.email, ${ORDER_SORT_KEY_SQL[query.sortField]} as sort_key
         from ${from} where ${where}${keyset ? ` and ${keyset.sql}` : ''}
         order by ${ORDER_SORT_SQL[query.sortField](query.sortOrder)} limit ?${keyset ? '' : ' offset ?'}`,
        keyset ? [...params, ...keyset.params, query.limit] : [...params, query.limit, (query.page - 1) * query.limit],
      ),
      keyset ? null : connection.execute<{ total: string }[]>(`select count(*) as total from ${from} where ${where}`, params),
    ]);
    const last = rows.length === query.limit ? rows[rows.length - 1] : undefined;
    return {
      items: rows.map((r) => ({
        order_id: r.id,
        order_number: Number(r.order_number),
        status: r.status,
        source: r.source,
        total: Number(r.total_cents),
        refunded_amount: Number(r.refunded_cents),
        created_at: new Date(r.created_at).toISOString(),
        Student: { student_id: r.student_id, first_name: r.first_name, last_name: r.last_name, email: r.email },
      })),
      total: count ? Number(count[0].total) : null,
      nextCursor: last
        ? encodeOrderCursor({ f: query.sortField, o: query.sortOrder, k: Number(last.sort_key), id: last.id })
        : null,
    };
  }
}
