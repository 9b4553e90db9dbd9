import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ATTENDANCE_LABELS, attendanceOf, WAIVER_STATUS_LABELS } from '@studio/contracts';
import { stringify } from 'csv-stringify';
import { escapeLiteral, Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { RequestContext } from '../../common/request-context';
import { EventsService } from './events.service';

const BATCH = 5000;
/** Bytes per write of the COPY path's response (see copy()). */
const WRITE_BLOCK = 256 * 1024;
export const EXPORT_HEADER = [
  'First name',
  'Last name',
  'Email',
  'Phone',
  'Guests',
  'Waiver status',
  'Enrolled at',
  'Order number',
  'Order total',
  'Attendance',
];
/** The BOM (so spreadsheets read UTF-8) and the header, every name quoted like every cell. */
const HEADER_LINE = `\uFEFF${EXPORT_HEADER.map((h) => `"${h.replaceAll('"', '""')}"`).join(',')}\n`;

/**
 * neutraliseCsvCell (libs/contracts) in SQL, the same rule to the byte: a phone-shaped value (an
 * optional +, digits, spaces, ( ) . - with 7 digits or more) stays as is; otherwise an apostrophe
 * goes before a formula character (= + - @ tab CR) at the start of the cell or after a ; or ,
 * (optionally after spaces).
 * Cheapest test first (measured by `npm run bench`, issue 12): no , or ; in the cell and a first
 * character that is neither a formula character nor a space (ascii('') is 0) leaves nothing for
 * the rule to act on; most names and emails end there. Then the phone shape (its digits counted by
 * translate, not a regex: the shape allows only + ( ) . - space besides digits). Otherwise
 * regexp_replace, which answers the cell unchanged where the rule finds no formula character.
 * No "?" anywhere in the text but the batch size: the embedded path runs it through the ORM, which
 * reads "?" as a parameter ({0,1} stands for ?; the formula character is matched and put back, not
 * looked ahead at, which is the same since none of = + - @ tab CR is a ; or ,). No ";" either
 * (\x3b in the patterns, chr(59) in the test): the embedded driver runs a text with one as a
 * script and answers per statement.
 */
function neutralise(cell: string): string {
  return `case when strpos(${cell}, ',') = 0 and strpos(${cell}, chr(59)) = 0 and ascii(${cell}) not in (9, 13, 32, 43, 45, 61, 64) then ${cell}
    when ${cell} ~ '^\\+{0,1}[0-9][0-9 ().-]*[0-9]$' and length(translate(${cell}, '+ ().-', '')) >= 7 then ${cell}
    else regexp_replace(${cell}, '(^|[\\x3b,])( *)([=+@\\t\\r-])', '\\1\\2''\\3', 'g') end`;
}

/** The waiver status as the grid labels it (spec 001 §4), not the stored code. */
const WAIVER_LABEL = `case e.waiver_status ${Object.entries(WAIVER_STATUS_LABELS)
  .map(([code, label]) => `when ${escapeLiteral(code)} then ${escapeLiteral(label)}`)
  .join(' ')} else e.waiver_status end`;

/**
 * The export's one query: every cell formatted by PostgreSQL as the file shows it, so both paths
 * (COPY on a server, batches on the embedded database) write the same bytes. Guests, order number
 * and total are digits by the schema's checks (>= 0), the date and label are ours: only the
 * people's own text can hold a formula. Values are literals (COPY takes no parameters), escaped.
 *
 * One flat SELECT, the cells formatted in the same level as the sort: PostgreSQL then formats the
 * rows below the sort, in its parallel workers when it plans them, instead of one process after it
 * (a subquery sorted first and formatted outside took 2x COPY of the raw columns; this about 1.3x).
 * The local time is the timestamp's ISO text cut to the minute, cheaper than to_char. It needs
 * DateStyle ISO, which the COPY pool sets and every other connection of the API already has: it is
 * PostgreSQL's and PGlite's default, and node-postgres reads timestamps only in that style.
 */
export function exportQuery(input: {
  organizationId: string;
  eventId: string;
  zone: string;
  enrollmentIds: string[];
  /** The session's end: after it, a student not checked in is a no-show (attendanceOf). */
  endsAt: Date;
  /** The instant the attendance is read at (one per export, so both paths agree). */
  now: Date;
  cursor?: boolean;
  after?: { created_at: string; id: string } | null;
  /** Rows per batch, as the one bound parameter: without any, the embedded driver runs the text as a script and answers per statement. */
  limitParam?: boolean;
}): string {
  const only = input.enrollmentIds.length
    ? ` and e.id = any(${escapeLiteral(`{${input.enrollmentIds.join(',')}}`)}::uuid[])`
    : '';
  const keyset = input.after
    ? ` and (e.created_at, e.id) > (${escapeLiteral(input.after.created_at)}::timestamptz, ${escapeLiteral(input.after.id)}::uuid)`
    : '';
  // student.csv_plain (kept by PostgreSQL on every write, see its migration) says that no cell of
  // the row's own text needs the rule: one boolean per row instead of four tests.
  const person = (cell: string) => `case when s.csv_plain then ${cell} else ${neutralise(cell)} end`;
  const cells = [
    person('s.first_name'),
    person('s.last_name'),
    person('s.email'),
    person(`coalesce(s.phone, '')`),
    'e.guest_count::text',
    WAIVER_LABEL,
    `left((e.created_at at time zone ${escapeLiteral(input.zone)})::text, 16)`,
    `coalesce(o.order_number::text, '')`,
    // Integer arithmetic, not to_char of a numeric: total_cents is an integer >= 0 by the schema.
    `coalesce((o.total_cents / 100)::text || '.' || lpad((o.total_cents % 100)::text, 2, '0'), '')`,
    // Attendance by the one rule (libs/contracts attendanceOf), decided once per export: the
    // session's end is one value, so only the check-in differs from row to row.
    `case when e.checked_in_at is not null then ${escapeLiteral(ATTENDANCE_LABELS.checked_in)} else ${escapeLiteral(ATTENDANCE_LABELS[attendanceOf(null, input.endsAt, input.now)])} end`,
  ].map((sql, i) => `${sql} as c${i}`);
  if (input.cursor) cells.push('e.created_at::text as cursor_at', 'e.id::text as cursor_id');
  return `select ${cells.join(',\n      ')}
    from enrollment e
    join student s on s.id = e.student_id
    left join customer_order o on o.id = e.order_id
   where e.organization_id = ${escapeLiteral(input.organizationId)} and e.event_id = ${escapeLiteral(input.eventId)}
     and e.status = 'active'${only}${keyset}
   order by e.created_at, e.id${input.limitParam ? ' limit ?' : ''}`;
}

/**
 * Streams a session's enrollments as CSV (spec 001 §4). On PostgreSQL the rows come from
 * `COPY (...) TO STDOUT` straight into the response: the database formats and quotes every cell
 * and the API only forwards its bytes, so memory stays flat and the cost is close to COPY's own.
 * The embedded database (PGlite) has no COPY to a client stream: it reads the same query in
 * keyset batches and quotes with csv-stringify. Every field is quoted, empty ones too.
 */
@Injectable()
export class EnrollmentExportService implements OnModuleDestroy {
  /** Its own small pool: a connection in COPY mode is dropped on abort, never handed back to the ORM. */
  private pool: Pool | null = null;

  constructor(
    private readonly em: EntityManager,
    @Inject(EventsService) private readonly events: EventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async stream(
    ctx: RequestContext,
    eventId: string,
    enrollmentIds: string[],
    options: { path?: 'copy' | 'batches'; batch?: number; writeBlock?: number; now?: Date } = {},
  ): Promise<Readable> {
    const event = await this.events.requireEvent(ctx, eventId);
    const input = {
      organizationId: ctx.organizationId,
      eventId,
      zone: event.location.timezone,
      enrollmentIds,
      endsAt: event.endsAt,
      now: options.now ?? new Date(),
    };
    const path = options.path ?? (this.config.DATABASE_URL ? 'copy' : 'batches');
    return path === 'copy' ? this.copy(input, options.writeBlock ?? WRITE_BLOCK) : this.batches(input, options.batch ?? BATCH);
  }

  private async copy(input: Parameters<typeof exportQuery>[0], writeBlock: number): Promise<Readable> {
    // DateStyle ISO: the local time cell is the timestamp's text cut to the minute (see exportQuery).
    this.pool ??= new Pool({
      connectionString: this.config.DATABASE_URL,
      max: 4,
      idleTimeoutMillis: 10_000,
      options: '-c DateStyle=ISO,YMD',
    });
    const client: PoolClient = await this.pool.connect();
    const copy = client.query(copyTo(`copy (${exportQuery(input)}) to stdout with (format csv, force_quote *)`));
    async function* bytes() {
      let finished = false;
      try {
        // COPY answers a few KB per socket read; they go out in blocks of writeBlock bytes, so the
        // response is written in about 40 writes per 10 MB instead of a thousand (issue 12: the
        // writes were most of the API's CPU while it streamed).
        let block: Buffer[] = [Buffer.from(HEADER_LINE)];
        let size = block[0].length;
        for await (const chunk of copy) {
          block.push(chunk as Buffer);
          size += (chunk as Buffer).length;
          if (size >= writeBlock) {
            yield Buffer.concat(block, size);
            block = [];
            size = 0;
          }
        }
        if (size) yield Buffer.concat(block, size);
        finished = true;
      } finally {
        // A client that went away mid-COPY leaves the connection mid-protocol: it is closed, not reused.
        client.release(finished ? undefined : true);
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  private batches(input: Parameters<typeof exportQuery>[0], size: number): Readable {
    const connection = this.em.fork().getConnection();
    async function* rows(): AsyncGenerator<string[]> {
      // The cursor keeps PostgreSQL's microseconds (as text): a JS Date would round them away.
      let after: { created_at: string; id: string } | null = null;
      for (;;) {
        const answer: Record<string, string>[] | Record<string, string>[][] = await connection.execute(
          exportQuery({ ...input, cursor: true, after, limitParam: true }),
          [size],
          'all',
        );
        // Flattened should the driver still answer per statement.
        const batch = answer.flat() as Record<string, string>[];
        for (const r of batch) yield EXPORT_HEADER.map((_, i) => r[`c${i}`]);
        if (batch.length < size) return;
        const last = batch[batch.length - 1];
        after = { created_at: last.cursor_at, id: last.cursor_id };
      }
    }
    return Readable.from(
      (async function* () {
        yield HEADER_LINE;
        yield* Readable.from(rows()).pipe(stringify({ quoted: true, quoted_empty: true }));
      })(),
      { objectMode: false },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.end();
    this.pool = null;
  }
}
