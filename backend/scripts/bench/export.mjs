// The enrollment CSV export (POST /api/admin/export/enrollment) of one session of BENCH_ROWS
// enrollments, against PostgreSQL's own COPY ... TO STDOUT of the same rows (the raw columns, no
// formatting) read by bare pg in this process; and the API process's peak RSS growth while it
// streams, at BENCH_ROWS and at 1,000,000 rows (BENCH_BIG_ROWS, default 1000000; 0 skips it).
import { createRequire } from 'node:module';
import { bigSession } from './_seed.mjs';

const require = createRequire(import.meta.url);
const { to: copyTo } = require('pg-copy-streams');

/** Runs of the 1,000,000-row export and its COPY (the median is reported). */
const BIG_RUNS = Number(process.env.BENCH_BIG_RUNS ?? 3);

async function apiExport(ctx, eventId) {
  const res = await fetch(`${ctx.apiUrl}/api/admin/export/enrollment`, {
    method: 'POST',
    headers: ctx.headers,
    body: JSON.stringify({ event_id: eventId }),
  });
  if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
  return readCsv(res.body);
}

/** Reads a CSV stream to its end: its bytes and lines (both sides of the comparison do the same work). */
async function readCsv(chunks) {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, lines };
}

async function referenceCopy(ctx, eventId) {
  const copy = ctx.pg.query(
    copyTo(`copy (select s.first_name, s.last_name, s.email, s.phone, e.guest_count, e.waiver_status, e.created_at, o.order_number, o.total_cents
                    from enrollment e join student s on s.id = e.student_id left join customer_order o on o.id = e.order_id
                   where e.organization_id = '${ctx.organizationId}' and e.event_id = '${eventId}' and e.status = 'active'
                   order by e.created_at, e.id) to stdout with (format csv, header)`),
  );
  return readCsv(copy);
}

/** Runs export and COPY alternately `runs` times (after one warm-up each); answers medians and RSS. */
async function measure(ctx, eventId, runs) {
  await apiExport(ctx, eventId);
  await referenceCopy(ctx, eventId);
  const api = [];
  const copy = [];
  let out;
  const rss = ctx.watchRss(ctx.apiPid);
  for (let i = 0; i < runs; i++) {
    const a = await ctx.timeIt(() => apiExport(ctx, eventId));
    api.push(a.ms);
    out = a.result;
    copy.push((await ctx.timeIt(() => referenceCopy(ctx, eventId))).ms);
  }
  const memory = rss.stop();
  return { apiMs: ctx.median(api), copyMs: ctx.median(copy), memory, ...out };
}

export async function run(ctx) {
  const rows = [];
  const s0 = Date.now();
  const eventId = await bigSession(ctx, { rows: ctx.ROWS, tag: 'export' });
  ctx.log(`export: seeded ${ctx.ROWS} enrollments in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
  const m = await measure(ctx, eventId, ctx.ROWS >= 1_000_000 ? 1 : 5);
  if (m.lines - 1 !== ctx.ROWS) throw new Error(`export wrote ${m.lines - 1} rows, expected ${ctx.ROWS}`);
  const n = ctx.ROWS.toLocaleString('en-US');
  rows.push({
    ...ctx.ratioRow({ figure: `CSV export, ${n} rows (median)`, value: m.apiMs, reference: m.copyMs, max: 1.5 }),
    value: `${ctx.fmtMs(m.apiMs)} (${(m.bytes / 1e6).toFixed(1)} MB)`,
    reference: `${ctx.fmtMs(m.copyMs)} COPY`,
  });
  const memRow = (label, memory) => ({
    figure: `CSV export, ${label} rows: API peak RSS growth`,
    value: `+${memory.growthMb.toFixed(1)} MB`,
    reference: `${memory.idleMb.toFixed(0)} MB idle`,
    ratio: NaN,
    target: '<= 64 MB',
    met: memory.growthMb <= 64,
  });
  rows.push(memRow(n, m.memory));

  const big = Number(process.env.BENCH_BIG_ROWS ?? 1_000_000);
  if (ctx.ROWS >= 1_000_000) {
    ctx.note(`The export's 1,000,000-row memory figure is the BENCH_ROWS one (${n} rows).`);
  } else if (big > 0) {
    const b0 = Date.now();
    // Enrollments without orders: the left join gives empty order cells; memory is what is measured.
    const bigEvent = await bigSession(ctx, { rows: big, tag: 'exportbig', orders: false });
    ctx.log(`export: seeded ${big} enrollments in ${((Date.now() - b0) / 1000).toFixed(1)} s`);
    const mb = await measure(ctx, bigEvent, BIG_RUNS);
    if (mb.lines - 1 !== big) throw new Error(`export wrote ${mb.lines - 1} rows, expected ${big}`);
    const bn = big.toLocaleString('en-US');
    rows.push(memRow(bn, mb.memory));
    rows.push({
      ...ctx.ratioRow({ figure: `CSV export, ${bn} rows (median of ${BIG_RUNS})`, value: mb.apiMs, reference: mb.copyMs, max: 1.5 }),
      value: `${ctx.fmtMs(mb.apiMs)} (${(mb.bytes / 1e6).toFixed(1)} MB)`,
      reference: `${ctx.fmtMs(mb.copyMs)} COPY`,
    });
    ctx.note(
      `The ${bn}-row export figures use a second session seeded in the same run (BENCH_BIG_ROWS, 0 skips it), its enrollments without orders.`,
    );
  } else {
    ctx.note('The 1,000,000-row export memory figure was skipped (BENCH_BIG_ROWS=0).');
  }
  ctx.note(
    'Export reference: COPY ... TO STDOUT of the same rows, read by bare pg in the bench process: the same joins (enrollment, student, order), filter and order as the export, ' +
      "but the raw columns in PostgreSQL's own text. So the ratio is the export's own overhead: formatting (local time, money, waiver label), formula neutralisation and quoting in SQL, " +
      'plus the HTTP hop and the session check; a reference without the joins would charge the export for reading the rows it must read.',
  );
  return rows;
}
