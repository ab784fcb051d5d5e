import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStarterPolicyDir, STARTER_POLICIES_NOTICE } from '../../src/policy/loading/starter-policies';
import { ROOT, startServerProcess } from '../helpers/server-process';

/** The starter policies never decide runs silently: the log and /readyz say they are served. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'starter-'));
  writeFileSync(join(dir, 'mine.yaml'), 'kind: Policy\nname: mine\nrules:\n  - environments:\n      blocked: [prod]\n');
  symlinkSync(join(ROOT, 'policies'), join(dir, 'link-to-starter'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('isStarterPolicyDir', () => {
  it.each([
    ['the bundled policies/', () => join(ROOT, 'policies'), true],
    ['a link to them', () => join(dir, 'link-to-starter'), true],
    ['the same path written differently', () => join(ROOT, 'policies', '..', 'policies'), true],
    ['a policy dir of your own', () => dir, false],
    ['a dir that does not exist', () => join(dir, 'missing'), false],
  ])('%s: %s', (_name, path, expected) => {
    expect(isStarterPolicyDir(path())).toBe(expected);
  });
});

describe('/readyz and the start-up log', () => {
  it.each([
    ['the starter policies', () => join(ROOT, 'policies'), true],
    ['policies of your own', () => dir, false],
  ])('with %s: starterPolicies is %s', async (_name, policyDir, starter) => {
    const service = await startServerProcess({ POLICY_DIR: policyDir(), WEBHOOK_SECRET: 's', POLICY_WATCH: 'false' });
    try {
      const body = (await (await fetch(`${service.url}/readyz`)).json()) as {
        starterPolicies: boolean;
        notice?: string;
      };
      expect(body.starterPolicies).toBe(starter);
      expect(body.notice).toBe(starter ? STARTER_POLICIES_NOTICE : undefined);
      expect(service.output().includes(STARTER_POLICIES_NOTICE)).toBe(starter);
    } finally {
      await service.stop();
    }
  });
});
