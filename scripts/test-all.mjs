#!/usr/bin/env node
// `npm test`: every check in order, stopping at the first failure, then one closing line with the
// number of tests that passed and failed across jest and node's test runner.
import { execSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const env = { ...process.env, NX_DAEMON: 'false', NX_INTERACTIVE: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };
// Nx keeps its task cache outside the checkout (~/.nx), so a "clean clone" would replay builds, checks
// and test results recorded by earlier runs on the same machine. CI runs every step for real.
if (process.env.CI) env.NX_SKIP_NX_CACHE = 'true';

const steps = [
  ['build', 'npx nx run-many -t build --output-style=static'],
  // The OpenAPI document is written once (booting the app once) and read by the three checks after it.
  ['OpenAPI document', 'node scripts/openapi-doc.mjs'],
  ['API types are current', 'OPENAPI_DOC=dist/openapi.json node scripts/api-types.mjs --check'],
  ['OpenAPI document valid and linted (swagger-parser, Redocly)', 'OPENAPI_DOC=dist/openapi.json node scripts/openapi-lint.mjs'],
  ['known-missing API calls (printed; each must still be missing)', 'OPENAPI_DOC=dist/openapi.json node scripts/known-missing.mjs'],
  // The build ran first: its outputs (contracts' declarations, the bundles) are there, not rebuilt.
  // The admin's six browser packages as one program (tsconfig.admin.json: antd's and React's types
  // read once, about 30 CPU-s against 130), then the backend, the storefront and contracts, two at a time.
  [
    'typecheck',
    'npx tsc -p tsconfig.admin.json & a=$!; npx tsc -p backend/tsconfig.json --noEmit; b=$?; wait $a; c=$?; ' +
      'npx tsc -p storefront/tsconfig.json --noEmit & d=$!; npx tsc -p libs/contracts/tsconfig.json --noEmit; e=$?; wait $d; ' +
      'f=$?; [ $b -eq 0 ] && [ $c -eq 0 ] && [ $e -eq 0 ] && [ $f -eq 0 ]',
  ],
  // One ESLint process over the repository (one flat config at the root): a process per package
  // loaded the parsers and plugins ten times (104 CPU-s in CI against about 40).
  // Then the backend's architecture rules (scripts/architecture-check.mjs: no new cycle between
  // backend folders, no new SQL on another module's tables outside a *.query.ts file).
  ['lint', 'npx eslint . --max-warnings=0 && node scripts/architecture-check.mjs'],
  // Two lanes side by side: the backend's medium tier and its end-to-end groups (one jest worker,
  // one app per group: backend/test/groups) in one; the unit and component tests (jsdom), the
  // bundle budget and the browser tests (chromium and one app server) in the other. Stop 34 tried
  // three lanes and two workers per lane: on two cores everything then ran at half speed (the jsdom
  // tests 1,010 s instead of 452, typecheck 365 instead of 106) and the run was no shorter. Each
  // step's output is printed whole when it ends.
  {
    lanes: [
      [
        ['backend medium tests (services against PostgreSQL)', 'npm run test:medium -w @studio/backend'],
        ['backend end-to-end tests (PostgreSQL, Redis)', 'npm run test:e2e -w @studio/backend'],
      ],
      [
        ['unit and component tests', 'npx nx run-many -t test --exclude-task-dependencies --output-style=static'],
        ['bundle budget', 'node scripts/bundle-budget.mjs'],
        ['browser and system tests (chromium)', 'npm run test:browser -w @studio/e2e'],
      ],
    ],
  },
];

const totals = { passed: 0, failed: 0 };
/**
 * Tests passed per tier (issue 32: coverage of the rules must not drop as they move to cheaper tiers):
 * unit and component (pure rules, mappers, React components), backend medium (services against
 * PostgreSQL, no app), backend end-to-end (the app over HTTP
 * against PostgreSQL and Redis, the crash and soak suites), browser (Chromium against the built app).
 */
const TIERS = { unit: 'unit and component', medium: 'backend medium', backend: 'backend end-to-end', browser: 'browser and system' };
const tiers = Object.fromEntries(Object.keys(TIERS).map((k) => [k, 0]));
const tierOf = (name) =>
  name.startsWith('backend end-to-end') ? 'backend' : name.startsWith('backend medium') ? 'medium' : name.startsWith('browser') ? 'browser' : name.startsWith('unit') ? 'unit' : null;

function count(output, name = '') {
  const tier = tierOf(name);
  for (const m of output.matchAll(/^Tests:\s+(.*?)\d+ total/gm)) {
    const passed = Number(/(\d+) passed/.exec(m[1])?.[1] ?? 0);
    totals.passed += passed;
    if (tier) tiers[tier] += passed;
    totals.failed += Number(/(\d+) failed/.exec(m[1])?.[1] ?? 0);
  }
  for (const m of output.matchAll(/^# pass (\d+)/gm)) {
    totals.passed += Number(m[1]);
    if (tier) tiers[tier] += Number(m[1]);
  }
  for (const m of output.matchAll(/^# fail (\d+)/gm)) totals.failed += Number(m[1]);
}

const perTier = () => Object.entries(TIERS).map(([k, label]) => `${label} ${tiers[k]}`).join(', ');

/**
 * The CPU time a step's processes used (user + system, from bash's `times` after the command):
 * with the wall time, it says whether a step waits or works, and where a slow run's time went.
 */
const CPU_MARK = '=== cpu:';
const withCpu = (command) =>
  `{ ${command}
}; code=$?; echo "${CPU_MARK}" >&2; times >&2; exit $code`;
function cpuSeconds(output) {
  // `times` prints the shell's own times, then its children's: the second line after the mark.
  const lines = output.split('\n');
  const mark = lines.findLastIndex((l) => l.startsWith(CPU_MARK));
  const parts = mark >= 0 ? (lines[mark + 2] ?? '').trim().split(/\s+/) : [];
  const seconds = (t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t ?? '');
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  };
  return { user: seconds(parts[0]), sys: seconds(parts[1]) };
}

function run(command, { echo = true } = {}) {
  return new Promise((resolve) => {
    const child = spawn(withCpu(command), { shell: '/bin/bash', env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      if (echo) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      if (echo) process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The whole machine's CPU time (every process: PostgreSQL, Redis and Chromium included, which a
 * step's own count leaves out when they are not its children), from /proc/stat: busy and all
 * jiffies since boot. Linux only; elsewhere null.
 */
function machineCpu() {
  try {
    const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
    const ticks = cpu.trim().split(/\s+/).slice(1).map(Number);
    const idle = ticks[3] + (ticks[4] ?? 0);
    const all = ticks.reduce((a, b) => a + b, 0);
    return { busy: (all - idle) / 100, all: all / 100 };
  } catch {
    return null;
  }
}
/**
 * The CPU of a local server the tests talk to (PostgreSQL's postmaster with every backend it has
 * reaped, Redis), from /proc/<pid>/stat: utime + stime + cutime + cstime. Null when it is not a
 * local process or not Linux. It says how much of the machine's CPU beyond the steps' own went to
 * the database rather than to the tests.
 */
function serverCpu(name) {
  try {
    const pid = execSync(`pgrep -o -x ${name}`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // After the command's name: fields 14-17 of stat(5) are the 12th-15th here.
    return fields.slice(11, 15).map(Number).reduce((a, b) => a + b, 0) / 100;
  } catch {
    return null;
  }
}
const SERVERS = { postgres: 'PostgreSQL', 'redis-server': 'Redis' };
const serversAtStart = Object.fromEntries(Object.keys(SERVERS).map((n) => [n, serverCpu(n)]));
const machineAtStart = machineCpu();
const startedAt = Date.now();
/** One row per step for the table printed at the end: name, wall and CPU seconds. */
const rows = [];

const only = process.argv.slice(2);
const wanted = (name) => !only.length || only.some((o) => name.includes(o));

/** One step: its command run (streamed, or printed whole at its end when `whole`), timed and counted. */
async function step([name, command], { whole = false } = {}) {
  const started = Date.now();
  const head = `\n=== ${name}: ${command}`;
  if (!whole) console.log(head);
  const { code, output } = await run(command, { echo: !whole });
  count(output, name);
  const cpu = cpuSeconds(output);
  const tail = `=== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s (cpu: user ${cpu.user.toFixed(0)} s, sys ${cpu.sys.toFixed(0)} s)`;
  if (whole) process.stdout.write(`${head}\n${output}\n${tail}\n`);
  else console.log(tail);
  rows.push({ name, code, wall: (Date.now() - started) / 1000, cpu: cpu.user + cpu.sys });
  return code ?? 1;
}

/** Lanes side by side; each runs its steps in order and stops at its first failure. */
async function lanes(list) {
  const codes = await Promise.all(
    list.map(async (lane) => {
      for (const s of lane.filter(([name]) => wanted(name))) {
        const code = await step(s, { whole: true });
        if (code !== 0) return code;
      }
      return 0;
    }),
  );
  return codes.find((c) => c !== 0) ?? 0;
}

/** The per-step table (wall and CPU seconds) and the machine's CPU over the whole run. */
function summary() {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`\n${'step'.padEnd(width)}    wall s     cpu s`);
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.wall.toFixed(0).padStart(8)}  ${r.cpu.toFixed(0).padStart(8)}${r.code === 0 ? '' : '  FAILED'}`);
  const wall = (Date.now() - startedAt) / 1000;
  const end = machineCpu();
  const steps = rows.reduce((sum, r) => sum + r.cpu, 0);
  console.log(`${'all steps'.padEnd(width)}  ${wall.toFixed(0).padStart(8)}  ${steps.toFixed(0).padStart(8)}`);
  if (machineAtStart && end) {
    const busy = end.busy - machineAtStart.busy;
    const available = end.all - machineAtStart.all;
    console.log(`machine: ${(busy / 60).toFixed(1)} CPU-minutes busy of ${(available / 60).toFixed(1)} (${((100 * busy) / available).toFixed(0)}%: every process, the database's and the browser's included)`);
  }
  const servers = Object.entries(SERVERS)
    .map(([n, label]) => {
      const [before, after] = [serversAtStart[n], serverCpu(n)];
      return before === null || after === null || after < before ? null : `${label} ${((after - before) / 60).toFixed(1)}`;
    })
    .filter(Boolean);
  if (servers.length) console.log(`servers the tests used (CPU-minutes, not in the steps' own): ${servers.join(', ')}`);
}

for (const item of steps) {
  const code = Array.isArray(item) ? (wanted(item[0]) ? await step(item) : 0) : await lanes(item.lanes);
  if (code !== 0) {
    summary();
    console.log(`\ntests: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed (passed per tier: ${perTier()})`);
    process.exit(code);
  }
}
summary();
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed (passed per tier: ${perTier()})`);
