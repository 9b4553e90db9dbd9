/** @type {import('jest').Config} */
module.exports = require('./testing/jest-preset')(__dirname);
