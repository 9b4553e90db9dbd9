// The lists bench's second reference, the floor: the same statements as each list request, behind
// a bare node:http server in its own process (like the API) on a pg pool, answering their rows as
// JSON: no framework, no auth, no validation, no shaping. It shows how much of the API's time over
// the SQL is HTTP itself (the client's request and read, the server's parse and write, the extra hop) and how
// much is ours. Started by lists.mjs; the scenarios are given once, then GET /<index> runs one.
// Usage (as a process): node _lists-floor.mjs <database url>; prints its port once listening.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { request } from './_http-client.mjs';

/**
 * A step's statements: a list of [text, values], or `{ afterIds: { prefix, suffix, values } }`, a
 * statement over the ids the request's first statement answered (`in ($n, …)` after the values).
 */
export function stepStatements(step, ids) {
  if (Array.isArray(step)) return step;
  const { prefix, suffix, values } = step.afterIds;
  return [[`${prefix}${ids.map((_, i) => `$${i + values.length + 1}`).join(', ')}${suffix}`, [...values, ...ids]]];
}

/** Starts the floor as its own process with the scenarios' steps; answers { get(index), pid, stop() }. */
export async function startListsFloor(dbUrl, scenarioSteps) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), dbUrl], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(scenarioSteps));
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`lists floor exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    pid: child.pid,
    async get(index) {
      const t0 = performance.now();
      const res = await request(`${base}/${index}`);
      const body = res.json();
      const ms = performance.now() - t0;
      if (!res.ok) throw new Error(`lists floor ${index}: ${res.status} ${JSON.stringify(body)}`);
      return ms;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

async function serve(dbUrl) {
  const require = createRequire(import.meta.url);
  const { Pool } = require('pg');
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const scenarios = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  // Three connections: the reference's clients, and enough for a request's statements side by side.
  const pool = new Pool({ connectionString: dbUrl, max: 3 });
  const answer = (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const server = createServer(async (req, res) => {
    try {
      const steps = scenarios[Number(req.url?.slice(1))];
      if (!steps) return answer(res, 404, { message: 'No such scenario' });
      let ids = null;
      let data = null;
      let total = null;
      for (const step of steps) {
        const results = await Promise.all(stepStatements(step, ids).map(([text, values]) => pool.query(text, values)));
        if (ids === null) {
          data = results[0].rows;
          ids = data.map((r) => r.id);
          total = results[1]?.rows[0]?.total ?? null;
        }
      }
      answer(res, 200, { data, total: total === null ? null : Number(total) });
    } catch (error) {
      answer(res, 500, { message: String(error?.message ?? error) });
    }
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  process.on('SIGTERM', () => {
    setTimeout(() => process.exit(0), 2000).unref();
    server.close(() => pool.end().then(() => process.exit(0)));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serve(process.argv[2]);
