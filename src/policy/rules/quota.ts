import { RuleSpecError, defineRule } from '../core/rule-kind';
import { findings } from '../core/checked';
import { DURATION_WITH_UNITS_PATTERN, parseDuration } from '../../syntax/duration';
import { humanDuration } from '../../syntax/human-duration';
import { HISTORY_MS, type ScopeKind } from '../facts/state-facts';
import { noScopes, otherRuns, runScopes } from './run-scopes';
import { iso, notLoaded, stateFact } from './state-fact';
import type { Violation } from '../core/decision';

interface Spec {
  maxRuns: number;
  per?: ScopeKind;
  window: string;
}

/**
 * `- quota: {maxRuns: 10, per: team, window: 1d}`: at most N runs started per team (or
 * environment) in any rolling window (the last 24 hours for 1d, not the calendar day: no burst
 * at midnight). The run being preflighted is not counted against itself.
 */
export const quotaRule = defineRule<Spec>({
  key: 'quota',
  description: 'At most maxRuns runs started per team (or environment) in a rolling window (state from POST /events).',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['maxRuns', 'window'],
    properties: {
      maxRuns: { type: 'integer', minimum: 1, maximum: 100000 },
      per: { type: 'string', enum: ['team', 'environment'], default: 'team' },
      window: {
        type: 'string',
        pattern: DURATION_WITH_UNITS_PATTERN,
        syntax: 'duration',
        description: 'rolling window, e.g. 1h, 1d, 7d (at most 31d)',
      },
    },
  },
  compile(spec) {
    const windowMs = parseDuration(spec.window);
    if (windowMs === undefined || windowMs <= 0 || windowMs > HISTORY_MS)
      throw new RuleSpecError(`window must be more than 0 and at most 31d, got "${spec.window}"`, ['window']);
    const per = spec.per ?? 'team';
    return {
      needs: [{ kind: 'started', per, windowMs }],
      check: findings(({ ctx }) => {
        const started = stateFact(ctx, 'started');
        if (!started) return [notLoaded('started executions')];
        const scopes = runScopes(ctx, per);
        if (noScopes(scopes)) return [scopes];
        const since = ctx.now.getTime() - windowMs;
        const out: Violation[] = [];
        for (const scope of scopes) {
          const runs = otherRuns(started[scope.key], ctx).filter((r) => r.atMs >= since);
          if (runs.length < spec.maxRuns) continue;
          const freesAt = runs[runs.length - spec.maxRuns].atMs + windowMs;
          out.push({
            reason: `${scope.label} started ${runs.length} runs in the last ${humanDuration(windowMs)} (quota ${spec.maxRuns}); the next run may start after ${iso(freesAt)}`,
            value: String(runs.length),
          });
        }
        return out;
      }),
    };
  },
});
