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
  maxWorkers: 2,
};
