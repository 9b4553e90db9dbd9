// The seats bench's second reference: the naive count-then-insert behind the same HTTP shape as the
// API's enroll (POST /enroll/:student_id with a JSON body, a JSON answer, 201 or 409), as its own
// process like the API, on a pg pool of the API's default size. No auth, no transaction, no lock, no
// order: it oversells. It prints its port on stdout once listening.
// Usage: node _http-control.mjs <database url> <organization id>
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');

const [dbUrl, organizationId] = process.argv.slice(2);
const pool = new Pool({ connectionString: dbUrl, max: 20 });

const answer = (res, status, body) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const studentId = /^\/enroll\/([0-9a-f-]{36})$/.exec(req.url ?? '')?.[1];
      const { event_id: eventId } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (req.method !== 'POST' || !studentId || typeof eventId !== 'string') return answer(res, 400, { message: 'Bad request' });
      const {
        rows: [{ taken, capacity }],
      } = await pool.query(
        `select (select count(*) + coalesce(sum(guest_count), 0) from enrollment where event_id = $1 and status = 'active')::int as taken,
                (select capacity from event where id = $1) as capacity`,
        [eventId],
      );
      if (taken + 1 > capacity) return answer(res, 409, { statusCode: 409, message: 'This session is full' });
      const {
        rows: [row],
      } = await pool.query(
        `insert into enrollment (id, organization_id, event_id, student_id, guest_count, waiver_status) values (gen_random_uuid(), $1, $2, $3, 0, 'not_required') returning id`,
        [organizationId, eventId, studentId],
      );
      answer(res, 201, { enrollment_id: row.id });
    } catch (error) {
      answer(res, 500, { message: String(error?.message ?? error) });
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => {
  setTimeout(() => process.exit(0), 2000).unref();
  server.close(() => pool.end().then(() => process.exit(0)));
});
