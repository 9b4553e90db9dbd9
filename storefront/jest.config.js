// Component and unit tests in jsdom, on Preact as the build runs them (React's names aliased to
// preact/compat), with Node's fetch primitives (the typed client builds a Request for every call:
// src/testing/jest-environment.js). Preact ships ES modules only: swc compiles them for jest's CommonJS.
const path = require('node:path');

const contracts = path.join(__dirname, '..', 'libs', 'contracts', 'src');

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: path.join(__dirname, 'src', 'testing', 'jest-environment.js'),
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.spec.ts', '**/*.spec.tsx'],
  setupFilesAfterEnv: ['@testing-library/jest-dom'],
  transform: {
    '^.+\\.(t|j|mj)sx?$': [
      require.resolve('@swc/jest'),
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(preact|preact-render-to-string)/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  moduleNameMapper: {
    '^react$': 'preact/compat',
    '^react-dom$': 'preact/compat',
    '^react-dom/client$': 'preact/compat/client',
    '^@studio/contracts$': path.join(contracts, 'index.ts'),
    '^@studio/contracts/src/(.*)$': path.join(contracts, '$1'),
    '\\.css$': path.join(__dirname, 'src', 'testing', 'style-stub.js'),
  },
};
