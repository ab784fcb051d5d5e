import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffSets, proveProperty } from '../../src/prove/analysis';
import { parseProperties, readProperties } from '../../src/prove/property-file';
import { BUNDLED, NOW, setDirs, setOf, proveDir } from './prove-sets';

const property = (name: string, never: string) => `kind: PolicyProperty
name: ${name}
never:
${never}
`;

/** The properties issue 47 names, written for the bundled set (each proven by it). */
const PROPERTIES = {
  'caps.property.yaml': property(
    'no-production-step-over-half',
    `  match: { environments: [production] }
  rules:
    - targets: { maxPercentage: 50 }`,
  ),
  'hours.property.yaml': property(
    'no-attacks-in-production-after-hours',
    `  match: { environments: [production], actionKinds: [ATTACK] }
  rules:
    - timeWindow:
        timeZone: Europe/Berlin
        allowed: [{ days: [Mon-Fri], from: "09:00", to: "17:00" }]`,
  ),
  'stop.property.yaml': property('the-emergency-stop-is-never-waived', `  rules:\n    - emergencyStop: {}`),
};

describe('prove: properties kept with the policies', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const proveAll = (dir: string, env: NodeJS.ProcessEnv = {}) => {
    return proveDir(dir, env);
  };

  it('the bundled set proves its bundled property: no run in payments-prod is ever allowed', () => {
    const [result, ...others] = proveAll(BUNDLED);
    expect(others).toEqual([]);
    expect(result).toMatchObject({ property: 'no-payments-prod', status: 'proven' });
    // The Kubernetes guard's blastRadius rule and the mutes are analysed: the proof relaxed no rule.
    expect(result.relaxed).toEqual([]);
  });

  it('the bundled set proves the properties the issue names', () => {
    const results = proveAll(dirs.bundledWith(PROPERTIES));
    expect(Object.fromEntries(results.map((r) => [r.property, r.status]))).toEqual({
      'no-payments-prod': 'proven',
      'no-production-step-over-half': 'proven',
      'no-attacks-in-production-after-hours': 'proven',
      'the-emergency-stop-is-never-waived': 'proven',
    });
  });

  it('without the built-in emergency stop the last one has a counterexample, decided by the engine', () => {
    const results = proveAll(dirs.bundledWith(PROPERTIES), { EMERGENCY_STOP_POLICY: 'off' });
    const stop = results.find((r) => r.property === 'the-emergency-stop-is-never-waived');
    expect(stop?.status).toBe('counterexample');
    expect(stop?.witness?.facts.state.emergencyStop?.engaged).toBe(true);
    expect(stop?.witness?.answer?.allowed).toBe(true);
  });

  it('a property only a json-logic condition could keep is unknown, never proven', () => {
    const dir = dirs.write({
      'p.yaml': `kind: Policy
name: by-condition
rules:
  - condition:
      deny: { "==": [1, 1] }
      reason: nothing runs at all
`,
      'x.property.yaml': property('no-payments-prod', '  match: { environments: [payments-prod] }'),
    });
    const [result] = proveAll(dir);
    expect(result.status).toBe('unknown');
    expect(result.reason).toMatch(/by-condition rules\[0\]\.condition: rule kind condition is beyond the analysis/);
  });

  it('a property whose own rule is beyond the analysis is unknown', () => {
    const dir = dirs.write({
      'p.yaml': 'kind: Policy\nname: all\nrules:\n  - environments: { blocked: [payments-prod] }\n',
      'x.property.yaml': property('x', '  rules:\n    - condition: { deny: { "==": [1, 1] }, reason: always }'),
    });
    expect(proveAll(dir)[0]).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/condition/) });
  });

  it('a malformed property is a problem at its file, line and column, and is left out', () => {
    const misspelt = parseProperties('x.property.yaml', 'kind: PolicyProperty\nname: x\nnevr: {}\n', {}, NOW);
    expect(misspelt.properties).toEqual([]);
    expect(misspelt.problems).toEqual([
      expect.objectContaining({ file: 'x.property.yaml', line: 3, col: 1, path: 'nevr', severity: 'error' }),
    ]);
    // A field the loader refuses inside never: at the field, with the loader's own message.
    const text =
      'kind: PolicyProperty\nname: x\nnever:\n  rules:\n    - timeWindow:\n        timeZone: Europe/Berln\n        allowed: [{ days: [Mon], from: "09:00", to: "17:00" }]\n';
    const zone = parseProperties('x.property.yaml', text, {}, NOW);
    expect(zone.properties).toEqual([]);
    expect(zone.problems).toEqual([
      expect.objectContaining({
        line: 6,
        col: 19,
        path: 'never.rules[0].timeWindow.timeZone',
        message: expect.stringMatching(/Europe\/Berln/),
      }),
    ]);
    const environment = parseProperties(
      'x.property.yaml',
      'kind: PolicyProperty\nname: x\nnever: { match: { environment: [a] } }\n',
      {},
      NOW,
    );
    expect(environment.problems).toEqual([
      expect.objectContaining({
        line: 3,
        path: expect.stringMatching(/^never\.match/),
        message: expect.stringMatching(/environment/),
      }),
    ]);
  });

  it('the bundled property file is not loaded as a policy (the loader skips *.property.yaml)', () => {
    const set = setOf(BUNDLED);
    expect(set.bundle.files.some((f) => f.endsWith('.property.yaml'))).toBe(false);
    expect(readFileSync(join(BUNDLED, 'no-payments-prod.property.yaml'), 'utf8')).toMatch(/kind: PolicyProperty/);
  });
});

