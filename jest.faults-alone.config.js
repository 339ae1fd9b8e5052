// The fault spec that measures a pace (sends per second against a provider capped below the
// channel): alone, after the others (jest.faults.config.js), so no other spec's load takes its CPU.
const faults = require('./jest.faults.config.js');

module.exports = {
  ...faults,
  testMatch: ['<rootDir>/apps/gateway-e2e/src/faults/broadcast-provider-pressure.fault-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  maxWorkers: 1,
};
