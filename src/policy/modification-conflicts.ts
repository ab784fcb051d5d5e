import type { CompiledPolicy } from './compiled';
import type { LoadProblem } from './load-error';
import type { ScopeSpec } from './scope';

type ListField = 'teams' | 'environments' | 'createdVia';

/** Two scopes are disjoint when some listed field has no value in common. Otherwise they may overlap. */
function mayOverlap(a: ScopeSpec | undefined, b: ScopeSpec | undefined): boolean {
  const fields: ListField[] = ['teams', 'environments', 'createdVia'];
  return !fields.some((f) => {
    const x = a?.[f];
    const y = b?.[f];
    if (!x || !y) return false;
    const xs = new Set(x.map((v) => v.toLowerCase()));
    // Environments may be aliases of one another; only plain equal-or-not is known here.
    return f !== 'environments' && !y.some((v) => xs.has(v.toLowerCase()));
  });
}

/**
 * Two policies that may apply to the same run and set the same property to different constant
 * values conflict: known at load time, so it is an error there rather than a surprise per run.
 */
export function findModificationConflicts(policies: readonly CompiledPolicy[]): LoadProblem[] {
  const problems: LoadProblem[] = [];
  const setters = policies.flatMap((policy) =>
    policy.modifications.filter((m) => m.type === 'set_property_value' && m.constant !== undefined).map((m) => ({ policy, m })),
  );
  for (let i = 0; i < setters.length; i++) {
    for (let j = i + 1; j < setters.length; j++) {
      const a = setters[i];
      const b = setters[j];
      if (a.policy === b.policy || a.m.propertyKey !== b.m.propertyKey) continue;
      if (JSON.stringify(a.m.constant) === JSON.stringify(b.m.constant)) continue;
      if (!mayOverlap(a.policy.matchSpec, b.policy.matchSpec)) continue;
      problems.push({
        ...b.policy.source,
        path: 'modifications',
        message: `policy "${b.policy.name}" sets property "${b.m.propertyKey}" to ${JSON.stringify(b.m.constant)}, but policy "${a.policy.name}" (${a.policy.source.file}:${a.policy.source.line}) sets it to ${JSON.stringify(a.m.constant)} for runs both may apply to; narrow their match or use one value`,
        severity: 'error',
      });
    }
  }
  return problems;
}
