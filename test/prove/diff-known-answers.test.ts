import { DateTime } from 'luxon';
import { diffSets } from '../../src/prove/analysis';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * Pairs of sets whose differences are known by construction: diff must find each (with a witness the
 * two sets decide differently, checked here again through the witness's own values), and nothing else.
 */
describe('diff: hand-made pairs with known differences', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const diff = (base: Record<string, string>, proposed: Record<string, string>) =>
    diffSets(setOf(dirs.write(base)), setOf(dirs.write(proposed)), NOW);

  const blocked = (envs: string) => `kind: Policy
name: blocked
rules:
  - environments: { blocked: [${envs}] }
`;

  it('identical sets: no run would be decided differently, nothing unknown', () => {
    const r = diff({ 'p.yaml': blocked('payments-prod, legacy') }, { 'p.yaml': blocked('payments-prod, legacy') });
    expect(r.witnesses).toEqual([]);
    expect(r.unknown).toEqual([]);
  });

  it('a blocked environment removed: runs in it are newly allowed, nothing newly denied', () => {
    const r = diff({ 'p.yaml': blocked('payments-prod, legacy') }, { 'p.yaml': blocked('payments-prod') });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.length).toBeGreaterThan(0);
    for (const w of r.witnesses) {
      expect(w.kind).toBe('newly-allowed');
      const e = w.payload.execution;
      expect([e.environment, e.overrides?.environment].map((x) => x?.toLowerCase())).toContain('legacy');
      expect(w.base?.allowed).toBe(false);
      expect(w.proposed?.allowed).toBe(true);
    }
  });

  const hours = (zone: string, from: string, to: string) => `kind: Policy
name: hours
match: { environments: [production] }
rules:
  - timeWindow:
      timeZone: ${zone}
      allowed: [{ days: [Mon-Fri], from: "${from}", to: "${to}" }]
`;

  it('a window widened by an hour: newly allowed exactly in the added hour', () => {
    const r = diff(
      { 'p.yaml': hours('Europe/Berlin', '09:00', '17:00') },
      { 'p.yaml': hours('Europe/Berlin', '09:00', '18:00') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const local = DateTime.fromISO(r.witnesses[0].now, { zone: 'Europe/Berlin' });
    expect(local.hour).toBe(17);
    expect(local.weekday).toBeLessThanOrEqual(5);
  });

  it('the same hours in UTC instead of Berlin: differ only while Berlin keeps summer time (an hour each way)', () => {
    // 09:00-17:00 Berlin is 08:00-16:00 UTC in winter (CET) and 07:00-15:00 UTC in summer (CEST).
    const r = diff(
      { 'p.yaml': hours('Europe/Berlin', '09:00', '17:00') },
      { 'p.yaml': hours('UTC', '08:00', '16:00') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind).sort()).toEqual(['newly-allowed', 'newly-denied']);
    for (const w of r.witnesses) {
      const local = DateTime.fromISO(w.now, { zone: 'Europe/Berlin' });
      expect(local.offset).toBe(120); // summer time: in winter the two sets agree
      expect(local.hour).toBe(w.kind === 'newly-allowed' ? 17 : 9);
    }
  });

  const cap = (pct: number) => `kind: Policy
name: cap
match: { environments: [production] }
rules:
  - targets: { maxPercentage: ${pct} }
`;

  it('a percentage cap raised: steps above the old cap and up to the new one are newly allowed', () => {
    const r = diff({ 'p.yaml': cap(25) }, { 'p.yaml': cap(30) });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const pct = r.witnesses[0].payload.execution.steps?.[0].radius?.percentage as number;
    expect(pct).toBeGreaterThan(25);
    expect(pct).toBeLessThanOrEqual(30);
  });

  const actions = (glob: string) => `kind: Policy
name: no-shutdown
rules:
  - actions: { blocked: ["${glob}"] }
`;

  it('a glob loosened: an action the old glob blocks and the new one does not is newly allowed', () => {
    const r = diff({ 'p.yaml': actions('*shutdown*') }, { 'p.yaml': actions('*shutdown_host*') });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const id = r.witnesses[0].payload.execution.steps?.[0].actionId as string;
    expect(id.toLowerCase()).toContain('shutdown');
    expect(id.toLowerCase()).not.toContain('shutdown_host');
  });

  /** An exception for team SRE from the policy `blocked`, expiring at `expires`. */
  const gameday = (expires: string) => `kind: Exception
name: gameday
policy: blocked
owner: sre@example.com
reason: gameday CHG-1
expires: "${expires}"
match: { teams: [SRE] }
`;
  const withException = (expires: string) =>
    diff({ 'p.yaml': blocked('payments-prod') }, { 'p.yaml': blocked('payments-prod'), 'e.yaml': gameday(expires) });

  it('an exception added: runs of its team in the blocked environment are newly allowed until it expires', () => {
    const r = withException('2026-03-05T00:00:00Z');
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    expect(w.payload.execution.teamKey?.toUpperCase()).toBe('SRE');
    expect(new Date(w.now).getTime()).toBeGreaterThanOrEqual(NOW.getTime());
    expect(new Date(w.now).getTime()).toBeLessThan(Date.parse('2026-03-05T00:00:00Z'));
  });

  it('an exception added that has already expired allows no run: no run starts before now', () => {
    const r = withException('2026-03-01T00:00:00Z');
    expect(r.unknown).toEqual([]);
    expect(r.witnesses).toEqual([]);
    expect(Date.parse(r.horizon.from)).toBe(NOW.getTime());
  });

  it('a yearly freeze on a date that falls on the weekdays a weekly rule leaves open only in some years is found', () => {
    // From 2026-03-02, February 29 falls on a Tuesday (2028) and a Sunday (2032) in eight years; a
    // leap-day freeze beside a rule that denies Tuesdays and Sundays changes a run first in 2036 (a Friday).
    const weekly = `kind: Policy
name: weekly
rules:
  - timeWindow:
      timeZone: UTC
      deny:
        - { name: Tuesdays, days: [Tue], from: "00:00", to: "24:00" }
        - { name: Sundays, days: [Sun], from: "00:00", to: "24:00" }
`;
    const leapDay = `kind: Policy
name: leap-day
rules:
  - timeWindow:
      timeZone: UTC
      deny: [{ name: leap day, start: "02-29", end: "03-01" }]
`;
    const r = diff({ 'w.yaml': weekly }, { 'w.yaml': weekly, 'l.yaml': leapDay });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    const now = DateTime.fromISO(r.witnesses[0].now, { zone: 'utc' });
    expect([now.month, now.day]).toEqual([2, 29]);
    expect(['Tue', 'Sun']).not.toContain(now.toFormat('ccc'));
  });

  it('a scope narrowed: the runs it no longer takes in are newly allowed', () => {
    const scoped = (teams: string) => `kind: Policy
name: blocked
match: { teams: [${teams}] }
rules:
  - environments: { blocked: [production] }
`;
    const r = diff({ 'p.yaml': scoped('SHOP, PAY') }, { 'p.yaml': scoped('SHOP') });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.witnesses[0].payload.execution.teamKey?.toUpperCase()).toBe('PAY');
  });

  it('a changed rule beyond the analysis (a json-logic condition) is unknown, never "no difference"', () => {
    const cond = (n: number) => `kind: Policy
name: big
rules:
  - condition:
      deny: { ">": [{ var: targets.total }, ${n}] }
      reason: too big
`;
    const r = diff({ 'p.yaml': cond(20) }, { 'p.yaml': cond(30) });
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(/big rules\[0\]\.condition changed and is beyond the analysis/);
  });
});

