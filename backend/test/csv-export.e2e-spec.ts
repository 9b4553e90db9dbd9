import { ATTENDANCE_LABELS, attendanceOf, neutraliseCsvCell, WAIVER_STATUS_LABELS } from '@studio/contracts';
import { stringify } from 'csv-stringify/sync';
import { Readable } from 'node:stream';
import { EnrollmentExportService, EXPORT_HEADER } from '../src/modules/scheduling/enrollment-export.service';
import { addStudent, scheduleSession, schedulableCourse } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/** A CSV line's fields (every field quoted, "" inside a field), without the quotes. */
function fields(line: string): string[] {
  expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
  return [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replaceAll('""', '"'));
}

describe('enrollment CSV export', () => {
  let t: TestApp;
  let token: string;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.organizationWithUser()).token;
    const course = await schedulableCourse(t, token);
    eventId = await scheduleSession(t, token, course, { capacity: 20 });
    const people: [string, string, string, string | undefined, string][] = [
      ['Ana', 'Zapata', 'ana@clay.test', '+1 212 555 0118', 'signed'],
      ['Bruno', 'Young', 'bruno@clay.test', undefined, 'pending'],
      ['Carla;=HYPERLINK("http://evil";"x")', 'Xu', 'carla@glass.test', '+44 (20) 7946-0958', 'expired'],
      ['Dan', 'Smith, -2+3', 'dan@clay.test', '+1-2', 'not_required'],
    ];
    for (const [first_name, last_name, email, phone, status] of people) {
      const studentId = await addStudent(t, token, { first_name, last_name, email, ...(phone && { phone }) });
      const enrolled = await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }).expect(201);
      // Signing waivers arrives with the waiver integration; the status is set directly here.
      await t.withEm((em) => em.getConnection().execute(`update enrollment set waiver_status = ? where id = ?`, [status, enrolled.body.enrollment_id]));
    }
  });
  afterAll(() => t.close());

  async function exportRows(): Promise<Record<string, string[]>> {
    const res = await t.http.post('/api/admin/export/enrollment').set('token', token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\n');
    expect(fields(lines[0])).toEqual(['First name', 'Last name', 'Email', 'Phone', 'Guests', 'Waiver status', 'Enrolled at', 'Order number', 'Order total', 'Attendance']);
    return Object.fromEntries(lines.slice(1).map((l) => [fields(l)[2], fields(l)]));
  }

  it('quotes every field, empty ones included', async () => {
    const res = await t.http.post('/api/admin/export/enrollment').set('token', token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\n');
    expect(lines).toHaveLength(5);
    const bruno = lines.find((l) => l.includes('bruno@clay.test'))!;
    expect(bruno).toMatch(/^"Bruno","Young","bruno@clay.test","","0","Pending",/);
  });

  it('neutralises a formula after ; or , as well as at the start of a cell', async () => {
    const rows = await exportRows();
    expect(rows['carla@glass.test'][0]).toBe('Carla;\'=HYPERLINK("http://evil";"x")');
    expect(rows['dan@clay.test'][1]).toBe("Smith, '-2+3");
  });

  it('leaves phone numbers readable, and neutralises what only starts like one', async () => {
    const rows = await exportRows();
    expect(rows['ana@clay.test'][3]).toBe('+1 212 555 0118');
    expect(rows['carla@glass.test'][3]).toBe('+44 (20) 7946-0958');
    expect(rows['dan@clay.test'][3]).toBe("'+1-2");
  });

  it('exports the waiver status as its label (spec 001 §4)', async () => {
    const rows = await exportRows();
    expect(
      Object.fromEntries(Object.entries(rows).map(([email, row]) => [email, row[5]])),
    ).toEqual({
      'ana@clay.test': 'Completed',
      'bruno@clay.test': 'Pending',
      'carla@glass.test': 'Unknown',
      'dan@clay.test': 'N/A',
    });
  });
});

