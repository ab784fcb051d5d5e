import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { reloadReport } from '../../src/observability/reload-report';
import { formatProblem } from '../../src/policy/compile/load-error';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { createPolicyReloader } from '../../src/policy/runtime/policy-reloader';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import { capturingLogger } from '../helpers/capturing-logger';
import { blockPolicy, revisionFor } from './reload-helpers';

const SUITE = `kind: PolicyTestSuite
name: prod
cases: []
`;

describe('a policy saved under a test suite name (*.test.yaml, *.test.yml)', () => {
  const dirs: string[] = [];
  const dirWith = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'preflight-misplaced-'));
    dirs.push(dir);
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
    return dir;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it.each([
    ['prod.test.yaml', blockPolicy('prod', 'prod'), 'Policy', 'prod.yaml'],
    ['waivers.test.yml', 'kind: ExceptionSettings\nmaxDuration: 7d\n', 'ExceptionSettings', 'waivers.yml'],
    [
      'aliases.TEST.yaml',
      `${SUITE}---\nkind: EnvironmentAliases\naliases: { prod: [prod-eu] }\n`,
      'EnvironmentAliases',
      'aliases.yaml',
    ],
  ])('%s fails the load with one error naming the rename', (name, text, kind, rename) => {
    const dir = dirWith({ 'gate.yaml': blockPolicy('gate', 'alpha'), [name]: text });
    const result = loadPolicyDir(dir);
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          file: join(dir, name),
          line: 1,
          col: 1,
          path: '',
          message: `${name} holds kind: ${kind}, but *.test.yaml files are test suites and are never loaded as policies: rename it (e.g. ${rename})`,
          severity: 'error',
        },
      ],
    });
  });

  it('a real suite next to the policies is no problem', () => {
    expect(loadPolicyDir(dirWith({ 'gate.yaml': blockPolicy('gate', 'alpha'), 'gate.test.yaml': SUITE })).ok).toBe(
      true,
    );
  });

  it('the service refuses the set at start-up and at reload, and loads it once renamed', async () => {
    const A = { 'gate.yaml': blockPolicy('gate', 'alpha') };
    const dir = dirWith(A);
    const store = new PolicyStore();
    const { logger, lines } = capturingLogger();
    const metrics = createMetrics({ defaultMetrics: false });
    const reloader = createPolicyReloader({ dir, store, events: reloadReport({ metrics, logger, builtIns: [] }) });
    expect(reloader.reload('startup').result).toBe('success');

    writeFileSync(join(dir, 'prod.test.yaml'), blockPolicy('prod', 'prod'));
    expect(reloader.reload('watch')).toMatchObject({ result: 'failure', revisionInUse: revisionFor(A) });
    expect(store.current()?.revision).toBe(revisionFor(A));
    expect(store.lastLoad()?.problems).toEqual([
      `${join(dir, 'prod.test.yaml')}:1:1 prod.test.yaml holds kind: Policy, but *.test.yaml files are test suites and are never loaded as policies: rename it (e.g. prod.yaml)`,
    ]);
    expect(lines.at(-1)).toMatchObject({ level: 'error' });

    renameSync(join(dir, 'prod.test.yaml'), join(dir, 'prod.yaml'));
    expect(reloader.reload('watch').result).toBe('success');
    expect(
      store
        .current()
        ?.policies.map((p) => p.name)
        .sort(),
    ).toEqual(['gate', 'prod']);

    const fresh = new PolicyStore();
    const onlyMisplaced = dirWith({ 'prod.test.yml': blockPolicy('prod', 'prod') });
    const startup = createPolicyReloader({
      dir: onlyMisplaced,
      store: fresh,
      events: reloadReport({ metrics, logger, builtIns: [] }),
    });
    expect(startup.reload('startup').result).toBe('failure');
    expect(fresh.current()).toBeUndefined();
    expect(fresh.lastLoad()?.problems[0]).toContain('prod.test.yml holds kind: Policy');
  });

  it("the service names the set's other problems too, as validate does, and looks again when either is fixed", () => {
    const broken = 'kind: Policy\nname: broken\nrules:\n  - environments:\n      blockd: [a]\n';
    const dir = dirWith({ 'gate.yaml': blockPolicy('gate', 'alpha'), 'broken.yaml': broken });
    writeFileSync(join(dir, 'prod.test.yaml'), blockPolicy('prod', 'prod'));
    const store = new PolicyStore();
    const metrics = createMetrics({ defaultMetrics: false });
    const { logger } = capturingLogger();
    const reloader = createPolicyReloader({ dir, store, events: reloadReport({ metrics, logger, builtIns: [] }) });
    const misplaced = `${join(dir, 'prod.test.yaml')}:1:1 prod.test.yaml holds kind: Policy, but *.test.yaml files are test suites and are never loaded as policies: rename it (e.g. prod.yaml)`;
    const schemaError = expect.stringMatching(
      new RegExp(`^${join(dir, 'broken.yaml')}:5:7 rules\\[0\\]\\.environments\\.blockd: blockd is not a known field`),
    );

    const startup = reloader.reload('startup');
    expect(startup.result === 'failure' && startup.problems.map(formatProblem)).toEqual([misplaced, schemaError]);
    const validated = loadPolicyDir(dir);
    expect(!validated.ok && validated.problems.map(formatProblem)).toEqual([misplaced, schemaError]);
    expect(store.current()).toBeUndefined();

    // The broken file fixed, the misplaced one left: refused again, for it alone.
    writeFileSync(join(dir, 'broken.yaml'), blockPolicy('broken', 'beta'));
    expect(reloader.reload('watch')).toMatchObject({ result: 'failure' });
    expect(store.lastLoad()?.problems).toEqual([misplaced]);

    // The misplaced one removed, nothing else changed: the set loads.
    rmSync(join(dir, 'prod.test.yaml'));
    expect(reloader.reload('watch').result).toBe('success');
    expect(store.current()?.revision).toBe(
      revisionFor({ 'broken.yaml': blockPolicy('broken', 'beta'), 'gate.yaml': blockPolicy('gate', 'alpha') }),
    );
  });
});
