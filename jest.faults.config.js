// Fault tests (issue 14): each spec starts a stack of its own and stops, pauses, restarts or kills
// servers and apps of that stack only (a MongoDB, Redis or Kafka broker of its own where it touches
// one), so they could run side by side; on two cores they run one at a time: beside another spec's
// load, a kill lands more often between a send's claim and its call (an accepted group then ends
// with its outcome unknown, which the specs count as lost). The spec that measures a pace runs
// after them (jest.faults-alone.config.js).
// After the integration suite (tools/scripts/test.sh); the apps must be built (`npm run build`).
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/apps/gateway-e2e/src/faults/*.fault-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/broadcast-provider-pressure\\.fault-spec\\.ts$'],
  maxWorkers: 1,
  testTimeout: 300_000,
};
