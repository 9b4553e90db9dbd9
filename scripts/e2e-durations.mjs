#!/usr/bin/env node
// Rewrites backend/test/groups/durations.json (the seconds each end-to-end suite takes, by which the
// suites are shared out into groups: backend/test/groups/run-group.ts) from a jest JSON report of a
// run of the suites one by one:
//   cd backend && npx jest -c jest.e2e.config.js --json --outputFile=/tmp/e2e.json
//   node scripts/e2e-durations.mjs /tmp/e2e.json
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = join(import.meta.dirname, '..', 'backend', 'test', 'groups', 'durations.json');
const durations = JSON.parse(readFileSync(out, 'utf8'));
for (const file of report.testResults) {
  const name = basename(file.name).replace(/\.e2e-spec\.ts$/, '');
  if (name === basename(file.name)) continue;
  durations[name] = Math.round((file.endTime - file.startTime) / 1000);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} suites in ${out}`);
