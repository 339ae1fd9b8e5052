// This lib's integration specs need only a Kafka broker (KAFKA_BROKERS, default 127.0.0.1:19092),
// not the whole stack the root jest.integration.config.js starts. They run under that config too.
const path = require('node:path');
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  rootDir: path.join(__dirname, '../..'),
  testMatch: ['<rootDir>/libs/command-stream/src/**/*.int-spec.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
