// Shared by every project's jest.config.js: swc for speed (type checking is the typecheck target's job),
// tsconfig path aliases mapped to sources so tests never need a build.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(__dirname, target),
  ]),
);

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  // Longest first, from a recorded run where jest has no timings of its own (a fresh clone).
  testSequencer: path.join(__dirname, 'tools/jest/longest-first-sequencer.js'),
};
