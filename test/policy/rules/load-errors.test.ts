import { formatProblem } from '../../../src/policy/compile/load-error';
import { problemsOf } from '../../helpers/decide-harness';

/** A policy whose rule is written in block YAML from line 4 on; `rule` lines are indented by 4. */
const policy = (rule: string) => `kind: Policy\nname: p\nrules:\n  - ${rule.trim().split('\n').join('\n    ')}\n`;

describe('load-time errors of the step and target rule kinds, located as file:line:col', () => {
  test.each([
    [
      'a duration bound that is not a duration',
      'parameters:\n  duration:\n    max: 5 minutes',
      'policies/p.yaml:6:14 rules[0].parameters.duration.max: duration.max "5 minutes" is not a duration; use units ms, s, m, h, d as in 500ms, 30s, 5m, 1h30m',
    ],
    [
      'a string bound without a unit',
      'parameters:\n  cpuLoad:\n    max: "80"',
      'policies/p.yaml:6:14 rules[0].parameters.cpuLoad.max: cpuLoad.max "80" has no unit: write a number (80) or a duration such as 80s',
    ],
    [
      'min above max',
      'parameters:\n  cpuLoad:\n    min: 90\n    max: 80',
      'policies/p.yaml:6:14 rules[0].parameters.cpuLoad.min: parameter cpuLoad: min 90 is larger than max 80',
    ],
    [
      'a number mixed with a duration',
      'parameters:\n  duration:\n    min: 1\n    max: 5m',
      'policies/p.yaml:6:9 rules[0].parameters.duration: parameter duration mixes a number and a duration; write both bounds as durations (e.g. 500ms) or both as numbers',
    ],
    [
      'a limit without bounds',
      'parameters:\n  cpuLoad:\n    whenMissing: allow',
      'policies/p.yaml:6:9 rules[0].parameters.cpuLoad: parameter cpuLoad needs min or max',
    ],
    [
      'an unknown field in a limit',
      'parameters:\n  cpuLoad:\n    maximum: 80',
      'policies/p.yaml:6:9 rules[0].parameters.cpuLoad.maximum: maximum is not a known field (known fields: min, max, whenMissing)',
    ],
    [
      'maxPerStep above maxTotal',
      'targets:\n  maxPerStep: 20\n  maxTotal: 10',
      'policies/p.yaml:5:19 rules[0].targets.maxPerStep: maxPerStep 20 is larger than maxTotal 10; a single step could never use it',
    ],
    [
      'the same inside perType',
      'targets:\n  perType:\n    "*container*":\n      maxPerStep: 5\n      maxTotal: 2',
      'policies/p.yaml:7:23 rules[0].targets.perType.*container*.maxPerStep: maxPerStep 5 is larger than maxTotal 2; a single step could never use it',
    ],
    [
      'a targets rule that checks nothing',
      'targets:\n  requireMaximum: false',
      'policies/p.yaml:5:7 rules[0].targets: the rule checks nothing: set a cap, maxPercentage, requireMaximum: true or denyEmpty: true',
    ],
    [
      'a percentage above 100',
      'targets:\n  maxPercentage: 150',
      'policies/p.yaml:5:22 rules[0].targets.maxPercentage: must be <= 100',
    ],
    ['a negative cap', 'targets:\n  maxTotal: -1', 'policies/p.yaml:5:17 rules[0].targets.maxTotal: must be >= 0'],
    [
      'an action both blocked and allowed',
      'actions:\n  blocked: ["*shutdown*"]\n  allowed: ["*SHUTDOWN*"]',
      'policies/p.yaml:6:16 rules[0].actions.allowed: action "*shutdown*" is both blocked and allowed',
    ],
    [
      'an unknown action kind',
      'actions:\n  allowedKinds: [ATACK]',
      'policies/p.yaml:5:22 rules[0].actions.allowedKinds[0]: must be one of ATTACK, CHECK, LOAD_TEST, OTHER, BASIC, got "ATACK": did you mean "ATTACK"?',
    ],
    [
      'an empty action list',
      'actions:\n  blocked: []',
      'policies/p.yaml:5:16 rules[0].actions.blocked: must NOT have fewer than 1 items',
    ],
    [
      'an unknown actions field',
      'actions:\n  deny: ["*"]',
      'policies/p.yaml:5:7 rules[0].actions.deny: deny is not a known field (known fields: blocked, allowed, blockedKinds, allowedKinds)',
    ],
    [
      'an unknown onUnknownShape',
      'blastRadius:\n  denyUnscoped: true\n  onUnknownShape: allow',
      'policies/p.yaml:6:23 rules[0].blastRadius.onUnknownShape: must be one of deny, ignore, got "allow"',
    ],
    [
      'a blastRadius rule that checks nothing',
      'blastRadius:\n  onUnknownShape: ignore',
      'policies/p.yaml:5:7 rules[0].blastRadius: the rule checks nothing: set requireKeys, forbidValues or denyUnscoped: true',
    ],
    [
      'an empty requireKeys',
      'blastRadius:\n  requireKeys: []',
      'policies/p.yaml:5:20 rules[0].blastRadius.requireKeys: must NOT have fewer than 1 items',
    ],
    [
      'an empty forbidden value list',
      'blastRadius:\n  forbidValues:\n    k8s.namespace: []',
      'policies/p.yaml:6:24 rules[0].blastRadius.forbidValues.k8s.namespace: must NOT have fewer than 1 items',
    ],
    [
      'a value both forbidden and allowed',
      'targetAttributes:\n  forbid: {k8s.namespace: [kube-system]}\n  allowOnly:\n    k8s.namespace: [shop, kube-system]',
      'policies/p.yaml:7:24 rules[0].targetAttributes.allowOnly.k8s.namespace: k8s.namespace=kube-system is both forbidden and allowed',
    ],
    [
      'an unknown whenMissing',
      'targetAttributes:\n  forbid: {k8s.namespace: [kube-system]}\n  whenMissing: maybe',
      'policies/p.yaml:6:20 rules[0].targetAttributes.whenMissing: must be one of deny, allow, got "maybe"',
    ],
    [
      'a targetAttributes rule that checks nothing',
      'targetAttributes:\n  whenMissing: allow',
      'policies/p.yaml:5:7 rules[0].targetAttributes: the rule checks nothing: set forbid or allowOnly',
    ],
  ])('%s', (_name, rule, expected) => {
    const problems = problemsOf(policy(rule)).filter((p) => p.severity === 'error');
    expect(problems.map(formatProblem)).toEqual([expected]);
  });
});
