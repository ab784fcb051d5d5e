import { defineRule } from '../core/rule-kind';
import { findings } from '../core/checked';
import type { ScopeKind } from '../facts/state-facts';
import { noScopes, otherRuns, runScopes } from './run-scopes';
import { iso, notLoaded, stateFact } from './state-fact';
import type { Violation } from '../core/decision';

interface Spec {
  maxRunning: number;
  per?: ScopeKind;
}

/**
 * `- concurrency: {maxRunning: 1, per: environment}`: at most N runs at once per environment
 * (every environment the run touches) or per team. Running = created and not yet completed,
 * failed, errored or canceled (nor expired after EXECUTION_TTL_SECONDS). The run being
 * preflighted never counts against itself.
 */
export const concurrencyRule = defineRule<Spec>({
  key: 'concurrency',
  description: 'Cap the runs in progress per environment or per team (state from POST /events).',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['maxRunning'],
    properties: {
      maxRunning: { type: 'integer', minimum: 1, maximum: 10000 },
      per: { type: 'string', enum: ['environment', 'team'], default: 'environment' },
    },
  },
  compile(spec) {
    const per = spec.per ?? 'environment';
    return {
      needs: [{ kind: 'running', per }],
      check: findings(({ ctx }) => {
        const running = stateFact(ctx, 'running');
        if (!running) return [notLoaded('running executions')];
        const scopes = runScopes(ctx, per);
        if (noScopes(scopes)) return [scopes];
        const out: Violation[] = [];
        for (const scope of scopes) {
          const others = otherRuns(running[scope.key], ctx);
          if (others.length < spec.maxRunning) continue;
          const listed = others
            .slice(0, 3)
            .map((r) => `${r.id} (since ${iso(r.atMs)})`)
            .join(', ');
          out.push({
            reason: `${scope.label} already has ${others.length} running execution${others.length === 1 ? '' : 's'} (at most ${spec.maxRunning}): ${listed}${others.length > 3 ? ', ...' : ''}`,
            value: String(others.length),
          });
        }
        return out;
      }),
    };
  },
});
