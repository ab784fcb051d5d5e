import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decidePlayground, PLAYGROUND_DECISION_ID } from '../../src/playground/decide-playground';
import { readShareFragment, shareFragment, shareLink } from '../../src/playground/share-link';
import { decide } from '../../src/policy/engine/decide';
import { givenFacts } from '../../src/policy/facts/quiet-facts';
import { builtInPolicies, withBuiltIns } from '../../src/policy/compile/built-in-policies';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { FIXTURES } from '../helpers/fixtures';

const CASES = join(FIXTURES, 'cases');
const read = (name: string, file: string) => readFileSync(join(CASES, name, file), 'utf8');

test.each(readdirSync(CASES).sort())('case %s: the same answer as the engine on the directory', (name) => {
  const now = JSON.parse(read(name, 'decision.json')).evaluatedAt as string;
  const payload = JSON.parse(read(name, 'payload.json'));
  const result = decidePlayground({ policies: { 'policy.yaml': read(name, 'policy.yaml') }, payload, now, facts: {} });
  const loaded = loadPolicyDir(join(CASES, name), new Date(now));
  if (!loaded.ok || !result.ok) throw new Error('the case does not load');
  const bundle = withBuiltIns(loaded.bundle, builtInPolicies('enforce'));
  const expected = decide(bundle, payload, givenFacts(bundle.needs, {}), new Date(now), {
    decisionId: PLAYGROUND_DECISION_ID,
  });
  expect(result.status).toBe(expected.allowed ? 200 : 403);
  expect(result.body.message).toBe(expected.message);
  expect(result.decision.modifications).toEqual(expected.modifications);
});

const starter = () => ({
  policies: { 'p.yaml': read('production-blocked', 'policy.yaml') },
  payload: JSON.parse(read('production-blocked', 'payload.json')),
  now: '2026-01-05T10:00:00Z',
  facts: {},
});

test('malformed input is a list of problems, each where it is, and no decision', () => {
  const result = decidePlayground({
    ...starter(),
    policies: {
      'p.yaml': 'kind: Policy\nname: x\nrules:\n  - environments: { blocked: [a] }\n  - nope: 1\n',
      'notes.txt': '',
    },
    now: 'tomorrow',
    payload: { event: 'experiment.execution.preflight' },
  });
  if (result.ok) throw new Error('decided on malformed input');
  expect(result.status).toBe(400);
  const parts = result.problems.map((p) => p.part);
  expect(parts).toEqual(expect.arrayContaining(['now', 'payload', 'policies']));
  expect(result.problems.find((p) => p.part === 'policies')).toMatchObject({ file: 'notes.txt' });
  const policies = decidePlayground({
    ...starter(),
    policies: { 'p.yaml': 'kind: Policy\nname: x\nrules:\n  - nope: 1\n' },
  });
  if (policies.ok) throw new Error('decided on a policy that does not load');
  expect(policies.status).toBeUndefined();
  expect(policies.problems[0]).toMatchObject({ part: 'policies', file: 'p.yaml', line: 4 });
});

test('a share link holds the input as base64url JSON and gives it back, any text included', () => {
  const input = { ...starter(), policies: { 'ü/p.yaml': 'kind: Policy # ✓ ünïcode\n' } };
  const fragment = shareFragment(input);
  expect(fragment).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(JSON.parse(Buffer.from(fragment, 'base64url').toString('utf8'))).toEqual(input);
  expect(readShareFragment(`#${fragment}`)).toEqual({ ok: true, input });
  expect(shareLink('http://127.0.0.1:8090/#old', input)).toBe(`http://127.0.0.1:8090/#${fragment}`);
});

test('a broken link says why', () => {
  expect(readShareFragment('#not base64!')).toMatchObject({ ok: false, message: expect.stringContaining('base64url') });
  const noPolicies = Buffer.from(JSON.stringify({ payload: {}, now: 'x' })).toString('base64url');
  expect(readShareFragment(noPolicies)).toMatchObject({ ok: false, message: expect.stringContaining('"policies"') });
});
