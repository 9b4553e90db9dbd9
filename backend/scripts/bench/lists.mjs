// Bench module: every list the admin pages, the API against the same SQL through bare `pg`.
//
// Seeds its own rows with set-based SQL (10 x BENCH_ROWS orders, BENCH_ROWS students, a session of
// a few thousand enrollments, a few hundred courses, discounts and products), then for each list
// scenario alternates one API request and one run of the SQL that request runs (same database,
// same indexes, same run), and reports the median and p99 of each with their ratio.
// The reference runs the statements the API runs side by side (rows and count) on up to three
// connections, as the API does on its pool; the API's extra cost is the HTTP hop, the token lookup, validation
// and the JSON shaping, which is what the targets bound.
import { createRequire } from 'node:module';
import { request } from './_http-client.mjs';
import { startListsFloor, stepStatements } from './_lists-floor.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const ITER = Number(process.env.BENCH_LIST_ITER ?? 50);
/**
 * Iterations of the lists whose SQL is under FLOOR_BELOW_MS: a p99 needs a few hundred samples (of
 * 50 it is the single slowest request, one GC pause), and these cost a few ms each.
 */
const ITER_SMALL = Number(process.env.BENCH_LIST_ITER_SMALL ?? 300);
const WARMUP = 5;
/** Lists whose SQL median is under this many ms also run against the bare HTTP floor. */
const FLOOR_BELOW_MS = Number(process.env.BENCH_FLOOR_BELOW_MS ?? 20);

/** The opaque cursor of the orders list (the API's encoding; the bench builds deep ones directly). */
const orderCursor = (sortField, sortOrder, key, id) =>
  Buffer.from(JSON.stringify({ f: sortField, o: sortOrder, k: key, id })).toString('base64url');

