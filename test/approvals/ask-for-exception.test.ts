import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../src/policy/engine/decide';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { readPolicyDir } from '../../src/policy/loading/read-policy-dir';
import { preflightWith } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';

/**
 * policies/README.md shows how a starter policy's denial tells the user how to ask for an
 * exception: its example replaces the bundled blocked-environments.yaml, loads with the rest of
 * the starter set without a problem, and the denial names the command with this decision's id.
 */
const NOW = new Date('2026-03-02T10:00:00Z');

test('the README pattern: a denial names `preflight-gate exception --from-decision <this decision id>`', () => {
  const readme = readFileSync(join(ROOT, 'policies', 'README.md'), 'utf8');
  const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const sources = readPolicyDir(join(ROOT, 'policies')).map((s) =>
    s.key === 'blocked-environments.yaml' ? { ...s, text: example as string } : s,
  );
  const loaded = loadBundle(sources, NOW);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  expect(loaded.warnings).toEqual([]);
  const run = preflightWith((p) => {
    p.execution.environment = 'payments-prod';
  });
  const d = decide(loaded.bundle, run, {}, NOW, { decisionId: '3f2a9c1e-0000-4000-8000-000000000001' });
  expect(d.allowed).toBe(false);
  expect(d.message).toContain(
    'To ask for an exception: preflight-gate exception --from-decision 3f2a9c1e-0000-4000-8000-000000000001 --archive /var/lib/preflight-gate/archive --expires-in 2h --max-uses 1 --reason "<why>", then open a pull request on the policy repository',
  );
});
