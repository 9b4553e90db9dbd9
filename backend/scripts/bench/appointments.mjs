// Bench module: appointments (issue 22). Two figures:
//
// 1. Slots for 60 days. One instructor with weekly hours, 2,000 booked appointments and 300 sessions
//    within those 60 days (set-based SQL), an appointment course booking the instructor's hours.
//    Each iteration is one GET /api/admin/activities/{id}/slots over HTTP (one call: 60 days is under
//    MAX_SLOTS_RANGE_DAYS) and one run of THE busy read the API runs for it (busyIntervalsQuery from
//    the built backend, with the same bounds the slots service reads: the asked range widened by the
//    buffers, the duration and its 240-minute margin) through bare pg in this process, alternating,
//    after a warm-up. The API's extra cost is the HTTP hop, the token, the course read, the slot
//    engine and the JSON: the target bounds it at 2x the busy read.
// 2. 50 racing bookings of one free slot: 50 concurrent POST /api/admin/activities/{id}/appointments
//    {student_id, starts_at} for 50 students. Target: one 201 and 49 409s, and one appointment row
//    for that time (the exclusion constraint's guarantee), counted in the table after the race.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { request } from './_http-client.mjs';
import { students } from './_seed.mjs';

const require = createRequire(import.meta.url);

const ITER = Number(process.env.BENCH_APPT_ITER ?? 50);
const WARMUP = 5;
const DAYS = 60;
const APPOINTMENTS = 2000;
const SESSIONS = 300;
const RACERS = 50;
const DURATION_MINS = 30;
/** The slots service's busy read reaches this far past the asked range (BUSY_MARGIN_MINS there). */
const BUSY_MARGIN_MINS = 240;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Weekdays 09:00–12:00 and 13:00–18:00, Saturday 10:00–14:00, Sunday closed. */
const WEEKLY = {
  mon: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }],
  tue: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }],
  wed: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }],
  thu: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }],
  fri: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }],
  sat: [{ start: '10:00', end: '14:00' }],
  sun: [],
};

/** `?` placeholders (the API's knex style) as pg's `$n`. */
const numbered = (sql) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

async function seed(ctx, from) {
  const { pg, organizationId: org } = ctx;
  const {
    rows: [location],
  } = await pg.query(
    `insert into location (id, organization_id, address, timezone) values (gen_random_uuid(), $1, '3 Appointment St', 'America/New_York') returning id`,
    [org],
  );
  const {
    rows: [instructor],
  } = await pg.query(
    `insert into instructor (id, organization_id, first_name, availability) values (gen_random_uuid(), $1, 'Hours', $2::jsonb) returning id`,
    [org, JSON.stringify({ weekly: WEEKLY, overrides: [] })],
  );
  // The window reaches past the 60 days asked, so every asked day is bookable.
  const {
    rows: [course],
  } = await pg.query(
    `insert into activity (id, organization_id, name, description, category_id, level, price_cents, capacity, location_id, instructor_id,
                           cancel_policy_id, reschedule_policy_id, activity_type, single_party, duration_mins, start_time_increments_mins,
                           buffer_before_mins, buffer_after_mins, booking_window_days)
     values (gen_random_uuid(), $1, 'Bench appointments', 'An appointment course for the bench.', 4, 'Beginner', 5000, 1, $2, $3,
             3, 4, 'appointment', true, $4, 15, 0, 0, $5) returning id`,
    [org, location.id, instructor.id, DURATION_MINS, DAYS + 2],
  );
  await students(ctx, { count: RACERS + 20, tag: 'appts' });
  const { rows: studentRows } = await pg.query(
    `select id from student where organization_id = $1 and email like '%@appts.bench' order by email`,
    [org],
  );
  // 2,000 booked appointments of 20 minutes on distinct half-hours spread over the 60 days (the
  // exclusion constraint forbids overlaps), each of one of the seeded students.
  const halfHours = DAYS * 48;
  await pg.query(
    `insert into appointment (id, organization_id, activity_id, instructor_id, location_id, student_id, guest_count, status,
                              starts_at, ends_at, blocked, created_at)
     select gen_random_uuid(), $1, $2, $3, $4, ($5::uuid[])[1 + g % array_length($5::uuid[], 1)], 0, 'booked',
            t, t + interval '20 minutes', tstzrange(t, t + interval '20 minutes', '[)'), now()
       from generate_series(0, $6 - 1) g,
            lateral (select $7::timestamptz + (floor(g::numeric * $8 / $6) * 30 || ' minutes')::interval as t) s`,
    [org, course.id, instructor.id, location.id, studentRows.slice(RACERS).map((r) => r.id), APPOINTMENTS, from, halfHours],
  );
  // 300 sessions of another (scheduled) course with the same instructor, one day each, of 90
  // minutes, spread over the 60 days (they may overlap appointments: sessions are busy time too).
  const {
    rows: [scheduled],
  } = await pg.query(
    `insert into activity (id, organization_id, name, description, category_id, level, price_cents, capacity, location_id, instructor_id, cancel_policy_id, reschedule_policy_id)
     values (gen_random_uuid(), $1, 'Bench classes', 'A scheduled course for the bench.', 4, 'Beginner', 5000, 10, $2, $3, 3, 4) returning id`,
    [org, location.id, instructor.id],
  );
  await pg.query(
    `with s as (
       select gen_random_uuid() as id, g, $5::timestamptz + (floor(g::numeric * $7 * 1440 / $6) || ' minutes')::interval as t
         from generate_series(0, $6 - 1) g),
     e as (
       insert into event (id, organization_id, activity_id, name, capacity, price_cents, location_id, instructor_id, starts_at, ends_at)
       select s.id, $1, $2, 'Bench class ' || s.g, 10, 5000, $3, $4, s.t, s.t + interval '90 minutes' from s returning id)
     insert into event_day (id, event_id, position, start_date, start_time, duration_mins, starts_at, ends_at)
     select gen_random_uuid(), s.id, 0, (s.t at time zone 'America/New_York')::date, to_char(s.t at time zone 'America/New_York', 'HH24:MI'),
            90, s.t, s.t + interval '90 minutes'
       from s join e on e.id = s.id`,
    [org, scheduled.id, location.id, instructor.id, from, SESSIONS, DAYS],
  );
  await pg.query('vacuum (analyze) appointment, event, event_day, activity, instructor');
  await pg.query('checkpoint');
  return { activityId: course.id, instructorId: instructor.id, racers: studentRows.slice(0, RACERS).map((r) => r.id) };
}

