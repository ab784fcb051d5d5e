import request from 'supertest';
import { NO_PLATFORM } from '../../src/guard/run-guard';
import { createLogger } from '../../src/common/logger';
import type { Capability } from '../../src/service/capability';
import { checkNeeds, checkNeedsAtStart, LackingNeedError } from '../../src/service/check-needs';
import { capturingLogger } from '../helpers/capturing-logger';
import { serviceCapabilities, type ServiceParts } from '../../src/service/service-capabilities';
import type { GuardrailState } from '../../src/state/guardrail-state';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { USES_NOT_KEPT } from '../../src/state/uncounted-exception-uses';
import { Registry } from 'prom-client';
import { serviceSignalSource } from '../../src/signals/service-signal-source';
import { UNCONFIGURED_FAIL_OPEN_ERROR, UNCONFIGURED_SOURCES_WARNING } from '../../src/signals/unconfigured-sources';
import type { EnvironmentDirectory } from '../../src/platform/environment-directory';
import type { TeamDirectory } from '../../src/platform/team-directory';
import { bundleFrom } from '../helpers/bundle-from';
import { testApp } from '../helpers/test-app';

const GUARDED =
  'kind: Policy\nname: business-hours\nwhileRunning: true\nrules:\n  - timeWindow: { timeZone: UTC, allowed: [{ from: "00:00", to: "24:00" }] }\n';
const COUNTED =
  'kind: Exception\nname: once\npolicy: business-hours\nowner: jane\nreason: game day\nexpires: "2026-01-05T12:00:00Z"\nmaxUses: 2\nmatch: { experimentKeys: [ADM-1] }\n';

const TEAMS =
  'kind: Policy\nname: sre-only\nmatch: { createdByTeams: [SRE] }\nrules:\n  - actions: { blocked: ["*"] }\n';

const logger = createLogger('error', { silent: true });
const HEALTH = { guardedPolicies: 1, canStop: false, intervalSeconds: 15, stops: 0 } as const;
const guard = { keep: () => undefined, health: () => HEALTH };
const state = (keepsExceptionUses?: boolean): GuardrailState => ({
  store: new MemoryStateStore({ executionTtlMs: 3_600_000, eventToleranceMs: 900_000 }),
  onUnavailable: 'deny',
  emergencyStop: 'enforce',
  eventToleranceMs: 900_000,
  keepsExceptionUses,
});
// Never asked here: the platform only has to be there.
const platform = (cancels: boolean): ServiceParts['platform'] => ({
  directory: {} as EnvironmentDirectory,
  cancels,
});
const lacking = (parts: ServiceParts, files: Record<string, string>) =>
  checkNeeds(serviceCapabilities(parts, logger), bundleFrom(files)).map((l) => [l.capability, l.lacking, l.message]);

