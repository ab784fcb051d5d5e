import { RuleSpecError, defineRule } from '../core/rule-kind';
import type { Checked } from '../core/checked';
import type { EvaluationContext } from '../core/evaluation-context';
import { DURATION_WITH_UNITS_PATTERN, parseDuration } from '../../syntax/duration';
import { humanDuration } from '../../syntax/human-duration';
import {
  END_STATES,
  HISTORY_MS,
  SERVICE_KEYS,
  type EndState,
  type RunRef,
  type ScopeKind,
  type StateNeed,
} from '../facts/state-facts';
import { ENVIRONMENT_NAMES } from '../facts/environment-facts';
import { fillsEnvironment } from '../signals/placeholder-text';
import { noScopes, otherRuns, runScopes } from './run-scopes';
import { iso, notLoaded, stateFact } from './state-fact';
import { compileUntil, UNTIL_SCHEMA, type CompiledUntil, type UntilSpec } from './cooldown-until';
import { serviceScopesOf, type ServiceScope } from './service-scopes';
import { runValuesOf } from './signal-run-values';
import type { ActionStepRef, SignalRead, Violation } from '../core/decision';

interface Spec {
  after?: EndState[];
  duration?: string;
  per?: ScopeKind | 'service';
  by?: string;
  until?: UntilSpec[];
  atMost?: string;
  whenMissing?: 'deny' | 'allow';
}

const duration = (description: string) => ({
  type: 'string',
  pattern: DURATION_WITH_UNITS_PATTERN,
  syntax: 'duration',
  description,
});

/** How long a cool-down with `until` lasts at most, unless `atMost` says. */
const DEFAULT_AT_MOST_MS = 86_400_000;

/** A scope of the run, and (per service) the run values its signals are filled with. */
interface Scope {
  key: string;
  label: string;
  service?: ServiceScope;
}

/**
 * `- cooldown: {after: [FAILED, ERRORED], duration: 30m, per: environment}`: no run in an
 * environment (or team, or on an attacked service) until `duration` has passed since its last run
 * that ended in one of the `after` states, and, with `until`, until the signals show that run's
 * targets recovered (at most `atMost`). The run being preflighted never counts against itself (an
 * end already recorded under its own execution id is a replay or a clock skew, not an earlier run).
 */
export const cooldownRule = defineRule<Spec>({
  key: 'cooldown',
  description:
    'Pause runs in an environment, team or on an attacked service after a run there ended FAILED or ERRORED: for a while, and/or until signals show its targets recovered (state from POST /events).',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      after: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', enum: [...END_STATES] },
        default: ['FAILED', 'ERRORED'],
      },
      duration: duration('e.g. 30m, 2h, 1d (at most 31d): at least this long after the run ended'),
      per: { type: 'string', enum: ['environment', 'team', 'service'], default: 'environment' },
      by: {
        type: 'string',
        enum: [...SERVICE_KEYS],
        description:
          'With per: service, the target attribute that names the attacked service (default k8s.deployment).',
      },
      until: UNTIL_SCHEMA,
      atMost: duration('With until: the longest the cool-down lasts, recovered or not (default 1d, at most 31d).'),
      whenMissing: {
        type: 'string',
        enum: ['deny', 'allow'],
        description:
          'With per: service, a target without the `by` attribute (or a step not listing its targets): deny (default, cannot decide) or allow.',
      },
    },
  },
  compile(spec) {
    if (spec.duration === undefined && spec.until === undefined)
      throw new RuleSpecError('a cool-down needs duration, until, or both: how long, or until what recovers', []);
    const durationMs = spec.duration === undefined ? 0 : windowOf(spec.duration, 'duration');
    const atMostMs = spec.until && spec.atMost !== undefined ? windowOf(spec.atMost, 'atMost') : DEFAULT_AT_MOST_MS;
    if (!spec.until && spec.atMost !== undefined)
      throw new RuleSpecError('atMost bounds a cool-down until recovered: it only applies with until', ['atMost']);
    const per = spec.per ?? 'environment';
    if (per !== 'service' && spec.by !== undefined)
      throw new RuleSpecError('by names the attacked service: it only applies with per: service', ['by']);
    if (per !== 'service' && spec.whenMissing !== undefined)
      throw new RuleSpecError('whenMissing is about targets: it only applies with per: service', ['whenMissing']);
    const by = spec.by ?? SERVICE_KEYS[0];
    const until = spec.until ? untilOf(spec.until, per, by) : undefined;
    if (until && atMostMs < durationMs)
      throw new RuleSpecError(`atMost (${spec.atMost}) is shorter than duration (${spec.duration})`, ['atMost']);
    const after = new Set<EndState>(spec.after ?? ['FAILED', 'ERRORED']);
    const windowMs = until ? Math.max(durationMs, atMostMs) : durationMs;
    const ended: StateNeed =
      per === 'service' ? { kind: 'ended', per, attribute: by, windowMs } : { kind: 'ended', per, windowMs };
    const environments = until?.texts.some(fillsEnvironment) ? [ENVIRONMENT_NAMES] : [];
    return {
      needs: [ended, ...(until?.needs ?? []), ...environments],
      check: ({ ctx, steps }): Checked => {
        const endedRuns = stateFact(ctx, 'ended');
        if (!endedRuns) return { found: [notLoaded('ended executions')] };
        const scopes = scopesOf(ctx, steps, per, by, spec.whenMissing);
        if (!('list' in scopes)) return { found: scopes.blind };
        const since = ctx.now.getTime() - windowMs;
        const found: Violation[] = [];
        const read: SignalRead[] = [];
        for (const scope of scopes.list) {
          const last = otherRuns(endedRuns[scope.key], ctx)
            .filter((r) => r.state !== undefined && after.has(r.state) && r.atMs >= since)
            .at(-1);
          if (!last) continue;
          const left = last.atMs + durationMs - ctx.now.getTime();
          if (left > 0) {
            found.push({ reason: coolingText(scope, last, durationMs, until !== undefined), value: last.id });
            continue;
          }
          if (!until) continue;
          const runs = scope.service ? scope.service.runs : runValuesOf(ctx);
          const checked = until.check(ctx.facts.signals, runs, last.atMs, ctx.now);
          read.push(...(checked.read ?? []));
          found.push(...checked.found.map((v) => notRecovered(scope, last, v, atMostMs)));
        }
        const all = [...scopes.blind, ...found];
        // Only a cool-down that asked its signals lists what it read (explanations).
        return read.length === 0 ? { found: all } : { found: all, read };
      },
    };
  },
});

