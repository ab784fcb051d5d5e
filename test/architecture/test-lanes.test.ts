import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { ROOT } from '../helpers/server-process';
import { filesBelow, laneOf, misnamedTests, STARTERS, startingImports } from './test-lanes';

// Issue 45 item 5: a test's lane is in its file name, `*.int.test.ts` starts a server or a process,
// every other `*.test.ts` runs in `npm run test:unit` (test-lanes.ts). This checks the names and the
// imports; test/unit-lane-guard.js checks what a unit-lane test does when it runs.
const files = filesBelow(ROOT);
const tests = files.filter((f) => f.startsWith('test/') && laneOf(f) !== undefined);

interface JestConfig {
  testMatch: string[];
  testPathIgnorePatterns?: string[];
}
const jestConfig = (name: string): JestConfig => require(join(ROOT, name));
const atRoot = (pattern: string): string => pattern.replaceAll('<rootDir>', ROOT);
/** Whether Jest runs the file under `config`: its globs (as Jest matches them) and not its ignore patterns. */
const runs = (config: JestConfig, file: string): boolean => {
  const path = join(ROOT, file);
  return (
    picomatch(config.testMatch.map(atRoot), { dot: true })(path) &&
    !(config.testPathIgnorePatterns ?? ['/node_modules/']).some((p) => new RegExp(atRoot(p)).test(path))
  );
};

describe('the test lanes', () => {
  test('every test file is named for its lane: <name>.test.ts starts nothing, <name>.int.test.ts a server or a process', () => {
    expect(misnamedTests(files)).toEqual([]);
    expect(tests.filter((f) => laneOf(f) === 'unit').length).toBeGreaterThan(50);
    expect(tests.filter((f) => laneOf(f) === 'int').length).toBeGreaterThan(50);
  });

  test('npm run test:unit runs the unit lane, npm test both, by the file name alone (no list of files)', () => {
    const unit = jestConfig('jest.unit.config.js');
    const full = jestConfig('jest.config.js');
    expect(tests.filter((f) => runs(unit, f))).toEqual(tests.filter((f) => laneOf(f) === 'unit'));
    expect(tests.filter((f) => runs(full, f))).toEqual(tests);
    expect([unit.testMatch, unit.testPathIgnorePatterns]).toEqual([
      ['**/*.test.ts'],
      ['/node_modules/', '\\.int\\.test\\.ts$'],
    ]);
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    expect([scripts.test, scripts['test:unit']]).toEqual(['jest', 'jest -c jest.unit.config.js']);
  });

  test('no unit-lane test imports what starts a server or a process', () => {
    const starting = tests
      .filter((f) => laneOf(f) === 'unit')
      .flatMap((f) => startingImports(f, readFileSync(join(ROOT, f), 'utf8')).map((s) => `${f}: ${s}`));
    expect(starting).toEqual([]);
  });

  test('every starter listed is exported by its module', () => {
    const missing = Object.entries(STARTERS)
      .filter(([module]) => module.startsWith('test/'))
      .flatMap(([module, names]) => {
        const source = readFileSync(join(ROOT, `${module}.ts`), 'utf8');
        return (names === '*' ? [] : names)
          .filter((n) => !new RegExp(`export (?:async )?(?:function|const|class) ${n}\\b`).test(source))
          .map((n) => `${n} from ${module}`);
      });
    expect(missing).toEqual([]);
  });

  test.each([
    ['test/policy/glob.test.ts', 'unit'],
    ['test/state/redis-tls.int.test.ts', 'int'],
    ['test/policy/glob-property.slow.test.ts', undefined],
    ['test/policy/glob.spec.ts', undefined],
    ['test/policy/glob.test.js', undefined],
    ['test/policy/Glob.test.ts', undefined],
    ['test/helpers/fixtures.ts', undefined],
  ])('the lane of %s: %s', (file, lane) => {
    expect(laneOf(file)).toBe(lane);
  });

  test('a test file no lane runs is found: misnamed, or outside test/', () => {
    const planted = [
      'test/policy/glob.test.ts',
      'test/state/redis.int.test.ts',
      'test/state/redis.int.ts',
      'test/policy/glob-property.slow.test.ts',
      'test/policy/glob.spec.ts',
      'src/policy/glob.test.ts',
      'policies/production.test.yaml',
      'test/helpers/fake-steadybit-each-test.ts',
    ];
    expect(misnamedTests(planted)).toEqual([
      'test/state/redis.int.ts',
      'test/policy/glob-property.slow.test.ts',
      'test/policy/glob.spec.ts',
      'src/policy/glob.test.ts',
    ]);
  });

  test.each([
    ["import request from 'supertest';", ['* from supertest']],
    ["import { spawnSync } from 'node:child_process';", ['spawnSync from child_process']],
    ["const run = async () => (await import('node:child_process')).spawn('ls');", ['* from child_process']],
    ['const s = "import request from \'supertest\'";', []],
    ["import { ROOT, freePort } from '../helpers/server-process';", ['freePort from test/helpers/server-process']],
    [
      "import {\n  startFakeSteadybit as start,\n} from '../helpers/fake-steadybit';",
      ['startFakeSteadybit from test/helpers/fake-steadybit'],
    ],
    ["import * as sp from '../helpers/server-process';", ['* from test/helpers/server-process']],
    ["const { spawn } = require('child_process');", ['* from child_process']],
    ["import { ROOT } from '../helpers/server-process';", []],
    ["import type { FakeSteadybit } from '../helpers/fake-steadybit';", []],
    ["import { type ChildService } from '../helpers/child-service';", []],
    ["import { runIn, tempDirs } from '../cli/run-cli';", []],
  ])('imports that start something, planted in test/policy/x.test.ts: %s', (source, found) => {
    expect(startingImports('test/policy/x.test.ts', source)).toEqual(found);
  });
});
