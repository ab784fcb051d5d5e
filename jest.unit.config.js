/**
 * `npm run test:unit`: every test file under test/ but the ones named `*.int.test.ts` (they start a
 * server or a process: an HTTP listener, Redis, Prometheus, Alertmanager, helm, buildah or a CLI
 * child process). A test's lane is its file name, nothing to list: test/architecture/test-lanes.test.ts
 * checks every file's name, and test/unit-lane-guard.js makes a test of this lane that starts a
 * server or a process fail, saying so. `npm test` (jest.config.js) runs both lanes.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  // Every core: Jest's default leaves one to itself, which on a 2-core machine runs the lane one file at a time.
  maxWorkers: '100%',
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '\\.int\\.test\\.ts$'],
  // unit-lane-setting: generated inputs at the lane's size, the 10,000-policy set in `npm test` only (test/helpers/test-lane.ts).
  setupFiles: [...(base.setupFiles ?? []), '<rootDir>/test/unit-lane-guard.js', '<rootDir>/test/unit-lane-setting.js'],
};
