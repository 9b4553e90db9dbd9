#!/usr/bin/env node
// `npm run bench`: one session with 100,000 enrollments on a fresh PostgreSQL database.
// Prints the median latency of the enrollments grid's search+sort page request, and the time and
// peak memory of the 100,000-row CSV export next to PostgreSQL's own COPY ... TO STDOUT of the
// same rows, measured in the same run. The API runs as its own process, as in production.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { to: copyTo } = require('pg-copy-streams');

const ROWS = Number(process.env.BENCH_ROWS ?? 100000);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PG_ROOT =
  process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `studio_bench_${randomBytes(4).toString('hex')}`;
const dbUrl = new URL(PG_ROOT);
dbUrl.pathname = `/${dbName}`;

async function admin(sql) {
  const client = new Client({ connectionString: PG_ROOT });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function main() {
  await admin(`create database "${dbName}"`);
  const port = await freePort();
  const server = spawn(process.execPath, [join(ROOT, 'backend/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: dbUrl.toString(),
      SEED_DEMO: 'false',
      SERVE_WEB: 'false',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: `bench_${randomBytes(3).toString('hex')}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        /* starting */
      }
      if (i > 400) throw new Error('API did not start');
      await new Promise((r) => setTimeout(r, 100));
    }

    // Seed with set-based SQL: the organization and its owner through the CLI, the rest in bulk.
    const cli = spawn(
      process.execPath,
      [
        join(ROOT, 'backend/dist/cli/admin-create.js'),
        '--org',
        'Bench Studio',
        '--email',
        'bench@studio.test',
        '--password',
        'bench-password',
      ],
      {
        env: { ...process.env, DATABASE_URL: dbUrl.toString() },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    await new Promise((resolve, reject) =>
      cli.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`admin:create exited ${code}`)))),
    );
    const db = new Client({ connectionString: dbUrl.toString() });
    db.on('error', () => undefined); // the database is dropped at the end, connection or not
    await db.connect();
    const seedStart = Date.now();
    const {
      rows: [org],
    } = await db.query(`select id from organization limit 1`);
    await db.query(
      `insert into location (id, organization_id, address, timezone) values (gen_random_uuid(), $1, '1 Bench St', 'America/New_York')`,
      [org.id],
    );
    await db.query(
      `insert into instructor (id, organization_id, first_name) values (gen_random_uuid(), $1, 'Bench')`,
      [org.id],
    );
    await db.query(
      `insert into activity (id, organization_id, name, description, category_id, level, price_cents, capacity, location_id, instructor_id, cancel_policy_id, reschedule_policy_id)
       select gen_random_uuid(), $1, 'Bench course', 'A course with a very large session.', 4, 'Beginner', 5000, $2, l.id, i.id, 3, 4
         from location l, instructor i limit 1`,
      [org.id, ROWS + 10],
    );
    const {
      rows: [event],
    } = await db.query(
      `insert into event (id, organization_id, activity_id, name, capacity, price_cents, location_id, instructor_id, starts_at, ends_at)
       select gen_random_uuid(), $1, a.id, a.name, $2, 5000, a.location_id, a.instructor_id, now() + interval '30 days', now() + interval '30 days 2 hours'
         from activity a limit 1 returning id`,
      [org.id, ROWS + 10],
    );
    const first = [
      'Ana',
      'Bruno',
      'Carla',
      'Dmitri',
      'Elif',
      'Femi',
      'Greta',
      'Hiro',
      'Ines',
      'Jamal',
      'Kira',
      'Luca',
      'Mona',
      'Nils',
      'Olga',
      'Pavel',
    ];
    await db.query(
      `insert into student (id, organization_id, first_name, last_name, email, phone, created_at)
       select gen_random_uuid(), $1, ($2::text[])[1 + g % 16], 'Surname' || (g * 7919 % 100003), 'student' || g || '@bench.test',
              case when g % 3 = 0 then '+1 555 ' || lpad((g % 10000)::text, 4, '0') end, now() - (g || ' minutes')::interval
         from generate_series(1, $3) g`,
      [org.id, first, ROWS],
    );
    await db.query(
      `insert into customer_order (id, organization_id, order_number, student_id, status, source, total_cents, event_id, created_at)
       select gen_random_uuid(), $1, 1000 + row_number() over (), s.id, 'paid', 'online', 5000, $2, s.created_at from student s where s.organization_id = $1`,
      [org.id, event.id],
    );
    await db.query(
      `insert into enrollment (id, organization_id, event_id, student_id, order_id, guest_count, waiver_status, created_at)
       select gen_random_uuid(), $1, $2, o.student_id, o.id, ((row_number() over ()) % 3 = 0)::int, 'not_required', o.created_at
         from customer_order o where o.event_id = $2`,
      [org.id, event.id],
    );
    await db.query('analyze');
    const seedMs = Date.now() - seedStart;

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@studio.test', password: 'bench-password' }),
    });
    const { token } = await login.json();
    const headers = { token, 'content-type': 'application/json' };

    async function timed(path) {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      const body = await res.json();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, body };
    }
    const grid = `/api/admin/enrollment/event/${event.id}`;
    const scenarios = [
      [
        'search "ana" + sort by last name',
        (i) =>
          `${grid}?page=${1 + (i % 5)}&limit=20&search=${['ana', 'bruno', 'surname12', 'student99', 'greta'][i % 5]}&sortField=last_name&sortOrder=asc`,
      ],
      [
        'sort by last name, no search',
        (i) => `${grid}?page=${1 + (i % 50)}&limit=20&sortField=last_name&sortOrder=desc`,
      ],
      ['default page (created_at)', (i) => `${grid}?page=${1 + (i % 50)}&limit=20`],
      [
        'filter[email] + sort by email',
        (i) => `${grid}?page=1&limit=20&filter[email]=student${i % 100}&sortField=email`,
      ],
    ];
    const results = [];
    for (const [name, path] of scenarios) {
      for (let i = 0; i < 5; i++) await timed(path(i)); // warm up
      const times = [];
      let total = 0;
      for (let i = 0; i < 41; i++) {
        const { ms, body } = await timed(path(i));
        times.push(ms);
        total = body.totalCount;
      }
      results.push({ name, median: median(times), p95: p95(times), total });
    }

    // Export through the API, sampling the API process's memory while it streams.
    const idleRss = rssMb(server.pid);
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 10);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/admin/export/enrollment`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ event_id: event.id }),
    });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    const exportMs = performance.now() - t0;
    clearInterval(sampler);

    // PostgreSQL's own COPY of the same rows, for scale.
    const c0 = performance.now();
    const copy = db.query(
      copyTo(`copy (select s.first_name, s.last_name, s.email, s.phone, e.guest_count, e.waiver_status, e.created_at, o.order_number, o.total_cents
                      from enrollment e join student s on s.id = e.student_id left join customer_order o on o.id = e.order_id
                     where e.event_id = '${event.id}' and e.status = 'active' order by e.created_at, e.id) to stdout with (format csv, header)`),
    );
    let copyBytes = 0;
    for await (const chunk of copy) copyBytes += chunk.length;
    const copyMs = performance.now() - c0;
    await db.end();

    console.log(
      `\nBench: one session with ${ROWS.toLocaleString('en-US')} enrollments (seeded in ${(seedMs / 1000).toFixed(1)} s)\n`,
    );
    console.log('Enrollments grid page request (41 requests each, after 5 warm-up):');
    for (const r of results) {
      console.log(
        `  ${r.name.padEnd(36)} median ${r.median.toFixed(1).padStart(6)} ms   p95 ${r.p95.toFixed(1).padStart(6)} ms   (${r.total.toLocaleString('en-US')} matching)`,
      );
    }
    console.log('\nCSV export of every enrollment:');
    console.log(
      `  API POST /api/admin/export/enrollment   ${(exportMs / 1000).toFixed(2)} s, ${(bytes / 1e6).toFixed(1)} MB, ${(lines - 1).toLocaleString('en-US')} rows, API process RSS ${idleRss.toFixed(0)} MB idle -> ${peakRss.toFixed(0)} MB peak (+${(peakRss - idleRss).toFixed(0)} MB)`,
    );
    console.log(
      `  PostgreSQL COPY ... TO STDOUT           ${(copyMs / 1000).toFixed(2)} s, ${(copyBytes / 1e6).toFixed(1)} MB`,
    );
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    if (process.env.BENCH_KEEP) console.log(`Kept database ${dbName}`);
    else await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
