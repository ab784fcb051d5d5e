import type { PreflightPayload } from '../../src/payload/types';
import { decideAt, NOW } from '../helpers/decide-harness';

const ALLOW_ALL = { 'ok.yaml': 'kind: Policy\nname: ok\nrules:\n  - environments: {blocked: [nowhere]}\n' };
const NONCE = '0123456789abcdef';
const wait = { id: 'w1', state: 'CREATED', ignoreFailure: false, parameters: { duration: '1s' } };

test('a wait-only run named as a connect probe is denied by design, naming its nonce and what the policies would decide', () => {
  const d = decideAt(ALLOW_ALL, NOW, (p) => {
    p.execution.name = `preflight-gate probe ${NONCE}`;
    p.execution.steps = [wait];
  });
  expect(d.allowed).toBe(false);
  expect(d.modifications).toEqual([]);
  expect(d.message).toMatch(
    new RegExp(
      `^preflight-gate probe ${NONCE} reached preflight-gate: decided under policy revision [0-9a-f]{12} \\(decision d-1\\); a probe never runs, so it is denied \\(the policies would allow it: Allowed: `,
    ),
  );
});

test.each([
  [
    'an attack step',
    (p: PreflightPayload) => {
      p.execution.name = `preflight-gate probe ${NONCE}`;
    },
  ],
  [
    'another name',
    (p: PreflightPayload) => {
      p.execution.name = `preflight-gate probe ${NONCE}!`;
      p.execution.steps = [wait];
    },
  ],
  [
    'no steps',
    (p: PreflightPayload) => {
      p.execution.name = `preflight-gate probe ${NONCE}`;
      p.execution.steps = [];
    },
  ],
])('a run with %s is decided as any run', (_what, change) => {
  const d = decideAt(ALLOW_ALL, NOW, change);
  expect(d.allowed).toBe(true);
  expect(d.message).not.toContain('probe');
});
