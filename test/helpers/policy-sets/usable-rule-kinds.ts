import { stringify } from 'yaml';
import { loadBundle } from '../../../src/policy/loading/load-bundle';
import { RULE_KINDS } from '../../../src/policy/rules';
import { seededRng } from './rng';
import { LEFT_OUT, RULE_SPECS } from './rule-specs';

export interface UsableKinds {
  /** Registered kinds whose benchmark specs load. */
  usable: string[];
  /** Why each other registered kind is left out. */
  notes: string[];
}

/** The rule kinds the generated policies use: registered now, with a spec here that loads. */
export function usableRuleKinds(): UsableKinds {
  const usable: string[] = [];
  const notes: string[] = [];
  for (const kind of RULE_KINDS) {
    const make = RULE_SPECS[kind.key];
    if (LEFT_OUT[kind.key]) {
      notes.push(`rule kind "${kind.key}" is left out: ${LEFT_OUT[kind.key]}`);
      continue;
    }
    if (!make) {
      notes.push(
        `rule kind "${kind.key}" is registered but test/helpers/policy-sets/rule-specs.ts has no spec for it: not used`,
      );
      continue;
    }
    const rng = seededRng(7);
    const problems: string[] = [];
    for (let i = 0; i < 8; i++) {
      const text = stringify({ kind: 'Policy', name: `probe-${i}`, rules: [{ [kind.key]: make(rng) }] });
      const result = loadBundle([{ file: `probe-${kind.key}.yaml`, text }]);
      if (!result.ok) problems.push(...result.problems.map((p) => `${p.path}: ${p.message}`));
    }
    if (problems.length > 0)
      notes.push(`rule kind "${kind.key}": its benchmark spec no longer loads (${problems[0]}): not used`);
    else usable.push(kind.key);
  }
  return { usable, notes };
}
