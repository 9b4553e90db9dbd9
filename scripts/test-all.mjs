#!/usr/bin/env node
// `npm test`: every check in order, stopping at the first failure, then one closing line with the
// number of tests that passed and failed across jest and node's test runner.
import { spawn } from 'node:child_process';

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
  ['typecheck', 'npx nx run-many -t typecheck --output-style=static'],
  ['lint', 'npx nx run-many -t lint --output-style=static && npx eslint scripts eslint.config.mjs --max-warnings=0'],
  // Two lanes side by side, each keeping about one core busy: the backend's medium tier and its
  // end-to-end suites in groups (the API, PostgreSQL and one jest worker; backend/test/groups) in one;
  // in the other the unit and component tests (jsdom), then the bundle budget and the browser tests
  // (chromium and one app server), then the last end-to-end group (E2E_PART,
  // backend/jest.e2e.config.js) so that both lanes end together. Each step's output is printed whole
  // when it ends. More side by side only adds contention on two cores: less CPU is what shortens it.
  {
    lanes: [
      [
        ['backend medium tests (services against PostgreSQL)', 'npm run test:medium -w @studio/backend'],
        ['backend end-to-end tests (PostgreSQL, Redis)', 'E2E_PART=first npm run test:e2e -w @studio/backend'],
      ],
      [
        ['unit and component tests', 'npx nx run-many -t test --output-style=static'],
        ['bundle budget', 'node scripts/bundle-budget.mjs'],
        ['browser and system tests (chromium)', 'npm run test:browser -w @studio/e2e'],
        ['backend end-to-end tests, second part', 'E2E_PART=second npm run test:e2e -w @studio/backend'],
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

for (const item of steps) {
  const code = Array.isArray(item) ? (wanted(item[0]) ? await step(item) : 0) : await lanes(item.lanes);
  if (code !== 0) {
    console.log(`\ntests: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed (passed per tier: ${perTier()})`);
    process.exit(code);
  }
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed (passed per tier: ${perTier()})`);
