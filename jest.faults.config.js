// Fault tests (issue 14): each spec starts a stack of its own and stops, pauses, restarts or kills
// servers and apps of that stack only (a MongoDB, Redis or Kafka broker of its own where it touches
// one), so they run two at a time. A kill that lands between a send's claim and its call, more
// often beside another spec's load, is recovered by the send's call fence (docs/messaging.md): the
// send is made again, not settled unknown. The spec that measures a pace runs after them, alone
// (jest.faults-alone.config.js). scale-out.fault-spec.ts is no fault: it needs a stack of its own
// with two replicas of every app, so it runs here.
// After the integration suite (tools/scripts/test.sh); the apps must be built (`npm run build`).
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/apps/gateway-e2e/src/faults/*.fault-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/broadcast-provider-pressure\\.fault-spec\\.ts$'],
  maxWorkers: 2,
  testTimeout: 300_000,
  // As in the integration suite: a spec's MongoDB pool and Redis clients closed after it. A client of
  // a stack's own Redis would otherwise keep reconnecting to it after the stack stopped, and its
  // retry timers keep the jest process alive (redis-down, run in band, never exited).
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/close-test-connections.ts'],
};
