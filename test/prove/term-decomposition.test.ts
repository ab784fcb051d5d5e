import fc from 'fast-check';
import { decide } from '../../src/policy/engine/decide';
import { runOf, spaceOf } from '../../src/prove/dimensions';
import { Judge } from '../../src/prove/search';
import { termsOf } from '../../src/prove/terms';
import { BUNDLED, NOW, setDirs, setOf } from './prove-sets';

/**
 * The lemma every proof rests on (docs/decisions/0020-prove-by-classes.md): for a run of one action
 * step, the whole set denies exactly when one of its terms (an enforcing policy with one of its rules)
 * denies. Checked on random class representatives of the bundled set and of a set with exceptions.
 */
describe('a set denies a one-step run exactly when one of its terms does', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const withExceptions = dirs.bundledWith({
    'gameday.yaml': `kind: Exception
name: gameday
policy: production-guardrails
owner: sre@example.com
reason: gameday CHG-7
expires: "2026-03-09T00:00:00Z"
match: { teams: [SRE], actionKinds: [ATTACK] }
---
kind: Exception
name: pay-window
policy: production-business-hours
owner: sre@example.com
reason: night test CHG-8
expires: "2026-06-01T00:00:00Z"
match: { experimentKeys: ["PAY-*"] }
`,
  });

  // Target rules that deny what they cannot check, beside count caps that read only whether a list is sent.
  const withTargets = dirs.bundledWith({
    // Without the mutes: with them, nearly every random action id is muted and the sample is all denied.
    'no-muting.yaml': '',
    'no-muting.test.yaml': '',
    'namespaces.yaml': `kind: Policy
name: namespaces
rules:
  - targetAttributes: { forbid: { k8s.namespace: [kube-system] } }
---
kind: Policy
name: caps
match: { createdVia: [API] }
rules:
  - targets: { maxPerStep: 3, denyEmpty: true }
`,
  });

  // Signal rules beside the bundled ones: two reading one query, two reading one Alertmanager source.
  const withSignals = dirs.bundledWith({
    'signals.yaml': `kind: Policy
name: slo
match: { environments: [production] }
rules:
  - prometheus: { query: 'slo:burn_rate:1h{service="checkout"}', denyWhen: "> 2", onEmpty: deny }
  - alerts: { matchers: ['severity=~"critical|page"', 'team!="shop"'], includeSilenced: true }
---
kind: Policy
name: slo-everywhere
rules:
  - prometheus: { query: 'slo:burn_rate:1h{service="checkout"}', denyWhen: ">= 10", onUnavailable: allow }
  - alerts: { matchers: 'severity="critical"', includeInhibited: true, onUnavailable: allow }
`,
  });

  // State rules beside the bundled ones: two parts read per environment and per team.
  const withState = dirs.bundledWith({
    // Without the mutes: with them, nearly every random action id is muted and the sample is all denied.
    'no-muting.yaml': '',
    'no-muting.test.yaml': '',
    'limits.yaml': `kind: Policy
name: limits
match: { environments: [production] }
rules:
  - concurrency: { maxRunning: 2 }
  - quota: { maxRuns: 3, window: 1h }
  - cooldown: { duration: 30m }
---
kind: Policy
name: team-limits
rules:
  - concurrency: { maxRunning: 1, per: team }
  - quota: { maxRuns: 5, window: 1d }
  - cooldown: { duration: 2h, per: team, after: [CANCELED] }
`,
  });

  it.each([
    ['the bundled set', BUNDLED],
    ['the bundled set with exceptions', withExceptions],
    ['the bundled set with target rules', withTargets],
    ['the bundled set with signal rules', withSignals],
    ['the bundled set with state rules', withState],
  ])('%s', (_name, dir) => {
    const set = setOf(dir);
    const terms = termsOf(set);
    const space = spaceOf(
      [...set.policies.values(), ...set.exceptions],
      [set.bundle],
      [set.aliases],
      terms,
      set.bundle.exceptions,
      NOW,
    );
    const judge = new Judge(space, [set.bundle]);
    const sizes = space.dims.map((d) => d.values.length);
    let denied = 0;
    fc.assert(
      fc.property(fc.tuple(...sizes.map((n) => fc.nat({ max: n - 1 }))), (a) => {
        const run = runOf(space, a, [set.bundle]);
        const whole = !decide(set.bundle, run.payload, run.facts, run.now, { decisionId: 't' }).allowed;
        if (whole) denied++;
        expect(terms.some((t) => judge.denies(t, a))).toBe(whole);
        // Each term's answer is a function of what it reads: its memo (keyed by those classes) says
        // what the engine says on this run.
        for (const t of terms.filter((x) => !x.outside))
          expect([t.label, judge.denies(t, a)]).toEqual([
            t.label,
            !decide(t.bundle, run.payload, run.facts, run.now, { decisionId: 't' }).allowed,
          ]);
      }),
      { numRuns: 400, seed: 47 },
    );
    expect(denied).toBeGreaterThan(0);
    expect(denied).toBeLessThan(400);
  });
});
