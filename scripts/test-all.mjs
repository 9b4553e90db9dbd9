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
  ['API types are current', 'node scripts/api-types.mjs --check'],
  ['OpenAPI document valid and linted (swagger-parser, Redocly)', 'node scripts/openapi-lint.mjs'],
  ['known-missing API calls (printed; each must still be missing)', 'node scripts/known-missing.mjs'],
  ['typecheck', 'npx nx run-many -t typecheck --output-style=static'],
  ['lint', 'npx nx run-many -t lint --output-style=static && npx eslint scripts eslint.config.mjs --max-warnings=0'],
  // These two each keep about one core busy (jsdom in one jest worker; the API, PostgreSQL and one
  // jest worker), so they run side by side; their outputs are printed one after the other.
  [
    'unit and component tests, and backend end-to-end tests (PostgreSQL, Redis), side by side',
    ['npx nx run-many -t test --output-style=static', 'npm run test:e2e -w @studio/backend'],
  ],
  ['bundle budget', 'node scripts/bundle-budget.mjs'],
  ['browser and system tests (chromium)', 'npm run test:browser -w @studio/e2e'],
];

const totals = { passed: 0, failed: 0 };

function count(output) {
  for (const m of output.matchAll(/^Tests:\s+(.*?)\d+ total/gm)) {
    totals.passed += Number(/(\d+) passed/.exec(m[1])?.[1] ?? 0);
    totals.failed += Number(/(\d+) failed/.exec(m[1])?.[1] ?? 0);
  }
  for (const m of output.matchAll(/^# pass (\d+)/gm)) totals.passed += Number(m[1]);
  for (const m of output.matchAll(/^# fail (\d+)/gm)) totals.failed += Number(m[1]);
}

function run(command, { echo = true } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Several commands at once; each one's output is printed whole when it ends. */
async function runAll(commands) {
  const results = await Promise.all(
    commands.map(async (command) => {
      const result = await run(command, { echo: false });
      console.log(`\n--- ${command} (exit ${result.code})\n${result.output}`);
      return result;
    }),
  );
  return { code: results.find((r) => r.code !== 0)?.code ?? 0, output: results.map((r) => r.output).join('\n') };
}

const only = process.argv.slice(2);
for (const [name, command] of steps) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const started = Date.now();
  console.log(`\n=== ${name}: ${[command].flat().join(' & ')}`);
  const { code, output } = Array.isArray(command) ? await runAll(command) : await run(command);
  count(output);
  console.log(`=== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) {
    console.log(`\ntests: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`);
    process.exit(code ?? 1);
  }
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
