// End-to-end tests: the whole Nest app over HTTP against a real PostgreSQL database and Redis.
const base = require('./jest.config');
/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testRegex: '\\.e2e-spec\\.ts$',
  // Generous: a suite starts the whole app and migrates a fresh database, slow on a busy 2-core machine.
  testTimeout: 120000,
  maxWorkers: 1,
  // Safety net: a leaked Redis or database handle must not hang CI; each suite closes its own app.
  forceExit: true,
};
