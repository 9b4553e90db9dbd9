// Set-based seeding shared by the bench modules: one statement per table, never row by row and
// never through the API. Each helper takes the runner's ctx (see ../bench.mjs).

const FIRST_NAMES = [
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

/** The organization's location (America/New_York), instructor and one course; made once per run. */
export async function baseline(ctx) {
  if (ctx._baseline) return ctx._baseline;
  const { pg, organizationId: org } = ctx;
  const {
    rows: [location],
  } = await pg.query(
    `insert into location (id, organization_id, address, timezone) values (gen_random_uuid(), $1, '1 Bench St', 'America/New_York') returning id`,
    [org],
  );
  const {
    rows: [instructor],
  } = await pg.query(
    `insert into instructor (id, organization_id, first_name) values (gen_random_uuid(), $1, 'Bench') returning id`,
    [org],
  );
  const {
    rows: [activity],
  } = await pg.query(
    `insert into activity (id, organization_id, name, description, category_id, level, price_cents, capacity, location_id, instructor_id, cancel_policy_id, reschedule_policy_id)
     values (gen_random_uuid(), $1, 'Bench course', 'A course for the bench.', 4, 'Beginner', 5000, 10, $2, $3, 3, 4) returning id`,
    [org, location.id, instructor.id],
  );
  ctx._baseline = { locationId: location.id, instructorId: instructor.id, activityId: activity.id };
  return ctx._baseline;
}

/** `count` sessions of the bench course, 30 days ahead, each of `capacity` seats; answers their ids. */
export async function sessions(ctx, { count, capacity, name = 'Bench session' }) {
  const b = await baseline(ctx);
  const { rows } = await ctx.pg.query(
    `insert into event (id, organization_id, activity_id, name, capacity, price_cents, location_id, instructor_id, starts_at, ends_at)
     select gen_random_uuid(), $1, $2, $3 || ' ' || g, $4, 5000, $5, $6, now() + interval '30 days', now() + interval '30 days 2 hours'
       from generate_series(1, $7) g returning id`,
    [ctx.organizationId, b.activityId, name, capacity, b.locationId, b.instructorId, count],
  );
  return rows.map((r) => r.id);
}

/**
 * `count` new students whose emails carry `tag` (so several seedings never collide); answers
 * nothing: select them back with `email like '%@<tag>.bench'`.
 */
export async function students(ctx, { count, tag }) {
  await ctx.pg.query(
    `insert into student (id, organization_id, first_name, last_name, email, phone, created_at)
     select gen_random_uuid(), $1, ($2::text[])[1 + g % 16], 'Surname' || (g::bigint * 7919 % 100003), 'student' || g || '@' || $4 || '.bench',
            case when g % 3 = 0 then '+1 555 ' || lpad((g % 10000)::text, 4, '0') end, now() - (g || ' minutes')::interval
       from generate_series(1, $3) g`,
    [ctx.organizationId, FIRST_NAMES, count, tag],
  );
}

/**
 * One session with `rows` active enrollments of new students, each with a paid order (or none when
 * `orders` is false), then ANALYZE. Answers the session's id.
 */
export async function bigSession(ctx, { rows, tag, orders = true }) {
  const [eventId] = await sessions(ctx, { count: 1, capacity: rows + 10, name: `Big session ${tag}` });
  await students(ctx, { count: rows, tag });
  const { pg, organizationId: org } = ctx;
  if (orders) {
    await pg.query(
      `insert into customer_order (id, organization_id, order_number, student_id, status, source, total_cents, event_id, created_at)
       select gen_random_uuid(), $1, (select coalesce(max(order_number), 1000) from customer_order where organization_id = $1) + row_number() over (),
              s.id, 'paid', 'online', 5000 + (row_number() over ()) % 7 * 125, $2, s.created_at
         from student s where s.organization_id = $1 and s.email like $3`,
      [org, eventId, `%@${tag}.bench`],
    );
    // The organization's order counter moves past the seeded numbers, as the API's own orders do.
    await pg.query(
      `insert into order_counter (organization_id, last_number) select $1, max(order_number) from customer_order where organization_id = $1
       on conflict (organization_id) do update set last_number = excluded.last_number`,
      [org],
    );
    await pg.query(
      `insert into enrollment (id, organization_id, event_id, student_id, order_id, guest_count, waiver_status, created_at)
       select gen_random_uuid(), $1, $2, o.student_id, o.id, ((row_number() over ()) % 3 = 0)::int, 'not_required', o.created_at
         from customer_order o where o.event_id = $2`,
      [org, eventId],
    );
  } else {
    await pg.query(
      `insert into enrollment (id, organization_id, event_id, student_id, guest_count, waiver_status, created_at)
       select gen_random_uuid(), $1, $2, s.id, 0, 'not_required', s.created_at
         from student s where s.organization_id = $1 and s.email like $3`,
      [org, eventId, `%@${tag}.bench`],
    );
  }
  // Quiesced before anything is measured: the rows' visibility settled (vacuum), statistics fresh,
  // and the dirty pages written out (checkpoint), so autovacuum or a checkpoint started by the seed
  // does not run during one side's timings and not the other's.
  await pg.query('vacuum (analyze) enrollment, student, customer_order, order_line');
  await pg.query('checkpoint');
  return eventId;
}
