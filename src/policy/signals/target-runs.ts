import { attributeHint } from '../engine/missing-data';
import { MAX_TARGET_VALUES, type AttackedValues } from './attacked-values';
import type { RunValues } from './placeholder-text';

/** The run's values per environment, times each combination of the target attribute values a rule reads. */
export interface TargetRuns {
  runs: RunValues[];
  /** Why the rule cannot decide (over the cap, targets without the attribute): each a reason. */
  problems: string[];
}

const listed = (values: readonly string[]) =>
  values.slice(0, 5).join(', ') + (values.length > 5 ? `, and ${values.length - 5} more` : '');

/** What keeps one attribute's values from being complete, as reasons; none with `whenMissing: allow`. */
function gaps(v: AttackedValues, denyMissing: boolean): string[] {
  if (!denyMissing) return [];
  const out: string[] = [];
  if (v.unlisted.length > 0)
    out.push(
      `cannot decide: ${v.unlisted.join(', ')} ${v.unlisted.length === 1 ? 'does' : 'do'} not list all ${v.unlisted.length === 1 ? 'its' : 'their'} targets, so the ${v.key} values the run acts on are not all known`,
    );
  if (v.withoutCount > 0) {
    const more = v.withoutCount > v.without.length ? `, and ${v.withoutCount - v.without.length} more` : '';
    out.push(
      `cannot decide: ${v.withoutCount} target${v.withoutCount === 1 ? '' : 's'} of the run carr${v.withoutCount === 1 ? 'ies' : 'y'} no ${v.key} (${v.without.join(', ')}${more}), so the signal cannot be asked about ${v.withoutCount === 1 ? 'it' : 'them'}; ${attributeHint([v.key])}`,
    );
  }
  return out;
}

/**
 * Fans `runs` out over the distinct values of each attribute in `keys` (the `{{target.<key>}}`
 * placeholders of one rule): one set of values per combination. More combinations than
 * MAX_TARGET_VALUES ask nothing and cannot decide; an attribute no target carries asks nothing
 * (the run attacks no such service). Used alike before the decision (what to ask) and in it (what
 * was asked), so both fill the same queries.
 */
export function targetRuns(
  runs: readonly RunValues[],
  keys: readonly string[],
  valuesOf: (key: string) => AttackedValues,
  denyMissing = true,
): TargetRuns {
  if (keys.length === 0) return { runs: [...runs], problems: [] };
  const all = keys.map(valuesOf);
  const problems = all.flatMap((v) => gaps(v, denyMissing));
  const combinations = all.reduce((n, v) => n * v.values.length, 1);
  if (combinations > MAX_TARGET_VALUES) {
    const what = all.map((v) => `${v.values.length} values of ${v.key} (${listed(v.values)})`).join(' and ');
    const much = all.length === 1 ? '' : `, ${combinations} combinations`;
    return {
      runs: [],
      problems: [
        ...problems,
        `cannot decide: the run acts on ${what}${much}, more than the ${MAX_TARGET_VALUES} one signal rule asks about (one query each); narrow the run or the rule (docs/attacked-services.md)`,
      ],
    };
  }
  let out: RunValues[] = [...runs];
  for (const v of all)
    out = out.flatMap((run) => v.values.map((value) => ({ ...run, targets: { ...run.targets, [v.key]: value } })));
  return { runs: out, problems };
}
