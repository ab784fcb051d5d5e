const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // `npm test`: both lanes, `*.int.test.ts` (starts a server or a process) and every other `*.test.ts`
  // (jest.unit.config.js runs those alone; CONTRIBUTING.md, "The fast lane").
  testMatch: ['**/*.test.ts'],
  // TypeScript to CommonJS as tsconfig.json compiles it (ES2022, class fields defined), by swc: types
  // are checked by `npm run typecheck` (pretest, CI), so a test file only needs its types stripped;
  // a cold Jest cache (a fresh clone, CI) transforms in a fraction of what ts-jest took.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', transform: { useDefineForClassFields: true } },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  testTimeout: 30000,
  // At least two workers: jest's default (one fewer than the cores) runs in band on CI's 2 cores,
  // where most of the time is int tests waiting on a process they started (a server, Redis, a build).
  // Two halve the run there (CONTRIBUTING.md, "Tests"); more cores still get more.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // The validator modules compiled from the schemas, regenerated when a schema changed (scripts/build-validators.js).
  globalSetup: '<rootDir>/scripts/build-validators.js',
  reporters: ['default', '<rootDir>/test/plain-summary-reporter.js'],
};
