// The seeded demo database, made once per run of the browser tests and copied for each test file.
//
// Every browser test starts its own app server on a fresh database with the demo data (SEED_DEMO).
// Seeding took 8 to 12 s of a loaded 2-core machine per file (users' password hashes, the courses'
// generated images, a few hundred orders and seats), about a third of each file's start. The runner
// (run-browser-tests.mjs) seeds one database through the real app instead, stops it once its outbox
// is drained, and names it in E2E_DEMO_TEMPLATE; createDatabase copies it (`CREATE DATABASE …
// TEMPLATE`, well under a second), and the server started on the copy finds the demo there and seeds
// nothing. A file run alone (no E2E_DEMO_TEMPLATE) seeds as before.
//
// The demo's times are relative to when it was seeded: days before and after, so the minutes a run
// takes change nothing the tests read. Delayed queue jobs the seeding server scheduled (reminders
// days ahead, a payment link's expiry tomorrow) are not copied; no test waits for them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, ROOT, startServer } from './server.mjs';

const ROOT_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG = ['-h', '127.0.0.1', '-U', 'postgres'];
const quote = (name) => `"${name.replace(/"/g, '""')}"`;

async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const databaseUrl = (name) => {
  const url = new URL(ROOT_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Waits until the database's outbox has nothing left to hand over (or `timeoutMs` passed). */
async function outboxDrained(url, timeoutMs = 60000) {
  const until = Date.now() + timeoutMs;
  await withClient(url, async (client) => {
    for (;;) {
      const { rows } = await client.query(
        'select count(*)::int as open from outbox_message where done_at is null and failed_at is null',
      );
      if (rows[0].open === 0) return;
      if (Date.now() > until) throw new Error(`the demo seed's outbox still has ${rows[0].open} rows open`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });
}

/**
 * Seeds a database through the built app (backend/dist/main.js, as `npm start` would) and makes it
 * the run's template: answers its name. `drop()` it when the run ends.
 */
export async function createDemoTemplate(env = {}) {
  const name = `studio_demo_tpl_${process.pid}_${Date.now()}`;
  const building = `${name}_building`;
  const made = spawnSync(process.execPath, [join(ROOT, 'backend/dist/cli/test-database.js'), building], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`creating ${building} failed: ${made.stderr}`);
  const started = Date.now();
  // The demo stores links to the app's own pages (receipts, signing pages) on this origin: the test
  // servers take the same port (E2E_APP_PORT, startServer).
  const port = await freePort();
  const server = await startServer(
    {
      DATABASE_URL: databaseUrl(building),
      PORT: String(port),
      SEED_DEMO: 'true',
      QUEUE_MODE: 'in-process',
      ...env,
    },
    { timeoutMs: 180000 },
  );
  try {
    await outboxDrained(databaseUrl(building));
  } finally {
    await server.stop();
  }
  await withClient(ROOT_URL, (client) =>
    client.query(`alter database ${quote(building)} rename to ${quote(name)}`),
  );
  return {
    name,
    port,
    seededInMs: Date.now() - started,
    drop() {
      spawnSync('dropdb', [...PG, '--if-exists', '--force', name], { encoding: 'utf8' });
    },
  };
}
