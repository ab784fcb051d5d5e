import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/payload/types';
import { decide } from '../../src/policy/engine/decide';
import { type KeptOutcomes, TIMELESS_RULE_KINDS } from '../../src/policy/engine/kept-outcomes';
import type { Facts } from '../../src/policy/facts/facts';
import { bundleFrom } from '../helpers/bundle-from';
import { ROOT } from '../helpers/server-process';
import { guardUnderTest, TestClock } from './guard-harness';

// Issue 48 item 4: a tick gives a run's passes and skips that cannot have changed again instead of
// judging them again; these prove that whatever can have changed (the time, the facts, the policy
// set) is still judged.

const ALICE = { username: 'alice', email: 'alice@example.com' };
const RUN = (): PreflightPayload => {
  const run = JSON.parse(readFileSync(join(ROOT, 'examples', 'dead-man', 'run.json'), 'utf8')) as PreflightPayload;
  run.execution.createdBy = { ...ALICE };
  return run;
};
const T0 = new Date('2026-01-05T10:00:00.000Z');

const FREEZE = (from: string) =>
  `  - timeWindow: { timeZone: UTC, deny: [{ name: freeze, start: "${from}", end: "2026-01-05T11:00:00Z" }] }\n`;
/**
 * A freeze from 10:05 (its answer reads the clock); the same freeze, on now, for runs not created by
 * SRE (its scope reads the team facts) and for team OTHER's runs (its scope reads the payload).
 */
const FILES = {
  'freeze.yaml': `kind: Policy\nname: freeze\nwhileRunning: true\nrules:\n${FREEZE('2026-01-05T10:05:00Z')}`,
  'outsiders.yaml': `kind: Policy\nname: no-prod-for-outsiders\nwhileRunning: true\nexclude: { createdByTeams: [SRE] }\nrules:\n${FREEZE('2026-01-05T09:00:00Z')}`,
  'others.yaml': `kind: Policy\nname: other-team\nwhileRunning: true\nmatch: { teams: [OTHER] }\nrules:\n${FREEZE('2026-01-05T09:00:00Z')}`,
};

const teamsWith = (members: Array<{ username: string; email?: string }>): Facts => ({ teams: { SRE: { members } } });

describe('outcomes kept between decisions on the same run (kept-outcomes.ts)', () => {
  test('with kept outcomes a decision is the same as without, at every time and with any facts', () => {
    const bundle = bundleFrom(FILES, T0);
    const run = RUN();
    const kept: KeptOutcomes = new Map();
    const inSre = teamsWith([ALICE]);
    for (const iso of ['2026-01-05T10:00:00Z', '2026-01-05T10:06:00Z', '2026-01-05T11:30:00Z']) {
      const now = new Date(iso);
      const fresh = decide(bundle, run, inSre, now, { decisionId: 'd' });
      expect(JSON.stringify(decide(bundle, run, inSre, now, { decisionId: 'd', kept }))).toBe(JSON.stringify(fresh));
    }
    // The skip of the SRE-excluded policy is kept; the freeze's pass never is (other-team is no candidate).
    const names = [...kept.keys()].map((p) => bundle.policies[p].name).sort();
    expect(names).toEqual(['no-prod-for-outsiders']);
  });

  test('the clock moving into a freeze is seen at the next tick', async () => {
    const clock = new TestClock(T0);
    const run = RUN();
    const g = guardUnderTest(bundleFrom(FILES, T0), clock, {
      gather: async () => ({ ok: true as const, facts: teamsWith([ALICE]) }),
    });
    g.allow(run);
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('"freeze"'))).toEqual([]);
    clock.set('2026-01-05T10:06:00Z');
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('policy "freeze" would stop run 42'))).toHaveLength(1);
  });

  test('facts that change (the creator leaves SRE) are seen at the next tick, the time standing still', async () => {
    const clock = new TestClock(T0);
    const run = RUN();
    const facts = { current: teamsWith([ALICE]) };
    const g = guardUnderTest(bundleFrom(FILES, T0), clock, {
      gather: async () => ({ ok: true as const, facts: facts.current }),
    });
    g.allow(run);
    await g.guard.tick();
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('no-prod-for-outsiders'))).toEqual([]);
    facts.current = teamsWith([{ username: 'someone-else' }]);
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('policy "no-prod-for-outsiders" would stop run 42'))).toHaveLength(1);
  });

  test('a new policy set is judged in full at the next tick', async () => {
    const clock = new TestClock(T0);
    const run = RUN();
    const facts = teamsWith([ALICE]);
    const g = guardUnderTest(bundleFrom(FILES, T0), clock, { gather: async () => ({ ok: true as const, facts }) });
    g.allow(run);
    await g.guard.tick();
    // The same policies at the same places, the SRE exclusion gone: its skip, kept, must not be given again.
    const widened = {
      ...FILES,
      'outsiders.yaml': FILES['outsiders.yaml'].replace('exclude: { createdByTeams: [SRE] }\n', ''),
    };
    g.store.replace(bundleFrom(widened, T0), [], undefined, T0);
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('policy "no-prod-for-outsiders" would stop run 42'))).toHaveLength(1);
  });

  test('an exception that waived a policy and expires is seen at the next tick (a waiver is never kept)', async () => {
    const clock = new TestClock(T0);
    const run = RUN();
    const files = {
      'shop-freeze.yaml': `kind: Policy\nname: shop-freeze\nwhileRunning: true\nmatch: { teams: [SHOP] }\nrules:\n${FREEZE('2026-01-05T09:00:00Z')}`,
      'gameday.yaml':
        'kind: Exception\nname: shop-gameday\npolicy: shop-freeze\nowner: jane@example.com\nreason: game day\nexpires: "2026-01-05T10:05:00Z"\nmatch: { teams: [SHOP] }\n',
    };
    const g = guardUnderTest(bundleFrom(files, T0), clock, {
      gather: async () => ({ ok: true as const, facts: teamsWith([ALICE]) }),
    });
    g.allow(run);
    await g.guard.tick();
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('policy "shop-freeze" would stop run 42'))).toEqual([]);
    clock.set('2026-01-05T10:06:00Z');
    await g.guard.tick();
    expect(g.logs.filter((l) => l.includes('policy "shop-freeze" would stop run 42'))).toHaveLength(1);
  });

  test('no rule kind listed as timeless reads the clock or the state in its own module', () => {
    // A kind that starts reading the time must leave TIMELESS_RULE_KINDS, or its passes would be
    // given again after the time moved on. The rule modules that read it today (time-window,
    // quota, cooldown, state-fact, alerts, prometheus) are caught by this same test.
    const clockOrState = /\.now\b|nowText|Date\.now|new Date\(|ctx\.state\b/;
    for (const kind of TIMELESS_RULE_KINDS) {
      const file = join(ROOT, 'src', 'policy', 'rules', `${kind.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`);
      expect({ kind, readsClock: clockOrState.test(readFileSync(file, 'utf8')) }).toEqual({ kind, readsClock: false });
    }
    for (const clocked of ['time-window', 'quota', 'cooldown'])
      expect(clockOrState.test(readFileSync(join(ROOT, 'src', 'policy', 'rules', `${clocked}.ts`), 'utf8'))).toBe(true);
  });
});
