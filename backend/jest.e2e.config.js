// End-to-end tests: the whole Nest app over HTTP against a real PostgreSQL database and Redis.
const base = require('./jest.config');

/**
 * `npm test` runs the suites in two jest processes side by side (scripts/test-all.mjs): E2E_PART=b
 * runs these, the reliability and race suites that take longest (about half of the ~2,100 s of
 * suites, by stop 32's clean run), E2E_PART=a the rest; unset, every suite. Each process keeps about
 * two thirds of a core busy (they wait on PostgreSQL, Redis, workers and timers), so the two share
 * the machine with the browser tests.
 */
const PART_B = [
  'sync-reliability',
  'crash',
  'openapi-fuzz',
  'reminders-reliability',
  'concurrency',
  'refunds',
  'sign-in-limits',
  'waivers',
  'payment-links',
  'mail',
];
const partB = `/test/(${PART_B.join('|')})\\.e2e-spec\\.ts$`;
const part = process.env.E2E_PART;
/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testRegex: part === 'b' ? partB : '\\.e2e-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', ...(part === 'a' ? [partB] : [])],
  // Generous: a suite starts the whole app and migrates a fresh database, slow on a busy 2-core machine.
  testTimeout: 120000,
  maxWorkers: 1,
  // Safety net: a leaked Redis or database handle must not hang CI; each suite closes its own app.
  forceExit: true,
};
