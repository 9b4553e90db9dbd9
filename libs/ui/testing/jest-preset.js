// One jest setup for every browser workspace: jsdom, swc with the automatic React runtime, antd stubs.
const path = require('node:path');

/** @returns {import('jest').Config} */
module.exports = function browserJestConfig(rootDir) {
  return {
    rootDir,
    testEnvironment: 'jsdom',
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.spec.ts', '**/*.spec.tsx'],
    setupFilesAfterEnv: [path.join(__dirname, 'jest-setup.ts')],
    transform: {
      '^.+\\.(t|j)sx?$': [
        require.resolve('@swc/jest'),
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
          },
        },
      ],
    },
    moduleNameMapper: {
      '^@studio/contracts$': path.join(__dirname, '../../contracts/src/index.ts'),
      '^@studio/contracts/src/(.*)$': path.join(__dirname, '../../contracts/src/$1'),
      '^@studio/ui$': path.join(__dirname, '../src/index.ts'),
      '^@studio/ui/src/(.*)$': path.join(__dirname, '../src/$1'),
    },
  };
};