describe('glob classes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const keys = (globs: string[]) => `kind: Policy
name: keys
match: { experimentKeys: [${globs.map((g) => `"${g}"`).join(', ')}] }
rules:
  - environments: { blocked: [production] }
`;

  it('many prefix globs are split exactly (no limit): a longer prefix dropped newly allows its keys only', () => {
    const many = Array.from({ length: 40 }, (_, i) => `TEAM${i}-*`);
    const r = diffSets(
      setOf(dirs.write({ 'p.yaml': keys([...many, 'TEAM1-X-*']) })),
      setOf(dirs.write({ 'p.yaml': keys([...many.filter((g) => g !== 'TEAM1-*'), 'TEAM1-X-*']) })),
      NOW,
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const key = (r.witnesses[0].payload.execution.experimentKey as string).toUpperCase();
    expect(key.startsWith('TEAM1-')).toBe(true);
    expect(key.startsWith('TEAM1-X-')).toBe(false);
  });

  it('globs of other shapes past the limit make the answer unknown, never "no difference"', () => {
    const many = Array.from({ length: 13 }, (_, i) => `*team${i}*`);
    const r = diffSets(setOf(dirs.write({ 'p.yaml': keys(many) })), setOf(dirs.write({ 'p.yaml': keys(many) })), NOW);
    expect(r.unknown.join('\n')).toMatch(/key: 13 distinct globs in one dimension/);
  });
});

describe('a dimension one rule reads only in part', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  it('a cap raised where another rule allows only some actions: the witness runs one of those', () => {
    // The cap reads only whether the step names an action; the other policy reads which: the
    // search must still try every action class for the cap's classes.
    const set = (pct: number) => ({
      'cap.yaml': `kind: Policy\nname: cap\nrules:\n  - targets: { maxPercentage: ${pct} }\n`,
      'only-safe.yaml': 'kind: Policy\nname: only-safe\nrules:\n  - actions: { allowed: ["safe-*"] }\n',
    });
    const r = diffSets(setOf(dirs.write(set(25))), setOf(dirs.write(set(30))), NOW);
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.witnesses[0].payload.execution.steps?.[0].actionId?.toLowerCase()).toMatch(/^safe-/);
  });
});
