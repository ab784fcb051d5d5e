import { parseDenyWhen } from './deny-when';
import { parseMatchers, type Matcher } from './matcher';
import { targetKeysOf } from './placeholder-text';
import { compilePromQuery } from './prom-query';
import type { AlertsCheck } from './alerts-check';
import type { PrometheusCheck } from './prometheus-check';
import { failsOpen, type SignalNeed } from '../facts/signal-need';
import { DEFAULT_SOURCE } from './source-kind';
import { compileDeadMan, DEAD_MAN_SCHEMA, type DeadManSpec } from './dead-man';

/** A problem in a signal rule's spec, with its path inside the rule: thrown by the rule kind as a load error. */
export interface SpecProblem {
  message: string;
  path: string[];
}

const source = {
  type: 'string',
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
  syntax: 'sourceName',
  description: `A source name of the deployment (default "${DEFAULT_SOURCE}": ALERTMANAGER_URL / PROMETHEUS_URL).`,
};
const whenMissing = {
  type: 'string',
  enum: ['deny', 'allow'],
  description:
    'A target of the run without an attribute a {{target.<key>}} placeholder reads, or a step not listing its targets: deny (default, cannot decide) or allow (asked about the values sent).',
};
const onUnavailable = {
  type: 'string',
  enum: ['deny', 'allow'],
  description:
    'When the source cannot answer: deny (default, the run cannot be judged) or allow (said in the message).',
};

export interface AlertsSpec {
  matchers: string | string[];
  source?: string;
  includeSilenced?: boolean;
  includeInhibited?: boolean;
  onUnavailable?: 'deny' | 'allow';
  whenMissing?: 'deny' | 'allow';
  deadMan?: DeadManSpec;
}

export const ALERTS_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['matchers'],
  properties: {
    matchers: {
      description:
        'Alertmanager matchers, all must match: `severity="critical"`, `namespace="{{environment}}"`, `severity=~"critical|page"`, or several in one `{a="b", c!="d"}`.',
      oneOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
      ],
    },
    source,
    includeSilenced: { type: 'boolean', default: false, description: 'Count silenced alerts too.' },
    includeInhibited: { type: 'boolean', default: false, description: 'Count inhibited alerts too.' },
    onUnavailable,
    whenMissing,
    deadMan: DEAD_MAN_SCHEMA,
  },
};

const NO_TARGET_PLACEHOLDER = 'whenMissing is about targets: it only applies with a {{target.<attribute>}} placeholder';

/** A compiled signal rule: its check, what it needs gathered, and the target attributes its placeholders read. */
export interface CompiledSignalSpec<Check> {
  check: Check;
  needs: SignalNeed[];
  targetKeys: string[];
}

export function compileAlertsSpec(spec: AlertsSpec): CompiledSignalSpec<AlertsCheck> | SpecProblem {
  const texts = typeof spec.matchers === 'string' ? [spec.matchers] : spec.matchers;
  const matchers: Matcher[] = [];
  for (const [i, text] of texts.entries()) {
    const parsed = parseMatchers(text);
    if (typeof parsed === 'string')
      return { message: parsed, path: typeof spec.matchers === 'string' ? ['matchers'] : ['matchers', String(i)] };
    matchers.push(...parsed);
  }
  const targetKeys = [...new Set(matchers.flatMap((m) => targetKeysOf(m.value)))];
  if (spec.whenMissing !== undefined && targetKeys.length === 0)
    return { message: NO_TARGET_PLACEHOLDER, path: ['whenMissing'] };
  const deadMan = deadManOf(spec);
  if (deadMan && 'message' in deadMan) return deadMan;
  const name = spec.source ?? DEFAULT_SOURCE;
  return {
    targetKeys,
    check: {
      source: name,
      ...(deadMan ? { deadMan } : {}),
      matchers,
      includeSilenced: spec.includeSilenced ?? false,
      includeInhibited: spec.includeInhibited ?? false,
      onUnavailable: spec.onUnavailable ?? 'deny',
    },
    needs: [{ kind: 'alerts', source: name, ...failsOpen(spec.onUnavailable) }],
  };
}

export interface PrometheusSpec {
  query: string;
  denyWhen?: string;
  onEmpty?: 'allow' | 'deny';
  reason?: string;
  source?: string;
  onUnavailable?: 'deny' | 'allow';
  whenMissing?: 'deny' | 'allow';
  deadMan?: DeadManSpec;
}

export const PROMETHEUS_SPEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      description: 'PromQL instant query; placeholders such as {{environment}} inside double-quoted label values.',
    },
    denyWhen: {
      type: 'string',
      description: 'Deny when a sample compares true, e.g. "> 0.02"; absent: deny when the result has any sample.',
    },
    onEmpty: {
      type: 'string',
      enum: ['allow', 'deny'],
      default: 'allow',
      description: 'An empty (or NaN-only) result: allow (default) or deny (cannot decide).',
    },
    reason: {
      type: 'string',
      minLength: 1,
      description: 'Said first when the rule denies, e.g. "the error budget burns too fast".',
    },
    source,
    onUnavailable,
    whenMissing,
    deadMan: DEAD_MAN_SCHEMA,
  },
};

/** The rule's `deadMan`, compiled, if it has one (or why it cannot be). */
function deadManOf(spec: { deadMan?: DeadManSpec; onUnavailable?: 'deny' | 'allow'; onEmpty?: 'allow' | 'deny' }) {
  return spec.deadMan === undefined ? undefined : compileDeadMan(spec.deadMan, spec);
}

export function compilePrometheusSpec(spec: PrometheusSpec): CompiledSignalSpec<PrometheusCheck> | SpecProblem {
  const query = compilePromQuery(spec.query);
  if (typeof query === 'string') return { message: query, path: ['query'] };
  const denyWhen = spec.denyWhen === undefined ? undefined : parseDenyWhen(spec.denyWhen);
  if (typeof denyWhen === 'string') return { message: denyWhen, path: ['denyWhen'] };
  const targetKeys = [...new Set(targetKeysOf(query.text))];
  if (spec.whenMissing !== undefined && targetKeys.length === 0)
    return { message: NO_TARGET_PLACEHOLDER, path: ['whenMissing'] };
  const deadMan = deadManOf(spec);
  if (deadMan && 'message' in deadMan) return deadMan;
  const name = spec.source ?? DEFAULT_SOURCE;
  return {
    targetKeys,
    check: {
      source: name,
      ...(deadMan ? { deadMan } : {}),
      query,
      denyWhen,
      onEmpty: spec.onEmpty ?? 'allow',
      onUnavailable: spec.onUnavailable ?? 'deny',
      reason: spec.reason,
    },
    needs: [{ kind: 'prometheus', source: name, query: spec.query, ...failsOpen(spec.onUnavailable) }],
  };
}
