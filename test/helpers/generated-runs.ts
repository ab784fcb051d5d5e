import type { PreflightPayload, Step, WebhookPayload } from '../../src/payload/types';
import type { Rng } from './policy-sets/rng';

/**
 * Deterministic generators of policy sets, preflight payloads and state events for tests that need
 * many varied decisions (replay exactness). A small seeded PRNG (mulberry32): the same seed gives
 * the same runs on every machine (seededRng, policy-sets/rng.ts).
 */
export const TEAMS = ['ADM', 'SHOP', 'PAY'];
export const ENVIRONMENTS = ['prod', 'staging', 'dev', '32009f6e-ff90-47a5-8daa-80f4bb7ae591'];
const ACTIONS = [
  ['com.steadybit.extension_container.stress_cpu', 'ATTACK'],
  ['com.steadybit.extension_container.network_delay', 'ATTACK'],
  ['com.steadybit.extension_host.shutdown', 'ATTACK'],
  ['com.steadybit.extension_http.check', 'CHECK'],
  ['com.steadybit.extension_k6.run', 'LOAD_TEST'],
] as const;
const CONTAINER = 'com.steadybit.extension_container.container';
const NAMESPACES = ['shop', 'payments', 'kube-system', 'default'];
const ENGINES = ['docker', 'containerd', 'cri-o'];

/** Rule specs of every kind, a few variants each (state kinds too). */
const RULES: Array<(r: Rng) => unknown> = [
  (r) => ({
    environments: r.pick([{ blocked: ['prod'] }, { allowed: ['dev', 'staging'] }, { blocked: ['staging', 'dev'] }]),
  }),
  (r) => ({ actions: r.pick([{ blocked: ['com.steadybit.extension_host.*'] }, { blockedKinds: ['LOAD_TEST'] }]) }),
  (r) => ({ targets: { maxPerStep: r.int(2, 8), maxPercentage: r.pick([30, 50, 80]) } }),
  (r) => ({ blastRadius: r.pick([{ forbidValues: { 'k8s.namespace': ['kube-system'] } }, { denyUnscoped: true }]) }),
  (r) => ({
    targetAttributes: r.pick([
      { forbid: { 'k8s.namespace': ['kube-system'] }, whenMissing: 'allow' },
      { allowOnly: { 'container.engine': ['docker', 'containerd'] } },
    ]),
  }),
  (r) => ({
    timeWindow: {
      timeZone: r.pick(['Europe/Berlin', 'UTC', 'America/New_York']),
      allowed: [{ days: ['Mon-Fri'], from: r.pick(['08:00', '09:00']), to: r.pick(['17:00', '18:30']) }],
    },
  }),
  (r) => ({
    condition: { deny: { '>': [{ var: 'targets.total' }, r.int(3, 12)] }, reason: 'too many targets for one run' },
  }),
  (r) => ({
    parameters: { duration: { max: r.pick(['20s', '1m']) }, cpuLoad: { max: r.pick([50, 90]), whenMissing: 'allow' } },
  }),
  (r) => ({ concurrency: { maxRunning: r.int(1, 3), per: r.pick(['environment', 'team']) } }),
  (r) => ({
    cooldown: { after: ['FAILED', 'ERRORED'], duration: r.pick(['10m', '1h']), per: r.pick(['environment', 'team']) },
  }),
  (r) => ({ quota: { maxRuns: r.int(3, 20), window: r.pick(['1h', '1d']), per: r.pick(['team', 'environment']) } }),
  () => ({ emergencyStop: {} }),
];

const MESSAGES = [
  '{{reason}}',
  '{{reason}} ({{experimentKey}} in {{environment}}, decided {{now}}, id {{decisionId}}, revision {{revision}})',
  'Run {{executionId}} of team {{team}} is blocked: {{reason}}',
];

