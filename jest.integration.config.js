// Integration tests: real MongoDB (mongo-java-server here), Kafka and Redis, the four apps as real processes.
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/close-test-connections.ts'],
  testTimeout: 60000,
  // Three on two cores: most of a spec's time is spent waiting on the stack's processes (Kafka
  // consumers, retries, timeouts), and a third worker fills it: 430 s with three against 589 s
  // with two, one after the other on this machine (2026-11-30; the run with three also had the
  // consent spec's shorter waits, about 25 s of one worker).
  maxWorkers: 3,
};
