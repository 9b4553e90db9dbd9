// End-to-end tests: the whole Nest app over HTTP against a real PostgreSQL database and Redis.
const base = require('./jest.config');

/**
 * `npm test` runs these suites after the browser tests, in the other lane (scripts/test-all.mjs), so
 * that both lanes end together (about 2 minutes of the ~24 of this lane; measured by CI's per-suite
 * times). E2E_PART=first runs the rest, E2E_PART=second only these; unset, every suite.
 */
const SECOND_PART = ['sign-in-limits', 'mail', 'subscriptions', 'waivers'];
const second = `/test/(${SECOND_PART.join('|')})\\.e2e-spec\\.ts$`;
const part = process.env.E2E_PART;
/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testRegex: part === 'second' ? second : '\\.e2e-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', ...(part === 'first' ? [second] : [])],
  // Generous: a suite starts the whole app and migrates a fresh database, slow on a busy 2-core machine.
  testTimeout: 120000,
  maxWorkers: 1,
  // Safety net: a leaked Redis or database handle must not hang CI; each suite closes its own app.
  forceExit: true,
};