export async function run(ctx) {
  const { busyIntervalsQuery } = require(join(ctx.ROOT, 'backend/dist/modules/scheduling/busy-intervals.query.js'));
  // From the next hour on (the minimum notice is 0): every iteration asks the same 60 days.
  const from = new Date(Math.ceil(Date.now() / (60 * MINUTE)) * 60 * MINUTE + 60 * MINUTE);
  const to = new Date(from.getTime() + DAYS * DAY);
  const seeded = await seed(ctx, from);
  const slotsUrl = `${ctx.apiUrl}/api/admin/activities/${seeded.activityId}/slots?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;

  // The same busy read as the slots service's for this range (buffers 0; the window ends after `to`).
  const busy = busyIntervalsQuery({
    organizationId: ctx.organizationId,
    instructorId: seeded.instructorId,
    from: new Date(from.getTime() - BUSY_MARGIN_MINS * MINUTE),
    to: new Date(to.getTime() + (DURATION_MINS + BUSY_MARGIN_MINS) * MINUTE),
  });
  const busySql = numbered(busy.sql);
  const db = await ctx.pgClient();
  const api = [];
  const sql = [];
  let slotCount = 0;
  let busyCount = 0;
  try {
    for (let i = 0; i < WARMUP + ITER; i++) {
      const a = await ctx.timeIt(() => request(slotsUrl, { headers: ctx.headers }));
      if (a.result.status !== 200) throw new Error(`slots answered ${a.result.status}: ${a.result.body.toString('utf8').slice(0, 200)}`);
      const b = await ctx.timeIt(() => db.query(busySql, busy.params));
      if (i >= WARMUP) {
        api.push(a.ms);
        sql.push(b.ms);
      }
      slotCount = a.result.json().slots.length;
      busyCount = b.result.rows.length;
    }
  } finally {
    await db.end();
  }

  // The race: the first free start the API offers, 50 bookings of it at once.
  const slots = (await request(slotsUrl, { headers: ctx.headers })).json().slots;
  const startsAt = slots[Math.floor(slots.length / 2)]?.starts_at;
  if (!startsAt) throw new Error('the slots call answered no free start to race for');
  const bookUrl = `${ctx.apiUrl}/api/admin/activities/${seeded.activityId}/appointments`;
  const statuses = {};
  await Promise.all(
    seeded.racers.map(async (studentId) => {
      const res = await request(bookUrl, { method: 'POST', headers: ctx.headers, body: JSON.stringify({ student_id: studentId, starts_at: startsAt }) });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }),
  );
  const {
    rows: [{ rows: appointmentRows }],
  } = await ctx.pg.query(
    `select count(*)::int as rows from appointment where activity_id = $1 and starts_at = $2 and status <> 'cancelled'`,
    [seeded.activityId, startsAt],
  );
  // The hold answers 201 (a POST that creates); any 2xx counts as the booking made.
  const winners = Object.entries(statuses)
    .filter(([status]) => status.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
  const refused = statuses[409] ?? 0;
  // Any other answer (a 404 before the booking call exists, a 500) is shown in the row, not only in the note.
  const others = Object.entries(statuses)
    .filter(([status]) => !status.startsWith('2') && status !== '409')
    .map(([status, n]) => `, ${n} x ${status}`)
    .join('');

  ctx.note(
    `Appointments: one instructor (weekly hours, ${APPOINTMENTS} booked appointments and ${SESSIONS} sessions in ${DAYS} days), ` +
      `slots for ${DAYS} days in one call (${slotCount} free starts of ${DURATION_MINS} minutes every 15) against the busy read alone ` +
      `(busyIntervalsQuery through bare pg, ${busyCount} intervals), ${ITER} iterations after ${WARMUP} warm-up, alternating; ` +
      `${RACERS} concurrent bookings of ${startsAt} answered ${JSON.stringify(statuses)}, ${appointmentRows} appointment row(s) for that time.`,
  );
  const medianRow = ctx.ratioRow({ figure: `Slots, ${DAYS} days (2,000 appointments, 300 sessions): median`, value: ctx.median(api), reference: ctx.median(sql), max: 2 });
  const p99Row = ctx.ratioRow({ figure: `Slots, ${DAYS} days: p99`, value: ctx.p99(api), reference: ctx.p99(sql), max: 2 });
  return [
    { ...medianRow, reference: `${medianRow.reference} (busy SQL)` },
    { ...p99Row, reference: `${p99Row.reference} (busy SQL)` },
    {
      figure: `Appointments, ${RACERS} racing bookings of one slot`,
      value: `${winners} booked, ${refused} x 409${others}, ${appointmentRows} row(s)`,
      reference: '',
      ratio: NaN,
      target: `1 booked, ${RACERS - 1} x 409, 1 row`,
      met: winners === 1 && refused === RACERS - 1 && appointmentRows === 1,
    },
  ];
}
