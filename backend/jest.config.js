// Unit tests: services and pure functions, next to the code (*.spec.ts).
const swc = JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
delete swc.exclude;
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }],
    // @nestjs/bull-shared (under @bull-board/nestjs) ships ES modules only: Node 20 loads them, Jest needs them compiled.
    '/node_modules/@nestjs/bull-shared/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' }, swcrc: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/bull-shared/)'],
};
