// The medium tier (issue 32): one module's services against a real PostgreSQL database, no app and no HTTP (test/medium/medium.ts).
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/medium'],
  testRegex: '\\.medium-spec\\.ts$',
  testTimeout: 60000,
  maxWorkers: 1,
  restoreMocks: true,
};
