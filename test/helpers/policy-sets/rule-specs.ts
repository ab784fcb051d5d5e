import type { Rng } from './rng';
import { ACTION_GLOBS } from './universe';

/**
 * A realistic spec per rule kind, keyed by the kind's YAML name. The benchmark uses the kinds that
 * are registered when it runs and have an entry here (state kinds meet the server's empty memory
 * store: no events are sent). Every spec is checked by loading it before use (check-rule-specs.ts),
 * so a changed schema shows up as a note.
 * Time-dependent specs never change their answer during a run (a far-future freeze, an all-week window).
 */
export const RULE_SPECS: Record<string, (rng: Rng) => unknown> = {
  environments: (rng) =>
    rng.pick([
      { blocked: ['production'] },
      { blocked: ['payments-prod', 'eu-prod'] },
      { allowed: ['dev', 'qa', 'staging', 'sandbox'] },
    ]),
  actions: (rng) =>
    rng.pick([
      { blocked: [rng.pick(ACTION_GLOBS)] },
      { blockedKinds: ['LOAD_TEST'] },
      { allowed: ['com.steadybit.extension_container.*', 'com.steadybit.extension_http.*'] },
    ]),
  targets: (rng) => ({ maxPerStep: rng.int(5, 50), maxPercentage: rng.pick([50, 80, 100]) }),
  blastRadius: (rng) => rng.pick([{ forbidValues: { 'k8s.namespace': ['kube-system'] } }, { denyUnscoped: true }]),
  targetAttributes: (rng) => ({
    forbid: { 'container.engine': [rng.pick(['cri-o', 'podman'])] },
    whenMissing: 'allow',
  }),
  timeWindow: (rng) => ({
    timeZone: rng.pick(['Europe/Berlin', 'America/New_York', 'UTC']),
    allowed: [{ days: ['Mon-Sun'], from: '00:00', to: '24:00' }],
    deny: [{ name: 'year-end freeze', start: '2040-12-20', end: '2041-01-03' }],
  }),
  condition: (rng) => ({
    deny: { '>': [{ var: 'targets.total' }, rng.int(20, 200)] },
    reason: 'too many targets for one run',
  }),
  parameters: (rng) => ({
    duration: { max: rng.pick(['5m', '10m']) },
    cpuLoad: { min: rng.int(1, 10), max: 100, whenMissing: 'allow' },
  }),
  concurrency: (rng) => ({ maxRunning: rng.int(1, 5), per: rng.pick(['environment', 'team']) }),
  cooldown: (rng) => ({ duration: rng.pick(['30m', '2h']), per: 'environment' }),
  quota: (rng) => ({ maxRuns: rng.int(10, 100), window: '1d', per: 'team' }),
};

/** Registered kinds the generated sets leave out on purpose, and why. */
export const LEFT_OUT: Record<string, string> = {
  emergencyStop: 'one organisation-wide switch (a built-in policy), not a rule thousands of policies repeat',
  alerts:
    'reads live Alertmanager answers (signal facts) the engine benchmark does not gather; its check filters the recorded alerts',
  perGroup:
    'added after the generated sets were recorded (a new kind would change them and test/policy/decisions-unchanged.test.ts); the target-scaling stage of the benchmark measures it on 10,000 targets',
  noMuting:
    'added after the generated sets were recorded (a new kind would change them and test/policy/decisions-unchanged.test.ts); its check is a glob match per step, as `actions`',
  json: 'reads live JSON answers (signal facts) the engine benchmark does not gather; its check runs json-logic on the recorded answers',
  prometheus:
    'reads live Prometheus answers (signal facts) the engine benchmark does not gather; its check compares the recorded samples',
};
