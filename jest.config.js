/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/test/plain-summary-reporter.js'],
};
