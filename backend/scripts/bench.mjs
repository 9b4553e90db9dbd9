#!/usr/bin/env node
// `npm run bench` (run `npm run build` first): every figure of issue 12 next to its reference,
// measured in the same run on a fresh PostgreSQL database, and printed as one table.
//
// The runner creates the database, starts the built API as its own process (as in production),
// creates an organization and its owner with the admin:create CLI, signs in, then imports every
// module in scripts/bench/ (sorted by name, files starting with "_" skipped) and awaits its
// `export async function run(ctx)`. A module seeds what it needs with set-based SQL (insert ...
// select generate_series, never through the API; helpers in bench/_seed.mjs) and returns rows:
//   { figure, value, reference, ratio, target, met }
//   figure: what is measured; value / reference: display strings with units; ratio: a number
//   (value / reference, NaN when there is none); target: e.g. '<= 1.5x'; met: boolean.
// `BENCH_ONLY=export,seats` runs only the modules whose names contain one of the words.
// `BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` profiles the API process.
// The exit code is non-zero only when something failed, never because a target was missed.
//
// ctx, what a module receives:
//   ROWS            BENCH_ROWS, default 100000: the scale of the big figures
//   ROOT            the repository root
//   dbUrl           the bench database's URL (string)
//   pg              a connected pg Client on the bench database (bare SQL, references, seeding)
//   pgClient()      a new connected pg Client on the bench database; the module ends it
//   apiUrl          e.g. http://127.0.0.1:41234 (no trailing slash)
//   token           the owner's session token (header `token`)
//   headers         { token, 'content-type': 'application/json' }
//   organizationId  the organization the owner administers
//   apiPid          the API process's pid
//   apiEnv          the environment the API runs with (to start more API processes alike)
//   median(xs), p99(xs)   of numbers
//   rssMb(pid)      the resident memory of a process now, in MB
//   watchRss(pid)   starts sampling every 5 ms; .stop() answers { idleMb, peakMb, growthMb }
//   timeIt(fn)      awaits fn() and answers { ms, result }
//   ratioRow({ figure, value, reference, max, unit }) a row for "value <= max x reference" in ms
//   log(...)        progress lines (stderr), not part of the table
//   note(text)      a line printed under the table (how a figure was made)
//   waitForHealth(url, { child, timeoutMs }) answers ms until /api/health is ok; freePort()
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const ROWS = Number(process.env.BENCH_ROWS ?? 100000);
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
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

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p99 = (xs) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
function watchRss(pid) {
  const idleMb = rssMb(pid);
  let peakMb = idleMb;
  const timer = setInterval(() => {
    try {
      peakMb = Math.max(peakMb, rssMb(pid));
    } catch {
      /* the process ended */
    }
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      try {
        peakMb = Math.max(peakMb, rssMb(pid));
      } catch {
        /* ended */
      }
      return { idleMb, peakMb, growthMb: peakMb - idleMb };
    },
  };
}
async function timeIt(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}
const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
function ratioRow({ figure, value, reference, max }) {
  const ratio = value / reference;
  return {
    figure,
    value: fmtMs(value),
    reference: fmtMs(reference),
    ratio,
    target: `<= ${max}x`,
    met: ratio <= max,
  };
}
const log = (...args) => console.error('[bench]', ...args);

