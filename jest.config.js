// Unit tests of every project: fast, no infrastructure.
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // jest's default is one worker fewer than the cores: one, on the 2-core machines this runs on.
  maxWorkers: 2,
};
