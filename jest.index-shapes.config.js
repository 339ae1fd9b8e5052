// Runs after jest.integration.config.js: checks every query shape the apps sent during that run
// against the indexes declared on the mongoose schemas (docs/data-layer.md). No servers needed.
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/libs/testing/src/query-shapes/*.check.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
