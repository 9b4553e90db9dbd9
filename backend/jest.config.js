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
    // oauth4webapi and @nestjs/bull-shared (under @bull-board/nestjs) ship ES modules only: compiled to CommonJS for jest.
    'node_modules/oauth4webapi/.+\\.js$': ['@swc/jest', { ...swc, swcrc: false, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } }],
    '/node_modules/@nestjs/bull-shared/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' }, swcrc: false }],
    // So does content-disposition 3 (under @fastify/static), which Node itself loads with require().
    '/node_modules/content-disposition/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' }, swcrc: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!oauth4webapi/|@nestjs/bull-shared/|content-disposition/|@fastify/static/node_modules/content-disposition/)'],
};
