/** @type {import('jest').Config} */
module.exports = require('../libs/ui/testing/jest-preset')(__dirname);
