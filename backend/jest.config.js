// Unit tests: services and pure functions, next to the code (*.spec.ts).
const swc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
delete swc.exclude;
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
};
