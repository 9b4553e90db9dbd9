/*
 * The end-to-end suites in groups (issue 32: one app per test worker). `npm run test:e2e` runs
 * the jest files of this folder, not the suites one by one: each group file loads its share of
 * `test/*.e2e-spec.ts` into one module registry, every suite inside a `describe` named after its
 * file, so the app source is loaded once per group and the suites hand their booted apps on to the
 * next (test-app.ts). Suites are shared out by their measured time (durations.json, seconds;
 * `node scripts/e2e-durations.mjs` rewrites it from a jest JSON report), longest first onto the
 * group with the least so far, so that the groups end together. A suite that is not in the table
 * counts as DEFAULT_SECONDS. The crash suites run the built app in child processes, boot no test
 * app and stay files of their own (ALONE).
 *
 * One suite alone, as you work on it: `npx jest -c jest.e2e.config.js test/refunds` (E2E_GROUPS unset).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { closeSharedApps, enterSuite, shareAppsAcrossSuites } from '../test-app';

export const ALONE = ['crash', 'crash-points'];
const DEFAULT_SECONDS = 20;
const TEST_DIR = path.join(__dirname, '..');

/** The suites of every group: `of` lists, balanced by measured time. */
export function shareOut(of: number): string[][] {
  const times = JSON.parse(readFileSync(path.join(__dirname, 'durations.json'), 'utf8')) as Record<string, number>;
  const suites = readdirSync(TEST_DIR)
    .filter((f) => f.endsWith('.e2e-spec.ts'))
    .map((f) => f.replace(/\.e2e-spec\.ts$/, ''))
    .filter((name) => !ALONE.includes(name))
    .map((name) => ({ name, seconds: times[name] ?? DEFAULT_SECONDS }))
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  const groups = Array.from({ length: of }, () => ({ seconds: 0, names: [] as string[] }));
  for (const suite of suites) {
    const lightest = groups.reduce((min, g) => (g.seconds < min.seconds ? g : min));
    lightest.seconds += suite.seconds;
    lightest.names.push(suite.name);
  }
  return groups.map((g) => g.names.sort());
}

/** Registers group `index` (1-based; jest.e2e.config.js says how many there are): its suites, each in a describe of its own, sharing apps. */
export function runGroup(index: number): void {
  const of = (globalThis as { E2E_GROUP_COUNT?: number }).E2E_GROUP_COUNT;
  if (!of) throw new Error('A group file runs under jest.e2e.config.js with E2E_GROUPS set (npm run test:e2e)');
  shareAppsAcrossSuites();
  const seconds: Record<string, number> = {};
  for (const name of shareOut(of)[index - 1] ?? []) {
    describe(name, () => {
      let started = 0;
      beforeAll(() => {
        started = Date.now();
        enterSuite(name);
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded inside the describe, so the suite's hooks stay its own
      require(path.join(TEST_DIR, `${name}.e2e-spec.ts`));
      afterAll(() => {
        seconds[name] = Math.round((Date.now() - started) / 100) / 10;
      });
    });
  }
  afterAll(async () => {
    await closeSharedApps();
    // Each suite's time in this group, longest first: where a slow run's time went, and what
    // durations.json could say (a suite's time here leaves out the boot it was spared).
    const lines = Object.entries(seconds)
      .sort((a, b) => b[1] - a[1])
      .map(([name, s]) => `  ${String(s).padStart(6)} s  ${name}`);
    process.stdout.write(`\nGroup ${index} of ${of}, seconds per suite:\n${lines.join('\n')}\n`);
  }, 120_000);
}