/** Loosenings of the bundled set that let runs into payments-prod: each is found by diff and breaks the bundled property. */
const SEEDED: Record<string, Record<string, string>> = {
  'the blocking policy removed': { 'blocked-environments.yaml': '', 'blocked-environments.test.yaml': '' },
  'the blocking policy in warn mode': {
    'blocked-environments.yaml': `kind: Policy
name: blocked-environments
mode: warn
rules:
  - environments: { blocked: [payments-prod] }
`,
  },
  'the environment misspelt': {
    'blocked-environments.yaml': `kind: Policy
name: blocked-environments
rules:
  - environments: { blocked: [payments-prd] }
`,
  },
  'a team excluded': {
    'blocked-environments.yaml': `kind: Policy
name: blocked-environments
exclude: { teams: [ADM] }
rules:
  - environments: { blocked: [payments-prod] }
`,
  },
  'CHECK runs excluded': {
    'blocked-environments.yaml': `kind: Policy
name: blocked-environments
exclude: { actionKinds: [CHECK] }
rules:
  - environments: { blocked: [payments-prod] }
`,
  },
  'an exception for one experiment': {
    'gameday.yaml': `kind: Exception
name: gameday
policy: blocked-environments
owner: sre@example.com
reason: gameday CHG-7
expires: "2026-03-09T00:00:00Z"
match: { experimentKeys: ["PAY-*"] }
`,
  },
};

describe('every seeded loosening of the bundled set is found by diff and breaks the property', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const base = setOf(BUNDLED);

  it.each(Object.entries(SEEDED))('%s', (_name, files) => {
    const dir = dirs.bundledWith(files);
    const proposed = setOf(dir);
    const diff = diffSets(base, proposed, NOW);
    const allowed = diff.witnesses.filter((w) => w.kind === 'newly-allowed');
    expect(allowed.length).toBeGreaterThan(0);
    for (const w of allowed) expect([w.base?.allowed, w.proposed?.allowed]).toEqual([false, true]);
    const [prop] = readProperties(dir, proposed.aliases, NOW).properties;
    const result = proveProperty(proposed, prop, NOW);
    expect(result.status).toBe('counterexample');
    expect(result.witness?.answer?.allowed).toBe(true);
  });
});
