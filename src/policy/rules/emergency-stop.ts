import { defineRule } from '../core/rule-kind';
import { findings } from '../core/checked';
import { notLoaded, stateFact } from './state-fact';

type Spec = Record<string, never>;

/**
 * `- emergencyStop: {}`: deny every run while Steadybit's emergency stop (kill switch) is engaged,
 * as last reported to POST /events. The service also applies it as a built-in policy (on by
 * default, EMERGENCY_STOP_POLICY=off turns that off); this kind lets a policy scope or warn on it.
 */
export const emergencyStopRule = defineRule<Spec>({
  key: 'emergencyStop',
  description: 'Deny every run while the Steadybit emergency stop (kill switch) is engaged (state from POST /events).',
  schema: { type: 'object', additionalProperties: false, properties: {} },
  compile() {
    return {
      needs: [{ kind: 'emergency-stop' }],
      check: findings(({ ctx }) => {
        const stop = stateFact(ctx, 'emergencyStop');
        if (!stop) return [notLoaded('emergency stop')];
        if (stop.unconfirmed) return [{ reason: `cannot decide: ${stop.unconfirmed}`, status: 'undecidable' }];
        if (!stop.engaged) return [];
        const by = stop.by ?? 'an unknown user';
        const since = stop.since ?? 'an unknown time';
        return [
          {
            reason: `the emergency stop is engaged (by ${by} since ${since}); no run may start until it is disengaged`,
            value: since,
          },
        ];
      }),
    };
  },
});
