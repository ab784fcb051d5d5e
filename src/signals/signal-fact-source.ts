import type { FactSource, Gathered } from '../policy/core/fact-source';
import type { Need } from '../policy/facts/need';
import { NO_ENVIRONMENT_DIRECTORY } from '../policy/core/environment-directory';
import { runEnvironments } from '../policy/engine/environments';
import { actionSteps } from '../policy/engine/action-steps';
import type { SignalGatherer } from './signal-gatherer';
import { attackedValues, type AttackedValues } from '../policy/signals/attacked-values';
import { signalRunValues } from '../policy/signals/run-values';
import type { SignalNeed } from '../policy/facts/signal-need';
import { resolveSignalNeeds, type QueryMemo } from '../policy/signals/resolve-signal-needs';

const SIGNAL_KINDS: ReadonlyArray<SignalNeed['kind']> = ['alerts', 'prometheus', 'json'];
/** Query texts compiled by one source at most (policies x reloads rarely come near it). */
const MAX_MEMO = 1000;

const isSignalNeed = (need: Need): need is SignalNeed => (SIGNAL_KINDS as readonly string[]).includes(need.kind);

/**
 * Alertmanager and Prometheus as a fact source (Facts.signals, docs/signals.md): the needs filled
 * for the run (each environment it touches), each distinct one asked once through the gatherer's
 * cache. Always `ok`: a source that cannot answer is an error answer its rules judge (cannot decide,
 * or onUnavailable: allow), so one source away never hides what the others said.
 */
export function signalFactSource(gather: SignalGatherer): FactSource {
  const memo: QueryMemo = new Map();
  return {
    name: 'signals',
    kinds: SIGNAL_KINDS,
    readsEnvironmentNames: true,
    async gather(needs, payload, now, directory = NO_ENVIRONMENT_DIRECTORY, names): Promise<Gathered> {
      if (memo.size > MAX_MEMO) memo.clear();
      const environments = runEnvironments(payload.execution, directory, names);
      const values = new Map<string, AttackedValues>();
      const steps = actionSteps(payload.execution.steps);
      const valuesOf = (key: string) =>
        values.get(key) ?? (values.set(key, attackedValues(steps, key)).get(key) as AttackedValues);
      const resolved = resolveSignalNeeds(
        needs.filter(isSignalNeed),
        signalRunValues(payload.execution, environments),
        memo,
        valuesOf,
      );
      return { ok: true, facts: { signals: await gather(resolved, now) } };
    },
  };
}
