import { RuleSpecError, defineRule } from '../core/rule-kind';
import { findings } from '../core/checked';
import { DURATION_WITH_UNITS_PATTERN, parseDuration } from '../../syntax/duration';
import { humanDuration } from '../../syntax/human-duration';
import { END_STATES, HISTORY_MS, type EndState, type ScopeKind } from '../facts/state-facts';
import { noScopes, otherRuns, runScopes } from './run-scopes';
import { iso, notLoaded, stateFact } from './state-fact';
import type { Violation } from '../core/decision';

interface Spec {
  after?: EndState[];
  duration: string;
  per?: ScopeKind;
}

/**
 * `- cooldown: {after: [FAILED, ERRORED], duration: 30m, per: environment}`: no run in an
 * environment (or team) until `duration` has passed since its last run that ended in one of
 * the `after` states. The run being preflighted never counts against itself (an end already
 * recorded under its own execution id is a replay or a clock skew, not an earlier run).
 */
export const cooldownRule = defineRule<Spec>({
  key: 'cooldown',
  description:
    'Pause runs in an environment (or team) for a while after a run there ended FAILED or ERRORED (state from POST /events).',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['duration'],
    properties: {
      after: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', enum: [...END_STATES] },
        default: ['FAILED', 'ERRORED'],
      },
      duration: {
        type: 'string',
        pattern: DURATION_WITH_UNITS_PATTERN,
        syntax: 'duration',
        description: 'e.g. 30m, 2h, 1d (at most 31d)',
      },
      per: { type: 'string', enum: ['environment', 'team'], default: 'environment' },
    },
  },
  compile(spec) {
    const durationMs = parseDuration(spec.duration);
    if (durationMs === undefined || durationMs <= 0 || durationMs > HISTORY_MS)
      throw new RuleSpecError(`duration must be more than 0 and at most 31d, got "${spec.duration}"`, ['duration']);
    const after = new Set<EndState>(spec.after ?? ['FAILED', 'ERRORED']);
    const per = spec.per ?? 'environment';
    return {
      needs: [{ kind: 'ended', per, windowMs: durationMs }],
      check: findings(({ ctx }) => {
        const ended = stateFact(ctx, 'ended');
        if (!ended) return [notLoaded('ended executions')];
        const scopes = runScopes(ctx, per);
        if (noScopes(scopes)) return [scopes];
        const since = ctx.now.getTime() - durationMs;
        const out: Violation[] = [];
        for (const scope of scopes) {
          const hits = otherRuns(ended[scope.key], ctx).filter(
            (r) => r.state !== undefined && after.has(r.state) && r.atMs >= since,
          );
          const last = hits.at(-1);
          if (!last) continue;
          out.push({
            reason: `${scope.label} is cooling down: execution ${last.id} ended ${last.state} at ${iso(last.atMs)}; runs may start again after ${iso(last.atMs + durationMs)} (cool-down ${humanDuration(durationMs)})`,
            value: last.id,
          });
        }
        return out;
      }),
    };
  },
});
