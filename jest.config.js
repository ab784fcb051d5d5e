/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  testTimeout: 30000,
  // The validator modules compiled from the schemas, regenerated when a schema changed (scripts/build-validators.js).
  globalSetup: '<rootDir>/scripts/build-validators.js',
  reporters: ['default', '<rootDir>/test/plain-summary-reporter.js'],
};
