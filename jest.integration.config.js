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
  // Four on two cores: most of a spec's time is spent waiting on the stack's processes (Kafka
  // consumers, retries, timeouts), which more workers fill: 430 s with three against 589 s with
  // two (2026-11-30); on 2026-12-01, one after the other, 281 s with three (all processes together
  // at 1.43 cores), 233 s with four (1.65), 205 s with five (1.79). Four, not five: the machine
  // keeps some room for the specs that measure a rate or wait on a deadline.
  maxWorkers: 4,
};
