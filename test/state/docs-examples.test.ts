import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInPolicies, withBuiltIns } from '../../src/policy/compile/built-in-policies';
import { decide } from '../../src/policy/engine/decide';
import { quietFacts } from '../../src/policy/facts/quiet-facts';
import { readStateFacts } from '../../src/policy/facts/read-facts';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';
import { ROOT } from '../helpers/server-process';

const yamlBlocks = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
// The README's own section on guardrails with memory is now a link to docs/state.md.
const examples = yamlBlocks(readFileSync(join(ROOT, 'docs', 'state.md'), 'utf8'));
const aliases = 'kind: EnvironmentAliases\naliases:\n  production: [prod-id]\n  staging: [staging-id]\n';

describe('the policy examples of docs/state.md', () => {
  test('has policy examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  test.each(examples.map((text, i) => [i, text]))('example %i loads without a problem', (_i, text) => {
    const result = loadBundle([
      { file: 'aliases.yaml', text: aliases },
      { file: 'example.yaml', text: String(text) },
    ]);
    expect(result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`)).toEqual([]);
  });
});

describe('the state facts examples of docs/state.md decide as the text after each says', () => {
  const text = readFileSync(join(ROOT, 'docs', 'state.md'), 'utf8');
  const section = text.slice(
    text.indexOf('## State facts for `eval` and test suites'),
    text.indexOf('## `POST /events`'),
  );
  const examples = [...section.matchAll(/```json\n([\s\S]*?)```\n(denies[^\n]*)/g)].map((m) => [m[2], m[1]] as const);
  // The rule each example's sentence names (the built-in policy for the first).
  const rules: Record<string, string> = {
    concurrency: 'concurrency: {maxRunning: 1}',
    cooldown: 'cooldown: {duration: 30m}',
    quota: 'quota: {maxRuns: 2, window: 1d}',
    noOverlap: 'noOverlap: {by: [host.hostname]}',
  };
  const run = preflightWith((p) => {
    p.execution.teamKey = 'ADM';
    p.execution.environment = 'prod';
    p.execution.id = 1;
    // The host the noOverlap example names, on the run's one target.
    p.execution.steps?.[1].targetExecutions?.[0].attributes?.push({ key: 'host.hostname', value: 'ip-10-0-3-17' });
  });
  const NOW = new Date('2026-01-05T10:00:00Z');

  test('one example per kind', () => {
    expect(examples.length).toBe(5);
  });

  test.each(examples)('%s', (sentence, json) => {
    const read = readStateFacts(JSON.parse(json));
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const kind = Object.keys(rules).find((k) => sentence.includes(`\`${k}:`));
    const loaded = bundleFrom(
      kind
        ? { 'p.yaml': `kind: Policy\nname: example\nrules:\n  - ${rules[kind]}\n` }
        : { 'p.yaml': 'kind: Policy\nname: example\nrules:\n  - environments: {blocked: [nowhere]}\n' },
    );
    const bundle = withBuiltIns(loaded, builtInPolicies('enforce'));
    const decision = decide(bundle, run, { state: read.facts }, NOW, { decisionId: 'd' });
    expect(decision.allowed).toBe(false);
    expect(decision.results.filter((r) => r.result === 'deny').map((r) => r.policy)).toEqual([
      kind ? 'example' : 'emergency-stop (built-in)',
    ]);
    // Without the facts that make it deny (a fresh service's), the same run is allowed.
    expect(decide(bundle, run, quietFacts(bundle.needs), NOW, { decisionId: 'd' }).allowed).toBe(true);
  });
});
