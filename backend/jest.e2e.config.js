// End-to-end tests: the whole Nest app over HTTP against a real PostgreSQL database and Redis.
const base = require('./jest.config');

/**
 * With E2E_GROUPS set (`npm run test:e2e`, CI), jest runs the group files of test/groups, each
 * loading its share of the suites into one module registry so that they share booted apps (issue 32,
 * test/groups/run-group.ts), and the crash suites on their own. Unset, every suite is a jest file of
 * its own, as when you run one: `npx jest -c jest.e2e.config.js test/refunds`.
 * E2E_WORKERS sets the jest workers (default 1, as `npm test` runs them: two only slowed everything on two cores).
 */
const grouped = Boolean(process.env.E2E_GROUPS);
/** How many group files there are (test/groups/group-N.e2e-group.ts); the suites are shared out among them. */
const GROUPS = 4;
const groupFiles = '/test/groups/group-\\d+\\.e2e-group\\.ts$';
const alone = '/test/(crash|crash-points)\\.e2e-spec\\.ts$';

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testRegex: grouped ? [groupFiles, alone] : '\\.e2e-spec\\.ts$',
  // Generous: a suite starts the whole app and migrates a fresh database, slow on a busy 2-core machine.
  testTimeout: 120000,
  maxWorkers: Number(process.env.E2E_WORKERS ?? 1),
  globals: { E2E_GROUP_COUNT: GROUPS },
  // A spy on a shared app's service must not outlive its test.
  restoreMocks: true,
  // Safety net: a leaked Redis or database handle must not hang CI; each suite closes its own app.
  forceExit: true,
};
