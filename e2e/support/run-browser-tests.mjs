// `npm run test:browser`: the browser tests, each group of files one file at a time on its own seeded
// demo database (demo-template.mjs: seeded once per group, copied for each of its files, served on
// the group's own port) and its one Chromium (each file in its own context: browser.mjs). One group
// by default (E2E_BROWSER_GROUPS or `--groups=N` for more, side by side, each group's output printed
// whole when it ends). A browser test mostly waits (stop 32: 1,260 s
// of wall for 651 s of CPU, alone), but in CI it shares two cores with the backend suites, which
// together saturate them: two groups there made the run no shorter (stop 32's ci3, 41.6 minutes
// against 40.1) and a PGlite start slower than its timeout.
//
// Arguments: test files (default: every file of tests/).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowserServer } from './browser.mjs';
import { createDemoTemplate } from './demo-template.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const options = process.argv.slice(2).filter((a) => a.startsWith('--'));
const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const groupsWanted = Number(
  options.find((o) => o.startsWith('--groups='))?.split('=')[1] ?? process.env.E2E_BROWSER_GROUPS ?? 1,
);

const files = named.length
  ? named.map((f) => resolve(f))
  : readdirSync(join(here, 'tests'))
      .filter((f) => f.endsWith('.test.mjs'))
      .map((f) => join(here, 'tests', f));

/**
 * Files that must not run beside each other stay in one group: remote-release builds and serves a
 * released copy of a remote while shared-once counts every script one page load fetches.
 */
const TOGETHER = [['remote-release.test.mjs', 'shared-once.test.mjs']];

/** A file's expected length: its start (a server and a browser, ~15 s) plus its size as a proxy for its steps. */
const weight = (file) => 150 + readFileSync(file, 'utf8').split('\n').length;

function split(list, count) {
  const groups = Array.from({ length: Math.max(1, Math.min(count, list.length)) }, () => ({
    files: [],
    load: 0,
  }));
  const units = [];
  const placed = new Set();
  for (const names of TOGETHER) {
    const members = list.filter((f) => names.includes(basename(f)));
    if (members.length) {
      units.push(members);
      members.forEach((f) => placed.add(f));
    }
  }
  for (const f of list) if (!placed.has(f)) units.push([f]);
  const load = (unit) => unit.reduce((sum, f) => sum + weight(f), 0);
  units.sort((a, b) => load(b) - load(a));
  for (const unit of units) {
    const lightest = groups.reduce((min, g) => (g.load < min.load ? g : min));
    lightest.files.push(...unit);
    lightest.load += load(unit);
  }
  return groups.filter((g) => g.files.length);
}

/** One group: its demo database and its Chromium, then `node --test` over its files, one at a time. */
async function runGroup(group, index, total) {
  const template = await createDemoTemplate();
  const chromium = await launchBrowserServer();
  const head = `# group ${index + 1} of ${total}: ${group.files.length} files; the demo database seeded in ${template.seededInMs} ms (${template.name}, port ${template.port})`;
  let output = '';
  try {
    const code = await new Promise((done) => {
      const child = spawn(
        process.execPath,
        ['--test', '--test-concurrency=1', '--test-timeout=240000', ...group.files],
        {
          cwd: here,
          stdio: ['ignore', total > 1 ? 'pipe' : 'inherit', total > 1 ? 'pipe' : 'inherit'],
          env: {
            ...process.env,
            E2E_DEMO_TEMPLATE: template.name,
            E2E_APP_PORT: String(template.port),
            E2E_BROWSER_WS: chromium.wsEndpoint(),
          },
        },
      );
      child.stdout?.on('data', (d) => (output += d));
      child.stderr?.on('data', (d) => (output += d));
      child.on('close', (exit, signal) => done(exit ?? (signal ? 1 : 0)));
    });
    if (total > 1) process.stdout.write(`${head}\n${output}\n`);
    else console.log(head);
    return code;
  } finally {
    await chromium.close();
    template.drop();
  }
}

const groups = split(files, groupsWanted);
const codes = await Promise.all(groups.map((group, i) => runGroup(group, i, groups.length)));
process.exit(codes.find((c) => c !== 0) ?? 0);
