import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';

/**
 * A file a test suite reads (payloadFile, signalsFile) is left out of the policy set, but only when
 * it is data: a suite that names a policy file must not take that policy out of the set (fail open).
 */
describe('files a suite names are left out of the policy set only when they are not policies', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'suite-named-'));
    mkdirSync(join(dir, 'testdata'));
    writeFileSync(
      join(dir, 'prod.yaml'),
      'kind: Policy\nname: block-prod\nrules:\n  - environments: { blocked: [prod] }\n',
    );
    writeFileSync(join(dir, 'testdata', 'run.yaml'), 'execution:\n  id: 1\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const policyNames = () => {
    const loaded = loadPolicyDir(dir);
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
    return loaded.bundle.policies.map((p) => p.name);
  };

  test('a payload the suite reads is not loaded as a policy', () => {
    writeFileSync(join(dir, 'prod.test.yaml'), 'cases:\n  - name: x\n    payloadFile: testdata/run.yaml\n');
    expect(policyNames()).toContain('block-prod');
  });

  test('a policy file a suite names as its payload stays in the set', () => {
    writeFileSync(
      join(dir, 'prod.test.yaml'),
      'defaults:\n  payloadFile: prod.yaml\ncases:\n  - name: x\n    payloadFile: testdata/run.yaml\n',
    );
    expect(policyNames()).toContain('block-prod');
  });
});
