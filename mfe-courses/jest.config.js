/** @type {import('jest').Config} */
module.exports = {
  ...require('../libs/ui/testing/jest-preset')(__dirname),
  // The longest component suite (its drawer files take minutes each in jsdom): two workers use both
  // cores once the backend e2e tests beside it are done (scripts/test-all.mjs).
  maxWorkers: 2,
};
