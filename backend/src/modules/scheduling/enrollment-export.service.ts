import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { neutraliseCsvCell, WAIVER_STATUS_LABELS } from '@studio/contracts';
import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import { RequestContext } from '../../common/request-context';
import { EnrollmentRow, enrollmentWhere, ENROLLMENT_SELECT, EnrollmentsService } from './enrollments.service';
import { EventsService } from './events.service';

const BATCH = 5000;
const HEADER = [
  'First name',
  'Last name',
  'Email',
  'Phone',
  'Guests',
  'Waiver status',
  'Enrolled at',
  'Order number',
  'Order total',
];

/**
 * Streams a session's enrollments as CSV, reading the database in keyset batches so memory stays
 * flat whatever the row count. Every field is quoted, and cells a spreadsheet would run as formulas
 * are neutralised (neutraliseCsvCell: at the start and after ; or ,; phone numbers stay readable).
 */
@Injectable()
export class EnrollmentExportService {
  constructor(
    private readonly em: EntityManager,
    @Inject(EventsService) private readonly events: EventsService,
    @Inject(EnrollmentsService) private readonly enrollments: EnrollmentsService,
  ) {}

  async stream(ctx: RequestContext, eventId: string, enrollmentIds: string[]): Promise<Readable> {
    const event = await this.events.requireEvent(ctx, eventId);
    const zone = event.location.timezone;
    const where = enrollmentWhere(ctx.organizationId, eventId, { filter: {} });
    // One array parameter, not one per id: a selection can be larger than PostgreSQL's 65,535 parameters.
    const only = enrollmentIds.length ? ' and e.id = any(?::uuid[])' : '';
    const idList = enrollmentIds.length ? [`{${enrollmentIds.join(',')}}`] : [];
    const connection = this.em.fork().getConnection();

    async function* rows(): AsyncGenerator<string[]> {
      // The cursor keeps PostgreSQL's microseconds (as text): a JS Date would round them away.
      let after: { created_at: string; id: string } | null = null;
      for (;;) {
        const keyset: string = after ? ' and (e.created_at, e.id) > (?::timestamptz, ?)' : '';
        const params: unknown[] = [
          ...where.params,
          ...idList,
          ...(after ? [after.created_at, after.id] : []),
          BATCH,
        ];
        const batch: (EnrollmentRow & { created_cursor: string; enrolled_local: string })[] =
          await connection.execute(
            // Dates are formatted by PostgreSQL in the location's zone: no per-row time-zone work in JS.
            `${ENROLLMENT_SELECT.replace(
              'select ',
              `select e.created_at::text as created_cursor, to_char(e.created_at at time zone ?, 'YYYY-MM-DD HH24:MI') as enrolled_local, `,
            )} where ${where.sql}${only}${keyset} order by e.created_at, e.id limit ?`,
            [zone, ...params],
          );
        for (const r of batch) {
          yield [
            r.first_name,
            r.last_name,
            r.email,
            r.phone ?? '',
            String(r.guest_count),
            // The label the grid shows (spec 001 §4), not the stored code.
            WAIVER_STATUS_LABELS[r.waiver_status] ?? r.waiver_status,
            r.enrolled_local,
            r.order_number === null ? '' : String(r.order_number),
            r.total_cents === null ? '' : (r.total_cents / 100).toFixed(2),
          ].map(neutraliseCsvCell);
        }
        if (batch.length < BATCH) return;
        const last = batch[batch.length - 1];
        after = { created_at: last.created_cursor, id: last.enrollment_id };
      }
    }

    // Every field quoted, empty ones too: a reader in any locale sees each cell whole.
    return Readable.from(rows()).pipe(
      stringify({ header: true, columns: HEADER, bom: true, quoted: true, quoted_empty: true }),
    );
  }
}
