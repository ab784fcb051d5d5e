import type { PolicyOutcome } from './evaluate-policy';
import type { Decision, Modification, ModificationConflict, PolicyResult } from './types';

/** Steadybit shows the message in the run view; keep it readable. */
export const MAX_MESSAGE_LENGTH = 1000;

function listPolicies(prefix: string, results: PolicyResult[], suffix: string): string {
  let out = prefix;
  let shown = 0;
  for (const r of results) {
    const part = `${shown === 0 ? '' : ' | '}[${r.policy}] ${r.message ?? r.reasons.join('; ')}`;
    const rest = results.length - shown - 1;
    const reserve = rest > 0 ? ` | (+${rest} more)`.length : 0;
    if (out.length + part.length + reserve + suffix.length > MAX_MESSAGE_LENGTH) {
      const room = MAX_MESSAGE_LENGTH - out.length - suffix.length - ` | (+${results.length - shown} more)`.length;
      if (shown === 0 && room > 20) { out += `${part.slice(0, room - 1)}…`; shown++; }
      break;
    }
    out += part;
    shown++;
  }
  if (shown < results.length) out += ` | (+${results.length - shown} more)`;
  return out + suffix;
}

function mergeModifications(outcomes: PolicyOutcome[]): { modifications: Modification[]; conflicts: ModificationConflict[] } {
  const modifications: Modification[] = [];
  const conflicts: ModificationConflict[] = [];
  const set = new Map<string, { policy: string; value: Modification['value'] }>();
  // Outcomes come in bundle order (priority, then name): the first setter wins, deterministically.
  for (const { modifications: mods } of outcomes) {
    for (const { policy, ...m } of mods) {
      if (m.type === 'set_property_value') {
        const prior = set.get(m.propertyKey);
        if (prior) {
          if (JSON.stringify(prior.value) !== JSON.stringify(m.value)) {
            conflicts.push({ propertyKey: m.propertyKey, kept: prior, dropped: { policy, value: m.value } });
          }
          continue;
        }
        set.set(m.propertyKey, { policy, value: m.value });
      }
      modifications.push(m);
    }
  }
  return { modifications, conflicts };
}

/** `outOfScope`: policies the index ruled out; they count in the total the message names. */
export function combine(outcomes: PolicyOutcome[], meta: { id: string; revision: string; now: Date; outOfScope?: number }): Decision {
  const results = outcomes.map((o) => o.result);
  const denies = results.filter((r) => r.result === 'deny');
  const warns = results.filter((r) => r.result === 'warn');
  const ref = ` (decision ${meta.id}, policy revision ${meta.revision})`;
  const outOfScope = meta.outOfScope ?? 0;
  const base = { id: meta.id, revision: meta.revision, evaluatedAt: meta.now.toISOString(), results, outOfScope };
  if (denies.length > 0) {
    const head = `Denied by ${denies.length} ${denies.length === 1 ? 'policy' : 'policies'}: `;
    return { ...base, allowed: false, message: listPolicies(head, denies, ref), modifications: [], conflicts: [] };
  }
  const { modifications, conflicts } = mergeModifications(outcomes);
  const conflictNote = conflicts.map((c) => ` Conflict: "${c.propertyKey}" set by ${c.kept.policy} and ${c.dropped.policy}; kept ${JSON.stringify(c.kept.value)}.`).join('');
  const applied = results.filter((r) => r.result !== 'skipped').length;
  const total = results.length + outOfScope;
  const message = warns.length > 0
    ? listPolicies('Allowed with warnings: ', warns.map((w) => ({ ...w, message: `would deny: ${w.message ?? w.reasons.join('; ')}` })), `.${conflictNote}${ref}`)
    : `Allowed: ${applied} of ${total} ${total === 1 ? 'policy' : 'policies'} applied, none denied.${conflictNote}${ref}`;
  return { ...base, allowed: true, message, modifications, conflicts };
}
