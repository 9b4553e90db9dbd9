// Seats under load: 64 clients enrolling at once through the API's real enroll endpoint
// (POST /api/admin/orders/enroll/:student_id, which also writes the zero-total order) into
// sessions offered at 4x their capacity. The control is the naive count-then-insert written here
// with bare pg, 64 connections, the same shape of sessions and students: fast, and it oversells.
// Throughput is attempts answered per second (a seat or "full"), the same measure for both.
// A second reference puts the same naive count-then-insert behind the API's HTTP shape (its own
// process answering POST /enroll/:student_id with JSON, on a pool of the API's size, no auth, no
// transaction: _http-control.mjs), so the cost of HTTP and JSON is shown apart from the rules.
// Each contender first runs a warm-up of WARMUP_SESSIONS sessions of the same shape (not counted),
// as the lists bench warms up: the figures are a running server's, not its first requests'.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from './_http-client.mjs';
import { sessions, students } from './_seed.mjs';

const CLIENTS = 64;
const SESSIONS = 16;
const CAPACITY = 16;
const OVERSUBSCRIBE = 4;
const WARMUP_SESSIONS = 4;

/** Every (student, session) attempt, interleaved so the clients crowd every session at once. */
async function attempts(ctx, tag, eventIds) {
  const total = eventIds.length * CAPACITY * OVERSUBSCRIBE;
  await students(ctx, { count: total, tag });
  const { rows } = await ctx.pg.query(
    `select id from student where organization_id = $1 and email like $2 order by email`,
    [ctx.organizationId, `%@${tag}.bench`],
  );
  return rows.map((r, i) => ({ studentId: r.id, eventId: eventIds[i % eventIds.length] }));
}

/** User and system CPU time of a process so far, in ms (clock ticks of 10 ms). */
const cpuTimes = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(f[11]) * 10, system: Number(f[12]) * 10 };
};
/** CPU spent between two cpuTimes readings, per attempt: "x ms (y user, z system)". */
const perAttempt = (a, b, n) => {
  const user = (b.user - a.user) / n;
  const system = (b.system - a.system) / n;
  return `${(user + system).toFixed(2)} ms (${user.toFixed(2)} user, ${system.toFixed(2)} system)`;
};

async function runClients(queue, work) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = next++; i < queue.length; i = next++) await work(queue[i], c);
    }),
  );
  return performance.now() - t0;
}

async function oversold(ctx, eventIds) {
  const { rows } = await ctx.pg.query(
    `select coalesce(sum(greatest(taken - capacity, 0)), 0)::int as oversold, coalesce(sum(taken), 0)::int as seated
       from (select ev.capacity, (select count(*) + coalesce(sum(e.guest_count), 0) from enrollment e where e.event_id = ev.id and e.status = 'active') as taken
               from event ev where ev.id = any($1::uuid[])) x`,
    [eventIds],
  );
  return rows[0];
}

/** Runs the queue through an HTTP enroll endpoint (the API's or the reference's); answers ms and statuses. */
async function overHttp(url, headers, queue) {
  const statuses = {};
  const ms = await runClients(queue, async ({ studentId, eventId }) => {
    const res = await request(`${url}/${studentId}`, { method: 'POST', headers, body: JSON.stringify({ event_id: eventId }) });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  });
  const unexpected = Object.keys(statuses).filter((s) => s !== '201' && s !== '409');
  if (unexpected.length) throw new Error(`${url} answered ${JSON.stringify(statuses)}`);
  return { ms, statuses };
}

/** The control: count, then insert, no lock, no transaction, on 64 bare pg connections. */
async function bareControl(ctx, queue) {
  const conns = await Promise.all(Array.from({ length: CLIENTS }, () => ctx.pgClient()));
  try {
    return await runClients(queue, async ({ studentId, eventId }, c) => {
      const db = conns[c];
      const {
        rows: [{ taken, capacity }],
      } = await db.query(
        `select (select count(*) + coalesce(sum(guest_count), 0) from enrollment where event_id = $1 and status = 'active')::int as taken,
                (select capacity from event where id = $1) as capacity`,
        [eventId],
      );
      if (taken + 1 > capacity) return;
      await db.query(
        `insert into enrollment (id, organization_id, event_id, student_id, guest_count, waiver_status) values (gen_random_uuid(), $1, $2, $3, 0, 'not_required')`,
        [ctx.organizationId, eventId, studentId],
      );
    });
  } finally {
    await Promise.all(conns.map((c) => c.end()));
  }
}

