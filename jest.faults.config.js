// Fault tests (issue 14): each spec starts a stack of its own and stops, pauses or kills servers and
// apps, so they run one at a time, after the integration suite (tools/scripts/test.sh). The apps
// must be built (`npm run build`, or the suite's build step).
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  rootDir: __dirname,
  testMatch: ['<rootDir>/apps/gateway-e2e/src/faults/*.fault-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  maxWorkers: 1,
  testTimeout: 300_000,
};