async function seed(pg, org, rows) {
  const orders = rows * 10;
  const students = rows;
  const t0 = performance.now();
  await pg.query(`insert into location (id, organization_id, address, timezone) values (gen_random_uuid(), $1, '2 List St', 'America/New_York')`, [org]);
  await pg.query(`insert into instructor (id, organization_id, first_name) values (gen_random_uuid(), $1, 'Lists')`, [org]);
  const first = ['Ana', 'Bruno', 'Carla', 'Dmitri', 'Elif', 'Femi', 'Greta', 'Hiro', 'Ines', 'Jamal', 'Kira', 'Luca', 'Mona', 'Nils', 'Olga', 'Pavel'];
  await pg.query(
    `insert into student (id, organization_id, first_name, last_name, email, phone, created_at)
     select gen_random_uuid(), $1, ($2::text[])[1 + g % 16], 'Lname' || (g * 7919 % 100003), 'list' || g || '@lists.bench',
            case when g % 3 = 0 then '+1 555 ' || lpad((g % 10000)::text, 4, '0') end, now() - (g || ' minutes')::interval
       from generate_series(1, $3) g`,
    [org, first, students],
  );
  // Courses: a few hundred, each with two sessions.
  await pg.query(
    `insert into activity (id, organization_id, name, description, category_id, level, price_cents, capacity, location_id, instructor_id, cancel_policy_id, reschedule_policy_id, created_at)
     select gen_random_uuid(), $1, 'Course ' || g || ' ' || ($2::text[])[1 + g % 16], 'A bench course.', 4, 'Beginner', 1000 + g * 10, 10 + g % 40,
            l.id, i.id, 3, 4, now() - (g || ' hours')::interval
       from generate_series(1, 300) g,
            (select id from location where organization_id = $1 and address = '2 List St' limit 1) l,
            (select id from instructor where organization_id = $1 and first_name = 'Lists' limit 1) i`,
    [org, first],
  );
  await pg.query(
    `insert into event (id, organization_id, activity_id, name, capacity, price_cents, location_id, instructor_id, starts_at, ends_at)
     select gen_random_uuid(), $1, a.id, a.name, greatest(a.capacity, 5000), a.price_cents, a.location_id, a.instructor_id,
            now() + (k * 7 || ' days')::interval, now() + (k * 7 || ' days')::interval + interval '2 hours'
       from activity a, generate_series(-1, 1) k where a.organization_id = $1 and a.description = 'A bench course.'`,
    [org],
  );
  // Orders: 10 per student, numbered after the organization's existing ones.
  await pg.query(
    `insert into customer_order (id, organization_id, order_number, student_id, status, source, total_cents, created_at)
     select gen_random_uuid(), $1, base.n + row_number() over (order by s.created_at, k),
            s.id, (array['paid','paid','paid','pending','refunded','failed'])[1 + (k + length(s.email)) % 6],
            case when k % 5 = 0 then 'eventbrite' else 'online' end, 500 * (1 + (k * 37 + length(s.email)) % 40),
            s.created_at - (k || ' days')::interval
       from student s, generate_series(0, $2 - 1) k,
            (select coalesce(max(order_number), 1000) as n from customer_order where organization_id = $1) base
      where s.organization_id = $1 and s.email like '%@lists.bench'`,
    [org, orders / students],
  );
  // The organization's order counter moves past the seeded numbers (an upsert: without the export
  // module before it, the organization has no counter row yet, and an update alone left the API
  // numbering from 1001 into the seeded numbers: every later enroll answered 409).
  await pg.query(
    `insert into order_counter (organization_id, last_number) select $1, max(order_number) from customer_order where organization_id = $1
     on conflict (organization_id) do update set last_number = excluded.last_number`,
    [org],
  );
  // One session with a few thousand enrollments.
  const {
    rows: [event],
  } = await pg.query(
    `select e.id from event e join activity a on a.id = e.activity_id
      where e.organization_id = $1 and a.description = 'A bench course.' and e.starts_at > now() order by e.starts_at, e.id limit 1`,
    [org],
  );
  await pg.query(
    `insert into enrollment (id, organization_id, event_id, student_id, guest_count, waiver_status, created_at)
     select gen_random_uuid(), $1, $2, s.id, (row_number() over ()) % 3, 'not_required', s.created_at
       from (select id, created_at from student where organization_id = $1 and email like '%@lists.bench' order by created_at desc limit 4000) s`,
    [org, event.id],
  );
  // Discounts and products: a few hundred each.
  await pg.query(
    `insert into discount_code (id, organization_id, label, code, type, value, apply_logic, created_at)
     select gen_random_uuid(), $1, 'Bench offer ' || g, 'BENCH' || g, case when g % 2 = 0 then 'dollar' else 'percentage' end,
            case when g % 2 = 0 then 500 else 1 + g % 50 end, 'once', now() - (g || ' minutes')::interval
       from generate_series(1, 500) g`,
    [org],
  );
  await pg.query(
    `insert into product (id, organization_id, name, description, status, created_at)
     select gen_random_uuid(), $1, 'Product ' || g, 'A bench product.', 'published', now() - (g || ' minutes')::interval
       from generate_series(1, 300) g`,
    [org],
  );
  await pg.query(
    `insert into product_price (id, product_id, amount_cents, category, current)
     select gen_random_uuid(), p.id, 1500, 'oneTime', true from product p where p.organization_id = $1 and p.description = 'A bench product.'`,
    [org],
  );
  await pg.query('analyze');
  return { eventId: event.id, seedMs: performance.now() - t0, orders, students };
}

// The SQL each list request runs (kept in step with the services; `$n` for bare pg).
const CREATED_KEY = '(extract(epoch from o.created_at) * 1000000)::bigint';
const ORDER_FROM = 'customer_order o join student s on s.id = o.student_id';
const ORDER_COLUMNS = `o.id, o.order_number, o.status, o.source, o.total_cents, o.refunded_cents, o.created_at,
  s.id as student_id, s.first_name, s.last_name, s.email`;