/** Sessions and their interleaved attempts for one contender (a warm-up and a measured run). */
async function round(ctx, name, tag, count) {
  const events = await sessions(ctx, { count, capacity: CAPACITY, name });
  return { events, queue: await attempts(ctx, tag, events) };
}

/** Starts _http-control.mjs as its own process; answers its base URL and a stop function. */
async function startHttpControl(ctx) {
  const child = spawn(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), '_http-control.mjs'), ctx.dbUrl, ctx.organizationId], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`HTTP control exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/enroll`,
    pid: child.pid,
    stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM')))),
  };
}

export async function run(ctx) {
  const apiUrl = `${ctx.apiUrl}/api/admin/orders/enroll`;
  // The API: its own sessions and students.
  const apiWarm = await round(ctx, 'Seats API warm-up', 'seatsapiw', WARMUP_SESSIONS);
  await overHttp(apiUrl, ctx.headers, apiWarm.queue);
  const apiRun = await round(ctx, 'Seats API', 'seatsapi', SESSIONS);
  const cpu0 = cpuTimes(ctx.apiPid);
  const { ms: apiMs, statuses } = await overHttp(apiUrl, ctx.headers, apiRun.queue);
  const apiCpu = perAttempt(cpu0, cpuTimes(ctx.apiPid), apiRun.queue.length);
  const api = await oversold(ctx, apiRun.events);

  // The control: count, then insert, no lock, no transaction.
  await bareControl(ctx, (await round(ctx, 'Seats control warm-up', 'seatsctlw', WARMUP_SESSIONS)).queue);
  const controlRun = await round(ctx, 'Seats control', 'seatsctl', SESSIONS);
  const controlMs = await bareControl(ctx, controlRun.queue);
  const control = await oversold(ctx, controlRun.events);

  // The same control behind the API's HTTP shape.
  const httpControl = await startHttpControl(ctx);
  let httpMs, httpCpu, httpStatuses, http;
  try {
    await overHttp(httpControl.url, { 'content-type': 'application/json' }, (await round(ctx, 'Seats HTTP warm-up', 'seatshttpw', WARMUP_SESSIONS)).queue);
    const httpRun = await round(ctx, 'Seats HTTP control', 'seatshttp', SESSIONS);
    const h0 = cpuTimes(httpControl.pid);
    ({ ms: httpMs, statuses: httpStatuses } = await overHttp(httpControl.url, { 'content-type': 'application/json' }, httpRun.queue));
    httpCpu = perAttempt(h0, cpuTimes(httpControl.pid), httpRun.queue.length);
    http = await oversold(ctx, httpRun.events);
  } finally {
    await httpControl.stop();
  }

  const n = apiRun.queue.length;
  const apiRate = n / (apiMs / 1000);
  const controlRate = n / (controlMs / 1000);
  const httpRate = n / (httpMs / 1000);
  ctx.note(
    `Seats: ${CLIENTS} clients, ${n} attempts on ${SESSIONS} sessions of ${CAPACITY} seats (${OVERSUBSCRIBE}x), after a warm-up of ${WARMUP_SESSIONS} such sessions per contender; API answers ${JSON.stringify(statuses)}; ` +
      `the API process spent ${apiCpu} of CPU per attempt; the count-then-insert control seated ${control.seated} of ${SESSIONS * CAPACITY} seats (${control.oversold} oversold); ` +
      `the same behind HTTP (own process, no auth, no transaction, no order) answered ${JSON.stringify(httpStatuses)}, spent ${httpCpu} of CPU per attempt and seated ${http.seated} (${http.oversold} oversold).`,
  );
  return [
    {
      figure: `Seats, ${CLIENTS} clients at ${OVERSUBSCRIBE}x capacity: oversold`,
      value: `${api.oversold} (API)`,
      reference: `${control.oversold} (control)`,
      ratio: NaN,
      target: '0',
      met: api.oversold === 0,
    },
    {
      figure: `Seats, ${CLIENTS} clients: throughput`,
      value: `${apiRate.toFixed(0)} /s (API)`,
      reference: `${controlRate.toFixed(0)} /s (control)`,
      ratio: apiRate / controlRate,
      target: '>= 0.5x',
      met: apiRate / controlRate >= 0.5,
    },
    {
      figure: `Seats, ${CLIENTS} clients: throughput, against count-then-insert over HTTP`,
      value: `${apiRate.toFixed(0)} /s (API)`,
      reference: `${httpRate.toFixed(0)} /s (HTTP control)`,
      ratio: apiRate / httpRate,
    },
  ];
}