export async function waitForHealth(url, { timeoutMs = 60000, child } = {}) {
  const t0 = Date.now();
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return Date.now() - t0;
    } catch {
      /* starting */
    }
    if (child && child.exitCode !== null) throw new Error(`API exited with ${child.exitCode} before answering`);
    if (Date.now() - t0 > timeoutMs) throw new Error(`API did not answer /api/health in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function printTable(rows, notes) {
  const cells = rows.map((r) => [
    r.figure,
    r.value,
    r.reference ?? '',
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}x` : '',
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const head = ['figure', 'value', 'reference', 'ratio', 'target', 'met'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
  const line = (c) => `| ${c.map((x, i) => String(x).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
  if (notes.length) console.log(`\n${notes.map((n) => `- ${n}`).join('\n')}`);
}

async function main() {
  const t0 = Date.now();
  // An error nobody awaited (an idle client's connection killed, a socket reset) is reported and
  // counted; the run goes on, prints what it measured, and drops its databases.
  process.on('uncaughtException', (error) => {
    console.error('[bench] uncaught:', error);
    process.exitCode = 1;
  });
  process.on('unhandledRejection', (error) => {
    console.error('[bench] unhandled rejection:', error);
    process.exitCode = 1;
  });
  await admin(`create database "${dbName}"`);
  const port = await freePort();
  const apiEnv = {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    SEED_DEMO: 'false',
    SERVE_WEB: 'false',
    RUN_WORKER: 'false',
    LOG_LEVEL: 'warn',
    // The store bench sends a class drop and hundreds of page reads from one address.
    PUBLIC_REQUESTS_PER_MINUTE: '1000000',
    REDIS_PREFIX: `bench_${randomBytes(3).toString('hex')}`,
  };
  // BENCH_API_NODE_ARGS: extra node flags for the API process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
  // (a CPU profile of the API under the bench's load, written when the bench stops it).
  const apiNodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...apiNodeArgs, join(ROOT, 'backend/dist/main.js')], {
    cwd: ROOT,
    env: { ...apiEnv, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const apiUrl = `http://127.0.0.1:${port}`;
  const rows = [];
  const notes = [];
  const clients = [];
  try {
    await waitForHealth(apiUrl, { child: server });
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
      { env: { ...process.env, DATABASE_URL: dbUrl.toString() }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    await new Promise((resolve, reject) =>
      cli.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`admin:create exited ${code}`)))),
    );
    const pgClient = async () => {
      const c = new Client({ connectionString: dbUrl.toString() });
      c.on('error', () => undefined); // the database is dropped at the end, connection or not
      await c.connect();
      return c;
    };
    const pg = await pgClient();
    clients.push(pg);
    const {
      rows: [org],
    } = await pg.query(`select id from organization limit 1`);
    const login = await fetch(`${apiUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@studio.test', password: 'bench-password' }),
    });
    if (!login.ok) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
    const { token } = await login.json();
    const ctx = {
      ROWS,
      ROOT,
      dbUrl: dbUrl.toString(),
      pg,
      pgClient,
      apiUrl,
      token,
      headers: { token, 'content-type': 'application/json' },
      organizationId: org.id,
      apiPid: server.pid,
      apiEnv,
      median,
      p99,
      rssMb,
      watchRss,
      timeIt,
      ratioRow,
      fmtMs,
      log,
      note: (text) => notes.push(text),
      waitForHealth,
      freePort,
    };

    const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
    const modules = readdirSync(join(HERE, 'bench'))
      .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
      .filter((f) => !only || only.some((w) => f.includes(w)))
      .sort();
    for (const file of modules) {
      log(`${file}…`);
      const m0 = Date.now();
      const noted = notes.length;
      let own;
      try {
        const mod = await import(pathToFileURL(join(HERE, 'bench', file)).href);
        own = await mod.run(ctx);
        log(`${file} done in ${((Date.now() - m0) / 1000).toFixed(1)} s`);
      } catch (error) {
        // One module's failure is reported and the others still run; the exit code says it failed.
        console.error(error);
        process.exitCode = 1;
        own = [{ figure: `${file} FAILED`, value: String(error?.message ?? error).slice(0, 80), ratio: NaN, met: false }];
      }
      rows.push(...own);
      // Each module's rows as soon as it ends: a later crash loses nothing already measured.
      console.log(`\n${file}:`);
      printTable(own, notes.slice(noted));
    }
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    if (rows.length) {
      console.log(
        `\nBench: BENCH_ROWS=${ROWS.toLocaleString('en-US')}, ${new Date().toISOString()}, node ${process.version}, ${((Date.now() - t0) / 1000).toFixed(0)} s in all\n`,
      );
      console.log('\nAll modules:');
      printTable(rows, notes);
    }
    for (const c of clients) await c.end().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
    if (process.env.BENCH_KEEP) console.log(`Kept database ${dbName}`);
    else await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

// Imported by modules for waitForHealth/freePort: run only as the entry point.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