const sql = {
  orders: (org, { order = 'o.created_at desc, o.id desc', offset = 0, where = '', params = [], keyColumn = CREATED_KEY } = {}) => [
    [
      [
        `select ${ORDER_COLUMNS}, ${keyColumn} as sort_key from ${ORDER_FROM} where o.organization_id = $1${where} order by ${order} limit 20 offset ${offset}`,
        [org, ...params],
      ],
      [`select count(*) as total from ${ORDER_FROM} where o.organization_id = $1${where}`, [org, ...params]],
    ],
  ],
  ordersAfter: (org, { order, keyset, params, keyColumn = CREATED_KEY }) => [
    [
      [
        `select ${ORDER_COLUMNS}, ${keyColumn} as sort_key from ${ORDER_FROM} where o.organization_id = $1 and ${keyset} order by ${order} limit 20`,
        [org, ...params],
      ],
    ],
  ],
  students: (org, { where = '', params = [], offset = 0 } = {}) => [
    [
      [
        `select s.id, s.first_name, s.last_name, s.email, s.phone, s.user_id, s.created_at from student s
          where s.organization_id = $1${where} order by s.last_name asc, s.first_name asc, s.id asc limit 20 offset ${offset}`,
        [org, ...params],
      ],
      [`select count(*) as total from student s where s.organization_id = $1${where}`, [org, ...params]],
    ],
  ],
  enrollments: (org, event, { where = '', params = [], order = 'e.created_at asc, e.id asc', offset = 0, countJoin = false } = {}) => [
    [
      [`select 1 as found from event where id = $1 and organization_id = $2`, [event, org]],
      [
      `select e.id as enrollment_id, e.student_id, e.created_at, e.guest_count, e.waiver_status, e.order_id,
              s.first_name, s.last_name, s.email, s.phone, s.user_id, o.order_number, o.total_cents
         from enrollment e join student s on s.id = e.student_id left join customer_order o on o.id = e.order_id
        where e.organization_id = $1 and e.event_id = $2 and e.status = 'active'${where} and s.organization_id = $1
        order by ${order} limit 20 offset ${offset}`,
      [org, event, ...params],
    ],
    [
      `select count(*) as total from enrollment e${countJoin ? ' join student s on s.id = e.student_id' : ''}
        where e.organization_id = $1 and e.event_id = $2 and e.status = 'active'${where}`,
      [org, event, ...params],
      ],
    ],
  ],
  // The courses list: the page (with first image and address) and the count side by side, then the
  // page's sessions summary (two round trips, as the service makes them).
  courses: (org, { order = 'a.created_at desc, a.id desc' } = {}) => [
    [
      [
        `select a.id, a.name, a.activity_type, a.status, a.price_type, a.price_cents, a.capacity, a.created_at,
                l.address as location_address,
                (select m.url from activity_image ai join media m on m.id = ai.media_id
                  where ai.activity_id = a.id order by ai.position limit 1) as image
           from activity a join location l on l.id = a.location_id
          where a.organization_id = $1 order by ${order} limit 20 offset 0`,
        [org],
      ],
      [`select count(*) as total from activity a where a.organization_id = $1`, [org]],
    ],
    // The page's sessions summary, for the ids the first step answered (see stepStatements).
    {
      afterIds: {
        prefix: `select activity_id, count(*) as event_count, count(*) filter (where starts_at > now()) as future_count,
                min(starts_at) filter (where starts_at > now()) as next_start
           from event where organization_id = $1 and activity_id in (`,
        suffix: `) and status = 'active' group by activity_id`,
        values: [org],
      },
    },
  ],
  discounts: (org) => [
    [
      [
        `select d.id, d.label, d.code, d.type, d.value, d.activity_id, d.apply_logic, d.start_date, d.expiration_date,
                d.times_used, d.created_at, d.updated_at
           from discount_code d where d.organization_id = $1 order by d.created_at desc, d.id desc limit 20 offset 0`,
        [org],
      ],
      [`select count(*) as total from discount_code d where d.organization_id = $1`, [org]],
    ],
  ],
  products: (org) => [
    [
      [
        `select p.id, p.name, p.status, p.created_at,
                pp.amount_cents, pp.category, pp.renewal_interval_unit, pp.renewal_interval_quantity, pp.earned_loyalty_points,
                (select m.url from product_image pi join media m on m.id = pi.media_id where pi.product_id = p.id order by pi.position limit 1) as image
           from product p join product_price pp on pp.product_id = p.id and pp.current
          where p.organization_id = $1 order by p.created_at desc, p.id desc limit 20 offset 0`,
        [org],
      ],
      [`select count(*) as total from product p where p.organization_id = $1`, [org]],
    ],
  ],
};