describe('enrollment CSV export: COPY on PostgreSQL and batches on the embedded database write the same bytes', () => {
  let t: TestApp;
  let token: string;
  let organizationId: string;
  let eventId: string;
  const zone = 'America/New_York';

  // [first, last, email, phone (null: none), waiver, created_at (UTC instant)]
  const people: [string, string, string, string | null, string, string][] = [
    ['Ana "the clay" Ruiz', 'Zapata, Jr.', 'ana@clay.test', '+1 212 555 0118', 'signed', '2026-03-08T06:59:59.999999Z'],
    ['Line\nbreak', 'Carriage\r\nreturn', 'cr@clay.test', null, 'pending', '2026-03-08T07:00:00Z'],
    ['=1+1', '+SUM(A1)', '-2', '@cmd', 'expired', '2026-11-01T05:30:00Z'],
    ['\tTabbed', '\rReturned', 'x;=y@clay.test', '+1-2', 'not_required', '2026-11-01T06:30:00Z'],
    ['Zoë 李', 'Ø\u00a0Ünïcødé 🎨', 'zoe@clay.test', '+44 (20) 7946-0958', 'signed', '2026-01-01T04:59:59.5Z'],
    ['Carla;=HYPERLINK("http://evil";"x")', 'a;+b,-c;@d', 'carla@glass.test', '   ', 'pending', '2026-01-01T05:00:00Z'],
    ['""', ',', 'quote"@clay.test', '12 Main St, Apt 4', 'signed', '2026-06-30T23:59:59Z'],
    ['Ben', 'Same instant', 'ben@clay.test', null, 'signed', '2026-06-30T23:59:59Z'],
  ];

  beforeAll(async () => {
    t = await startTestApp();
    const created = await t.organizationWithUser();
    token = created.token;
    organizationId = created.organization.id;
    const course = await schedulableCourse(t, token);
    eventId = await scheduleSession(t, token, course, { capacity: 20 });
    for (const [first, last, email, phone, status, at] of people) {
      const studentId = await addStudent(t, token);
      const enrolled = await t.http.post(`/api/admin/orders/enroll/${studentId}`).set('token', token).send({ event_id: eventId }).expect(201);
      // Values the sign-up forms would refuse (newlines, tabs) can still come from an import: set directly.
      await t.withEm(async (em) => {
        await em.getConnection().execute(`update student set first_name = ?, last_name = ?, email = ?, phone = ? where id = ?`, [first, last, email, phone, studentId]);
        await em.getConnection().execute(`update enrollment set waiver_status = ?, created_at = ? where id = ?`, [status, at, enrolled.body.enrollment_id]);
      });
    }
    // One enrollment without an order: its order cells are empty.
    await t.withEm((em) => em.getConnection().execute(`update enrollment set order_id = null where id = (select id from enrollment where event_id = ? order by created_at desc, id desc limit 1)`, [eventId]));
    // One student checked in (issue 23): the Attendance column differs by row.
    await t.withEm((em) => em.getConnection().execute(`update enrollment set checked_in_at = now() where id = (select id from enrollment where event_id = ? order by created_at, id limit 1)`, [eventId]));
  });
  afterAll(() => t.close());

  const ctx = () => ({ organizationId, userId: 'test', sessionId: 'test', role: 'owner' as const });
  async function read(stream: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  /** What the export wrote when it formatted and neutralised every cell in JavaScript. */
  async function expectedCsv(): Promise<string> {
    const rows = await t.withEm((em) =>
      em.getConnection().execute<Record<string, string | number | null>[]>(
        `select s.first_name, s.last_name, s.email, s.phone, e.guest_count, e.waiver_status, e.created_at, o.order_number, o.total_cents,
                e.checked_in_at, ev.ends_at
           from enrollment e join student s on s.id = e.student_id left join customer_order o on o.id = e.order_id
           join event ev on ev.id = e.event_id
          where e.event_id = ? and e.status = 'active' order by e.created_at, e.id`,
        [eventId],
      ),
    );
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const date = (d: Date) => {
      const p = Object.fromEntries(local.formatToParts(d).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    };
    const cells = rows.map((r) =>
      [
        String(r.first_name),
        String(r.last_name),
        String(r.email),
        r.phone === null ? '' : String(r.phone),
        String(r.guest_count),
        WAIVER_STATUS_LABELS[String(r.waiver_status)],
        date(new Date(r.created_at as unknown as Date)),
        r.order_number === null ? '' : String(r.order_number),
        r.total_cents === null ? '' : (Number(r.total_cents) / 100).toFixed(2),
        ATTENDANCE_LABELS[attendanceOf(r.checked_in_at === null ? null : String(r.checked_in_at), String(r.ends_at))],
      ].map(neutraliseCsvCell),
    );
    return '\uFEFF' + stringify([EXPORT_HEADER, ...cells], { quoted: true, quoted_empty: true });
  }

  it('skips the formula rule only for rows whose own text it would not change (student.csv_plain)', async () => {
    const rows = await t.withEm((em) =>
      em.getConnection().execute<{ email: string; csv_plain: boolean | null }[]>(
        `select s.email, s.csv_plain from enrollment e join student s on s.id = e.student_id where e.event_id = ?`,
        [eventId],
      ),
    );
    const plain = new Map(rows.map((r) => [r.email, r.csv_plain === true]));
    // Newlines need quoting, not the rule; a phone-shaped phone keeps its +; the rest hold a , ; or a formula start.
    expect(people.map(([, , email]) => plain.get(email))).toEqual([false, true, false, false, true, false, false, true]);
    // Kept on every write: a name edited into a formula is no longer plain.
    await t.withEm((em) => em.getConnection().execute(`update student set first_name = '=cmd' where id = (select id from student where email = 'ben@clay.test' and organization_id = ?)`, [organizationId]));
    const [ben] = await t.withEm((em) =>
      em.getConnection().execute<{ csv_plain: boolean }[]>(`select csv_plain from student where email = 'ben@clay.test' and organization_id = ?`, [organizationId]),
    );
    expect(ben.csv_plain).toBe(false);
    await t.withEm((em) => em.getConnection().execute(`update student set first_name = 'Ben' where email = 'ben@clay.test' and organization_id = ?`, [organizationId]));
  });

  it('writes the same file from COPY, from batches, and as the cell-by-cell JavaScript export did', async () => {
    const exporter = t.created.app.get(EnrollmentExportService);
    const viaCopy = await t.withEm(async () => read(await exporter.stream(ctx(), eventId, [], { path: 'copy' })));
    const viaBatches = await t.withEm(async () => read(await exporter.stream(ctx(), eventId, [], { path: 'batches' })));
    // Batches of 3 walk the keyset across pages, through two enrollments of the same instant.
    const viaSmallBatches = await t.withEm(async () => read(await exporter.stream(ctx(), eventId, [], { path: 'batches', batch: 3 })));
    // Blocks of 1 and 200 bytes: every COPY chunk written alone, and blocks cut across chunks.
    const viaCopyBlocks = await Promise.all(
      [1, 200].map((writeBlock) => t.withEm(async () => read(await exporter.stream(ctx(), eventId, [], { path: 'copy', writeBlock })))),
    );
    const viaHttp = await t.http.post('/api/admin/export/enrollment').set('token', token).send({ event_id: eventId, enrollment_ids: [] }).expect(200);
    const expected = await expectedCsv();
    expect(viaCopy.toString('utf8')).toBe(expected);
    expect(viaBatches.equals(viaCopy)).toBe(true);
    expect(viaSmallBatches.equals(viaCopy)).toBe(true);
    for (const blocks of viaCopyBlocks) expect(blocks.equals(viaCopy)).toBe(true);
    expect(Buffer.from(viaHttp.text, 'utf8').equals(viaCopy)).toBe(true);
    // The tricky cells are really there, quoted and neutralised as a spreadsheet needs them.
    const text = viaCopy.toString('utf8');
    expect(text).toContain('"Ana ""the clay"" Ruiz","Zapata, Jr."');
    expect(text).toContain('"Line\nbreak","Carriage\r\nreturn","cr@clay.test",""');
    expect(text).toContain(`"'=1+1","'+SUM(A1)","'-2","'@cmd"`);
    expect(text).toContain(`"'\tTabbed","'\rReturned","x;'=y@clay.test","'+1-2"`);
    expect(text).toContain('"Zoë 李","Ø\u00a0Ünïcødé 🎨"');
    // Time-zone edges in New York: either side of both daylight-saving changes and of New Year.
    for (const local of ['2026-03-08 01:59', '2026-03-08 03:00', '2026-11-01 01:30', '2025-12-31 23:59', '2026-01-01 00:00'])
      expect(text).toContain(`"${local}"`);
    expect(text.match(/"2026-11-01 01:30"/g)).toHaveLength(2);
    // Attendance: the one checked in, the rest not yet (the session is next week).
    expect(text.match(/,"Checked in"\n/g)).toHaveLength(1);
    expect(text.match(/,"Not checked in"\n/g)).toHaveLength(people.length - 1);
  });

  it('writes the same bytes for a chosen subset on both paths', async () => {
    const exporter = t.created.app.get(EnrollmentExportService);
    const ids = await t.withEm((em) =>
      em.getConnection().execute<{ id: string }[]>(`select id from enrollment where event_id = ? order by created_at desc limit 3`, [eventId]),
    );
    const chosen = ids.map((r) => r.id);
    const viaCopy = await t.withEm(async () => read(await exporter.stream(ctx(), eventId, chosen, { path: 'copy' })));
    const viaBatches = await t.withEm(async () => read(await exporter.stream(ctx(), eventId, chosen, { path: 'batches' })));
    expect(viaBatches.equals(viaCopy)).toBe(true);
    expect(viaCopy.toString('utf8').trim().split('\n')).toHaveLength(4);
  });
});
