// Seats under load: 64 clients enrolling at once through the API's real enroll endpoint
// (POST /api/admin/orders/enroll/:student_id, which also writes the zero-total order) into
// sessions offered at 4x their capacity. The control is the naive count-then-insert written here
// with bare pg, 64 connections, the same shape of sessions and students: fast, and it oversells.
// Throughput is attempts answered per second (a seat or "full"), the same measure for both.
import { readFileSync } from 'node:fs';
import { sessions, students } from './_seed.mjs';

const CLIENTS = 64;
const SESSIONS = 16;
const CAPACITY = 16;
const OVERSUBSCRIBE = 4;

/** Every (student, session) attempt, interleaved so the clients crowd every session at once. */
async function attempts(ctx, tag, eventIds) {
  const total = SESSIONS * CAPACITY * OVERSUBSCRIBE;
  await students(ctx, { count: total, tag });
  const { rows } = await ctx.pg.query(
    `select id from student where organization_id = $1 and email like $2 order by email`,
    [ctx.organizationId, `%@${tag}.bench`],
  );
  return rows.map((r, i) => ({ studentId: r.id, eventId: eventIds[i % eventIds.length] }));
}

/** User + system CPU time of a process so far, in ms (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
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

export async function run(ctx) {
  // The API: its own sessions and students.
  const apiEvents = await sessions(ctx, { count: SESSIONS, capacity: CAPACITY, name: 'Seats API' });
  const apiQueue = await attempts(ctx, 'seatsapi', apiEvents);
  const statuses = {};
  const cpu0 = cpuMs(ctx.apiPid);
  const apiMs = await runClients(apiQueue, async ({ studentId, eventId }) => {
    const res = await fetch(`${ctx.apiUrl}/api/admin/orders/enroll/${studentId}`, {
      method: 'POST',
      headers: ctx.headers,
      body: JSON.stringify({ event_id: eventId }),
    });
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  });
  const apiCpuMs = cpuMs(ctx.apiPid) - cpu0;
  const unexpected = Object.keys(statuses).filter((s) => s !== '201' && s !== '409');
  if (unexpected.length) throw new Error(`enroll answered ${JSON.stringify(statuses)}`);
  const api = await oversold(ctx, apiEvents);

  // The control: count, then insert, no lock, no transaction.
  const controlEvents = await sessions(ctx, { count: SESSIONS, capacity: CAPACITY, name: 'Seats control' });
  const controlQueue = await attempts(ctx, 'seatsctl', controlEvents);
  const conns = await Promise.all(Array.from({ length: CLIENTS }, () => ctx.pgClient()));
  let controlMs;
  try {
    controlMs = await runClients(controlQueue, async ({ studentId, eventId }, c) => {
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
  const control = await oversold(ctx, controlEvents);

  const n = apiQueue.length;
  const apiRate = n / (apiMs / 1000);
  const controlRate = n / (controlMs / 1000);
  ctx.note(
    `Seats: ${CLIENTS} clients, ${n} attempts on ${SESSIONS} sessions of ${CAPACITY} seats (${OVERSUBSCRIBE}x); API answers ${JSON.stringify(statuses)}; ` +
      `the API process spent ${(apiCpuMs / n).toFixed(1)} ms of CPU per attempt; the count-then-insert control seated ${control.seated} of ${SESSIONS * CAPACITY} seats (${control.oversold} oversold).`,
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
  ];
}