export async function run(ctx) {
  const { ROWS, dbUrl, pg, apiUrl, token, organizationId: org, median, p99 } = ctx;
  const seeded = await seed(pg, org, ROWS);
  // More connections, so the reference runs a request's statements side by side as the API does on its pool.
  const extra = [];
  for (let i = 0; i < 2; i++) {
    const client = new Client({ connectionString: dbUrl });
    client.on('error', () => undefined);
    await client.connect();
    extra.push(client);
  }
  const clients = [pg, ...extra];
  const headers = { token };

  async function api(path) {
    const t0 = performance.now();
    const res = await request(`${apiUrl}${path}`, { headers });
    const body = res.json();
    const ms = performance.now() - t0;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms, body };
  }
  /**
   * The statements of one request, as the API sends them: a list of steps run one after the other,
   * the statements of a step side by side; a step may depend on the first step's ids.
   */
  async function reference(steps) {
    const t0 = performance.now();
    let ids = null;
    for (const step of steps) {
      const statements = stepStatements(step, ids);
      const results = await Promise.all(statements.map(([text, values], i) => clients[i % clients.length].query(text, values)));
      if (ids === null) ids = results[0].rows.map((r) => r.id);
    }
    return performance.now() - t0;
  }

  // Deep cursors of the orders list, built from the row at that depth (the API encodes it the same way).
  const depth = Math.min(seeded.orders - 100, Math.max(1000, Math.floor(seeded.orders / 2)));
  const deepRow = async (order, key) =>
    (await pg.query(`select o.id, ${key} as k from customer_order o where o.organization_id = $1 order by ${order} offset ${depth} limit 1`, [org])).rows[0];
  const deepCreated = await deepRow('o.created_at desc, o.id desc', CREATED_KEY);
  const deepNumber = await deepRow('o.order_number asc', 'o.order_number');
  const probe = await api('/api/admin/orders?limit=20');
  const hasCursor = 'next_cursor' in probe.body;

  const scenarios = [
    ['orders: first page (newest)', () => '/api/admin/orders?limit=20', () => sql.orders(org)],
    [
      'orders: status filter, by total',
      () => '/api/admin/orders?limit=20&status=paid&sortField=total&sortOrder=desc',
      () => sql.orders(org, { where: ' and o.status = $2', params: ['paid'], order: 'o.total_cents desc, o.id desc', keyColumn: 'o.total_cents' }),
    ],
    [
      'orders: search "greta"',
      () => '/api/admin/orders?limit=20&search=greta',
      () =>
        sql.orders(org, {
          where: ` and lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like $2`,
          params: ['%greta%'],
        }),
    ],
    hasCursor
      ? [
          `orders: deep page (row ${depth.toLocaleString('en-US')}, newest first, cursor)`,
          () => `/api/admin/orders?limit=20&page=${depth / 20 + 1}&cursor=${orderCursor('created_at', 'desc', Number(deepCreated.k), deepCreated.id)}`,
          () =>
            sql.ordersAfter(org, {
              order: 'o.created_at desc, o.id desc',
              keyset: `(o.created_at, o.id) < (timestamptz 'epoch' + $2::float8 * interval '1 microsecond', $3::uuid)`,
              params: [Number(deepCreated.k), deepCreated.id],
            }),
        ]
      : [
          `orders: deep page (row ${depth.toLocaleString('en-US')}, newest first, offset)`,
          () => `/api/admin/orders?limit=20&page=${Math.floor(depth / 20) + 1}`,
          () => sql.orders(org, { offset: Math.floor(depth / 20) * 20 }),
        ],
    hasCursor
      ? [
          `orders: deep page (row ${depth.toLocaleString('en-US')}, by number, cursor)`,
          () =>
            `/api/admin/orders?limit=20&page=${depth / 20 + 1}&sortField=order_number&sortOrder=asc&cursor=${orderCursor('order_number', 'asc', Number(deepNumber.k), deepNumber.id)}`,
          () =>
            sql.ordersAfter(org, {
              order: 'o.order_number asc, o.id asc',
              keyset: 'o.order_number > $2',
              params: [Number(deepNumber.k)],
              keyColumn: 'o.order_number',
            }),
        ]
      : [
          `orders: deep page (row ${depth.toLocaleString('en-US')}, by number, offset)`,
          () => `/api/admin/orders?limit=20&page=${Math.floor(depth / 20) + 1}&sortField=order_number&sortOrder=asc`,
          () => sql.orders(org, { offset: Math.floor(depth / 20) * 20, order: 'o.order_number asc, o.id asc', keyColumn: 'o.order_number' }),
        ],
    ['students: first page', () => '/api/admin/student?limit=20', () => sql.students(org)],
    [
      'students: search "ines"',
      () => '/api/admin/student?limit=20&search=ines',
      () => sql.students(org, { where: ` and lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like $2`, params: ['%ines%'] }),
    ],
    [
      'enrollments: default page',
      () => `/api/admin/enrollment/event/${seeded.eventId}?limit=20`,
      () => sql.enrollments(org, seeded.eventId),
    ],
    [
      'enrollments: search + sort by last name',
      () => `/api/admin/enrollment/event/${seeded.eventId}?limit=20&search=ana&sortField=last_name&sortOrder=asc`,
      () =>
        sql.enrollments(org, seeded.eventId, {
          where: ` and lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like $3`,
          params: ['%ana%'],
          order: 's.last_name asc, s.first_name asc, s.id asc',
          countJoin: true,
        }),
    ],
    [
      'enrollments: filter[email] + sort by email',
      () => `/api/admin/enrollment/event/${seeded.eventId}?limit=20&filter[email]=list1&sortField=email`,
      () =>
        sql.enrollments(org, seeded.eventId, {
          where: ` and lower(s.first_name || ' ' || s.last_name || ' ' || s.email) like $3 and lower(s.email) like $3`,
          params: ['%list1%'],
          order: 's.email asc',
          countJoin: true,
        }),
    ],
    ['courses: first page (newest)', () => '/api/admin/activities?limit=20', () => sql.courses(org)],
    [
      'courses: by name',
      () => '/api/admin/activities?limit=20&sortField=name',
      () => sql.courses(org, { order: 'lower(a.name) asc, a.id asc' }),
    ],
    ['discounts: first page', () => '/api/admin/promo-code?limit=20', () => sql.discounts(org)],
    ['products: first page', () => '/api/admin/products?limit=20', () => sql.products(org)],
  ];

  // The floor (see _lists-floor.mjs) for the lists whose SQL takes under FLOOR_BELOW_MS: there the
  // fixed cost of an HTTP request is most of the API's time, and the floor shows how much.
  const small = [];
  for (const [, , statements] of scenarios) {
    const probe = [];
    for (let i = 0; i < 3; i++) probe.push(await reference(statements()));
    small.push(median(probe) < FLOOR_BELOW_MS);
  }
  const floor = await startListsFloor(dbUrl, scenarios.map(([, , statements], i) => (small[i] ? statements() : null)));

  const rows = [];
  const floorRows = [];
  const fmt = (ms) => `${ms.toFixed(2)} ms`;
  try {
    for (const [index, [name, path, statements]] of scenarios.entries()) {
      const apiTimes = [];
      const refTimes = [];
      const floorTimes = [];
      const contenders = small[index] ? ['api', 'ref', 'floor'] : ['api', 'ref'];
      const iterations = small[index] ? ITER_SMALL : ITER;
      for (let i = 0; i < WARMUP + iterations; i++) {
        // Rotate which goes first, so none always finds the cache warmer.
        const order = contenders.map((_, k) => contenders[(i + k) % contenders.length]);
        for (const which of order) {
          const ms =
            which === 'api' ? (await api(path())).ms : which === 'ref' ? await reference(statements()) : await floor.get(index);
          if (i >= WARMUP) ({ api: apiTimes, ref: refTimes, floor: floorTimes })[which].push(ms);
        }
      }
      const m = [median(apiTimes), median(refTimes)];
      const p = [p99(apiTimes), p99(refTimes)];
      rows.push(
        { figure: `list ${name}: median`, value: fmt(m[0]), reference: fmt(m[1]), ratio: m[0] / m[1], target: '<= 1.5x', met: m[0] / m[1] <= 1.5 },
        { figure: `list ${name}: p99`, value: fmt(p[0]), reference: fmt(p[1]), ratio: p[0] / p[1], target: '<= 2x', met: p[0] / p[1] <= 2 },
      );
      if (floorTimes.length) {
        const f = median(floorTimes);
        floorRows.push({
          figure: `list ${name}: median, against the same SQL behind bare node:http`,
          value: fmt(m[0]),
          reference: `${fmt(f)} (floor)`,
          ratio: m[0] / f,
          target: '',
          floorOverSql: f / m[1],
        });
      }
    }
  } finally {
    await floor.stop();
  }
  rows.push(...floorRows);
  if (floorRows.length) {
    const worst = Math.max(...floorRows.map((r) => r.floorOverSql));
    const best = Math.min(...floorRows.map((r) => r.floorOverSql));
    const over = floorRows.filter((r) => r.floorOverSql > 1.5).length;
    ctx.note(
      `Lists floor: for the ${floorRows.length} lists whose SQL takes under ${FLOOR_BELOW_MS} ms, the same statements behind a bare node:http server on a pg pool ` +
        `(_lists-floor.mjs, own process, no framework, no auth) take ${best.toFixed(2)}x to ${worst.toFixed(2)}x their SQL; for ${over} of them HTTP alone is over the 1.5x median target. ` +
        'The "against bare node:http" rows show the API against that floor.',
    );
  }
  await Promise.all(extra.map((c) => c.end()));
  rows.unshift({
    figure: `lists: seeded ${seeded.orders.toLocaleString('en-US')} orders, ${seeded.students.toLocaleString('en-US')} students (set-based SQL)`,
    value: `${(seeded.seedMs / 1000).toFixed(1)} s`,
    reference: '',
    ratio: null,
    target: '',
    met: true,
  });
  return rows;
}