describe('what a policy set needs of the service, decided in one place (checkNeeds)', () => {
  it('a policy guarding runs in progress needs a Platform API that cancels', () => {
    const files = { 'p.yaml': GUARDED };
    const warning = `guard: policies ask to guard runs in progress, but ${NO_PLATFORM}`;
    expect(lacking({ guard }, files)).toEqual([['guard', 'warning', warning]]);
    expect(lacking({ guard, platform: platform(false) }, files)).toEqual([['guard', 'warning', warning]]);
    expect(lacking({ guard, platform: platform(true) }, files)).toEqual([]);
    expect(lacking({ guard }, { 'p.yaml': GUARDED.replace('whileRunning: true\n', '') })).toEqual([]);
  });

  it('an exception with maxUses needs exception uses counted where they last', () => {
    const files = { 'p.yaml': GUARDED, 'e.yaml': COUNTED };
    const warning = `exceptions with maxUses do not waive any run: ${USES_NOT_KEPT}`;
    expect(lacking({ state: state(false) }, files)).toEqual([['approvals', 'warning', warning]]);
    expect(lacking({ state: state(true) }, files)).toEqual([]);
    expect(lacking({ state: state(false) }, { 'p.yaml': GUARDED })).toEqual([]);
    const [need] = checkNeeds(serviceCapabilities({ state: state(false) }, logger), bundleFrom(files));
    expect(need?.asked).toEqual({ exceptions: ['once'] });
  });

  it("a policy reading Steadybit's team members needs a Platform API that reads them", () => {
    const files = { 'p.yaml': TEAMS };
    const warning = expect.stringContaining("policies read Steadybit's team members");
    expect(lacking({}, files)).toEqual([['policies', 'warning', warning]]);
    expect(lacking({ platform: platform(true) }, files)).toEqual([['policies', 'warning', warning]]);
    expect(lacking({ platform: { directory: {} as EnvironmentDirectory, teams: {} as TeamDirectory } }, files)).toEqual(
      [],
    );
    expect(lacking({}, { 'p.yaml': GUARDED })).toEqual([]);
    const [need] = checkNeeds(serviceCapabilities({}, logger), bundleFrom(files));
    expect(need?.asked).toEqual({ needs: [{ kind: 'team-members', team: 'SRE' }] });
  });

  it('a rule of a signal source the deployment does not configure is lacking in /readyz, not logged twice', () => {
    const signals = serviceSignalSource(
      { sources: [], cacheTtlMs: 0, timeoutMs: 1000 },
      { registry: new Registry(), logger },
    );
    const files = {
      'p.yaml':
        'kind: Policy\nname: eu\nrules:\n  - alerts: { matchers: \'severity="critical"\', source: eu }\n  - alerts: { matchers: \'severity="page"\', source: us, onUnavailable: allow }\n',
    };
    const needs = checkNeeds(serviceCapabilities({ signals }, logger), bundleFrom(files));
    expect(needs.map((n) => [n.capability, n.feature, n.message, n.asked])).toEqual([
      ['signals', 'signal-sources', UNCONFIGURED_SOURCES_WARNING, { sources: ['alertmanager "eu"'] }],
      ['signals', 'signal-sources', UNCONFIGURED_FAIL_OPEN_ERROR, { sources: ['alertmanager "us"'] }],
    ]);
    expect(lacking({ signals }, { 'p.yaml': GUARDED })).toEqual([]);
    // The signal source says these itself at start-up and when a reload first asks one: not again here.
    const { logger: start, lines } = capturingLogger();
    checkNeedsAtStart(serviceCapabilities({ signals }, logger), bundleFrom(files), start);
    expect(lines).toEqual([]);
  });

  it('no policy set loaded needs nothing', () => {
    expect(checkNeeds(serviceCapabilities({ guard }, logger), undefined)).toEqual([]);
  });
});

describe('checkNeedsAtStart', () => {
  const needing = (lacking: 'error' | 'warning'): Capability => ({
    name: 'signals',
    provides: [],
    needs: [
      {
        feature: 'archive',
        asks: (b) => ({ policies: b.policies.length }),
        lacking,
        message: `no archive (${lacking})`,
      },
    ],
  });

  it('logs a warning need with what asked for it, and starts', () => {
    const { logger, lines } = capturingLogger();
    checkNeedsAtStart([needing('warning')], bundleFrom({ 'p.yaml': GUARDED }), logger);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', message: 'no archive (warning)', policies: 1 })]);
  });

  it('refuses to start on an error need, naming it', () => {
    const { logger } = capturingLogger();
    const start = () => checkNeedsAtStart([needing('error')], bundleFrom({ 'p.yaml': GUARDED }), logger);
    expect(start).toThrow(LackingNeedError);
    expect(start).toThrow('the policy set needs what this service lacks: no archive (error)');
  });

  it('is satisfied by a capability that provides the feature', () => {
    const { logger, lines } = capturingLogger();
    const archive: Capability = { name: 'archive', provides: ['archive'], needs: [] };
    checkNeedsAtStart([needing('error'), archive], bundleFrom({ 'p.yaml': GUARDED }), logger);
    expect(lines).toEqual([]);
  });
});

describe('/readyz reports the capabilities from the same declarations', () => {
  it('lists the capabilities present, in order, each readiness under its name, and what the set lacks', async () => {
    const { app } = testApp(bundleFrom({ 'p.yaml': GUARDED }), { state: state(true), guard });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.capabilities).toEqual(['policies', 'state', 'guard', 'approvals']);
    expect(res.body.state).toMatchObject({ store: 'memory', available: true, onUnavailable: 'deny' });
    expect(res.body.guard).toEqual(HEALTH);
    expect(res.body.lacking).toEqual([
      {
        capability: 'guard',
        feature: 'cancel-runs',
        lacking: 'warning',
        message: `guard: policies ask to guard runs in progress, but ${NO_PLATFORM}`,
        asked: { policies: ['business-hours'] },
      },
    ]);
  });

  it('says nothing is lacking, and shows only the policies, for a bare gate', async () => {
    const res = await request(testApp(bundleFrom({ 'p.yaml': GUARDED })).app).get('/readyz');
    expect(res.body.capabilities).toEqual(['policies']);
    expect(res.body).not.toHaveProperty('lacking');
    expect(res.body).not.toHaveProperty('state');
  });
});
