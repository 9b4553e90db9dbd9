// Start: `node backend/dist/main.js` on an existing build and existing data, from spawn until
// /api/health answers, with the defaults `npm start` uses (web assets served, worker in process):
// on the bench's PostgreSQL database, and on the embedded database (PGlite in a folder, seeded by
// a first start that is not counted). Cold is the first start on that data; warm the median of
// the next three. Reference: how long `node -e ''` takes to start on this machine, for scale.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function startOnce(ctx, env) {
  const port = await ctx.freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ctx.ROOT, 'backend/dist/main.js')], {
    cwd: ctx.ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await ctx.waitForHealth(`http://127.0.0.1:${port}`, { child, timeoutMs: 120000 });
    return performance.now() - t0;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    }
  }
}

async function series(ctx, env) {
  const cold = await startOnce(ctx, env);
  const warm = [];
  for (let i = 0; i < 3; i++) warm.push(await startOnce(ctx, env));
  return { cold, warm: ctx.median(warm) };
}

export async function run(ctx) {
  // npm start's defaults: the web assets and the worker run in the API process.
  const { SERVE_WEB, RUN_WORKER, SEED_DEMO, DATABASE_URL, ...base } = ctx.apiEnv;
  void SERVE_WEB;
  void RUN_WORKER;
  void SEED_DEMO;
  const node = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await new Promise((r) => spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }).once('exit', r));
    node.push(performance.now() - t0);
  }
  const nodeMs = ctx.median(node);
  const pgStart = await series(ctx, { ...base, DATABASE_URL, SEED_DEMO: 'false' });

  const dir = mkdtempSync(join(tmpdir(), 'studio-bench-pglite-'));
  let embedded;
  let firstMs;
  try {
    const env = { ...base, PGLITE_DATA_DIR: dir };
    firstMs = await startOnce(ctx, env); // migrates and seeds the demo: not a start "on existing data"
    embedded = await series(ctx, env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  ctx.note(
    `Start: from spawn of node backend/dist/main.js to the first 200 of /api/health; npm start's defaults (web served, worker in process). ` +
      `The embedded database's first start (migrate + demo seed) took ${ctx.fmtMs(firstMs)} and is not counted. Reference: node -e '' in ${ctx.fmtMs(nodeMs)}.`,
  );
  const row = (figure, ms) => ({
    figure,
    value: ctx.fmtMs(ms),
    reference: `node ${ctx.fmtMs(nodeMs)}`,
    ratio: NaN,
    target: '< 3 s',
    met: ms < 3000,
  });
  return [
    row('Start, PostgreSQL, cold', pgStart.cold),
    row('Start, PostgreSQL, warm (median of 3)', pgStart.warm),
    row('Start, embedded PGlite, cold', embedded.cold),
    row('Start, embedded PGlite, warm (median of 3)', embedded.warm),
  ];
}