/** A policy set of `count` policies (one file each), every rule kind, mode, scope and placeholder used. */
export function generatedPolicies(r: Rng, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const rules = Array.from({ length: r.int(1, 2) }, () => r.pick(RULES)(r));
    const mode = r.chance(0.07) ? 'enforce' : r.pick(['warn', 'audit']);
    const doc: Record<string, unknown> = {
      kind: 'Policy',
      name: `policy-${i}`,
      mode,
      priority: r.int(0, 1000),
      rules,
      message: r.pick(MESSAGES),
    };
    // Enforcing policies are scoped, so about half of the runs are allowed.
    if (mode === 'enforce' || r.chance(0.6))
      doc.match = r.pick([
        { environments: [r.pick(ENVIRONMENTS)] },
        { teams: [r.pick(TEAMS)] },
        { createdVia: ['API', 'SCHEDULE'] },
        { environments: [r.pick(ENVIRONMENTS)], teams: [r.pick(TEAMS)] },
      ]);
    if (r.chance(0.15))
      doc.modifications = [
        {
          type: 'set_property_value',
          propertyKey: `guard.${r.pick(['note', 'decision', 'owner'])}`,
          value: r.pick(['{{decisionId}}', 'checked at {{now}}', '{{revision}}']),
        },
      ];
    files[`policy-${i}.yaml`] = JSON.stringify(doc, null, 1);
  }
  files['exceptions.yaml'] = JSON.stringify({
    kind: 'Exception',
    name: 'shop-waiver',
    policy: 'policy-0',
    owner: 'sre',
    reason: 'game day',
    expires: '2026-01-08T00:00:00Z',
    match: { teams: ['SHOP'] },
  });
  return files;
}

function step(r: Rng): Step {
  const [actionId, actionKind] = r.pick(ACTIONS);
  const count = r.int(0, 4);
  const targets = Array.from({ length: count }, (_, i) => ({
    type: CONTAINER,
    name: `container-${r.int(1, 50)}-${i}`,
    attributes: [
      { key: 'k8s.namespace', value: r.pick(NAMESPACES) },
      { key: 'container.engine', value: r.pick(ENGINES) },
      ...(r.chance(0.5) ? [{ key: 'host.hostname', value: `node-${r.int(1, 5)}` }] : []),
    ],
  }));
  const predicate = r.chance(0.6)
    ? { operator: 'AND', predicates: [{ key: 'k8s.namespace', operator: 'EQUALS', values: [r.pick(NAMESPACES)] }] }
    : undefined;
  return {
    actionId,
    actionKind,
    parameters: { duration: r.pick(['10s', '30s', '2m']), ...(r.chance(0.5) ? { cpuLoad: r.int(10, 100) } : {}) },
    radius: { targetType: CONTAINER, percentage: r.int(10, 100), ...(predicate ? { predicate } : {}) },
    ...(r.chance(0.8) ? { targetExecutions: targets } : {}),
    ...(r.chance(0.7) ? { totalTargetCount: count + r.int(0, 10) } : {}),
  };
}

/** The run with execution id `id`, as Steadybit would ask about it. */
export function generatedPayload(r: Rng, id: number, time: number): PreflightPayload {
  const steps: Step[] = Array.from({ length: r.int(1, 3) }, () => step(r));
  if (r.chance(0.2)) steps.unshift({ stepType: 'WAIT', parameters: { duration: '5s' } });
  return {
    event: 'experiment.execution.preflight',
    time: new Date(time).toISOString(),
    execution: {
      id,
      experimentKey: `${r.pick(TEAMS)}-${r.int(1, 30)}`,
      teamKey: r.pick(TEAMS),
      environment: r.pick(ENVIRONMENTS),
      name: `generated run ${id}`,
      createdVia: r.pick(['UI', 'UI', 'API', 'SCHEDULE']),
      state: 'CREATED',
      steps,
    },
  };
}

/** The emergency stop as the generated events left it: the engagement in force, if any. */
export interface StopState {
  engaged?: string;
}

/**
 * A state event that may come between preflights: a run created or ended, the emergency stop
 * engaged, or disengaged (naming the engagement in force, as Steadybit does).
 */
export function generatedEvent(r: Rng, id: number, time: number, stop: StopState): WebhookPayload {
  const iso = new Date(time).toISOString();
  if (stop.engaged === undefined && r.chance(0.03)) {
    stop.engaged = iso;
    return { event: 'killswitch.engaged', time: iso, killswitch: { engagedBy: 'jane', engaged: iso } };
  }
  if (stop.engaged !== undefined && stop.engaged < iso && r.chance(0.25)) {
    const engaged = stop.engaged;
    stop.engaged = undefined;
    return {
      event: 'killswitch.disengaged',
      time: iso,
      killswitch: { engagedBy: 'jane', engaged, disengagedBy: 'joe', disengaged: iso },
    };
  }
  const event = r.pick(['created', 'created', 'completed', 'failed', 'errored', 'canceled']);
  return {
    event: `experiment.execution.${event}`,
    time: iso,
    execution: {
      id,
      experimentKey: 'ADM-1',
      teamKey: r.pick(TEAMS),
      environment: r.pick(ENVIRONMENTS),
      state: event.toUpperCase(),
    },
  };
}
