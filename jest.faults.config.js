// Fault tests (issue 14): each spec starts a stack of its own and stops, pauses, restarts or kills
// servers and apps of that stack only (a MongoDB, Redis or Kafka broker of its own where it touches
// one), so they run side by side: most of their time goes to waiting a fault out (a heartbeat, a
// session timeout, a restart). The spec that measures a pace the stack must reach runs alone after
// them (jest.faults-alone.config.js): beside another spec's load two cores leave it too little CPU.
// After the integration suite (tools/scripts/test.sh); the apps must be built (`npm run build`).
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/apps/gateway-e2e/src/faults/*.fault-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/broadcast-provider-pressure\\.fault-spec\\.ts$'],
  maxWorkers: 2,
  testTimeout: 300_000,
};