function windowOf(text: string, field: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0 || ms > HISTORY_MS)
    throw new RuleSpecError(`${field} must be more than 0 and at most 31d, got "${text}"`, [field]);
  return ms;
}

/**
 * The signals of `until`, compiled. A `{{target.<key>}}` placeholder is filled with the attacked
 * service the scope shares with the last run, so only `per: service` with the same key can judge
 * the last run's targets; elsewhere it would judge this run's targets, which is refused.
 */
function untilOf(specs: UntilSpec[], per: ScopeKind | 'service', by: string): CompiledUntil {
  const compiled = compileUntil(specs);
  if ('message' in compiled) throw new RuleSpecError(compiled.message, compiled.path);
  const other = compiled.targetKeys.find((k) => per !== 'service' || k !== by);
  if (other !== undefined)
    throw new RuleSpecError(
      SERVICE_KEYS.includes(other)
        ? `{{target.${other}}} in until would judge this run's targets, not the last run's: recovery is judged per attacked service, with per: service and by: ${other}`
        : `{{target.${other}}} in until would judge this run's targets, not the last run's: only the service a cool-down is kept per (per: service, by: one of ${SERVICE_KEYS.join(', ')}) can be a placeholder of until`,
      ['until'],
    );
  return compiled;
}

/** The run's scopes of the kind, or what keeps them from being known (`blind`: cannot decide). */
function scopesOf(
  ctx: EvaluationContext,
  steps: readonly ActionStepRef[],
  per: ScopeKind | 'service',
  by: string,
  whenMissing: 'deny' | 'allow' | undefined,
): { list: Scope[]; blind: Violation[] } | { blind: Violation[] } {
  if (per === 'service') {
    const { services, blind } = serviceScopesOf(ctx, steps, by, whenMissing !== 'allow');
    return { list: services.map((s) => ({ key: s.key, label: s.label, service: s })), blind };
  }
  const scopes = runScopes(ctx, per);
  if (noScopes(scopes)) return { blind: [scopes] };
  return { list: [...scopes], blind: [] };
}

function coolingText(scope: Scope, last: RunRef, durationMs: number, until: boolean): string {
  const then = until ? ' and its targets have recovered' : '';
  return `${scope.label} is cooling down: execution ${last.id} ended ${last.state} at ${iso(last.atMs)}; runs may start again after ${iso(last.atMs + durationMs)}${then} (cool-down ${humanDuration(durationMs)})`;
}

/** A signal that does not show the last run's targets recovered, as the cool-down says it. */
function notRecovered(scope: Scope, last: RunRef, v: Violation, atMostMs: number): Violation {
  const runText = `execution ${last.id} (ended ${last.state} at ${iso(last.atMs)})`;
  const latest = `; the cool-down ends at the latest at ${iso(last.atMs + atMostMs)}`;
  if (v.status === 'undecidable')
    return {
      ...v,
      reason: `cannot decide whether ${scope.label} has recovered from ${runText}: ${v.reason.replace(/^cannot decide: /, '')}${latest}`,
    };
  return {
    ...v,
    reason: `${scope.label} is cooling down until it has recovered from ${runText}: ${v.reason}${latest}`,
  };
}
