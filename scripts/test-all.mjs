#!/usr/bin/env node
// `npm test`: every check in order, stopping at the first failure, then one closing line with the
// number of tests that passed and failed across jest and node's test runner.
import { spawn } from 'node:child_process';

const env = { ...process.env, NX_DAEMON: 'false', NX_INTERACTIVE: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0' };

const steps = [
  ['build', 'npx nx run-many -t build --output-style=static'],
  ['API types are current', 'node scripts/api-types.mjs --check'],
  ['typecheck', 'npx nx run-many -t typecheck --output-style=static'],
  ['lint', 'npx nx run-many -t lint --output-style=static && npx eslint scripts eslint.config.mjs --max-warnings=0'],
  ['unit and component tests', 'npx nx run-many -t test --output-style=static'],
  ['backend end-to-end tests (PostgreSQL, Redis)', 'npm run test:e2e -w @studio/backend'],
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

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

const only = process.argv.slice(2);
for (const [name, command] of steps) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const started = Date.now();
  console.log(`\n=== ${name}: ${command}`);
  const { code, output } = await run(command);
  count(output);
  console.log(`=== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) {
    console.log(`\ntests: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`);
    process.exit(code ?? 1);
  }
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
