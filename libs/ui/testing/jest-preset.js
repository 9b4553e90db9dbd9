// One jest setup for every browser workspace: jsdom, swc with the automatic React runtime, antd stubs.
const path = require('node:path');

/** @returns {import('jest').Config} */
module.exports = function browserJestConfig(rootDir) {
  return {
    rootDir,
    testEnvironment: path.join(__dirname, 'jest-environment.js'),
    // antd in jsdom is slow on two cores; a drawer test clicks through a whole form.
    testTimeout: 60000,
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
    // A few of antd's dependencies ship only ES modules: let swc compile them too.
    transformIgnorePatterns: ['/node_modules/(?!(@ant-design/colors|@ant-design/fast-color|oauth4webapi)/)'],
    moduleNameMapper: {
      // Jest runs CommonJS: deep antd ES imports map to their lib twins.
      '^antd/es/(.*)$': 'antd/lib/$1',
      '^@studio/contracts$': path.join(__dirname, '../../contracts/src/index.ts'),
      '^@studio/contracts/src/(.*)$': path.join(__dirname, '../../contracts/src/$1'),
      '^@studio/ui$': path.join(__dirname, '../src/index.ts'),
      '^@studio/ui/testing$': path.join(__dirname, 'index.tsx'),
      '^@studio/ui/src/(.*)$': path.join(__dirname, '../src/$1'),
    },
  };
};
