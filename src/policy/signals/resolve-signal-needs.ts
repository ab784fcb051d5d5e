import type { AttackedValues } from './attacked-values';
import { targetKeysOf, type RunValues } from './placeholder-text';
import { compilePromQuery, resolvePromQuery, type PromQuery } from './prom-query';
import { fillJsonPath, parseJsonPath } from './json-path-text';
import { targetRuns } from './target-runs';

import type { ResolvedSignalNeed, SignalNeed } from '../facts/signal-need';

/** Compiled query texts, kept by whoever resolves needs (one per fact source, not per module). */
export type QueryMemo = Map<string, PromQuery | string>;

/** No target values: for callers that know no payload (every `{{target.*}}` query is then left out). */
const NO_TARGETS = (key: string): AttackedValues => ({ key, values: [], without: [], withoutCount: 0, unlisted: [] });

/**
 * The needs for one run: each need filled for each of the run's environments, and for each distinct
 * value of the target attributes its `{{target.<key>}}` placeholders read (`valuesOf`; at most
 * MAX_TARGET_VALUES, else none). A need missing a value, or whose query does not compile (the rule
 * refused it at load), is left out: its rule says why.
 */
export function resolveSignalNeeds(
  needs: Iterable<SignalNeed>,
  runs: readonly RunValues[],
  memo: QueryMemo = new Map(),
  valuesOf = NO_TARGETS,
): ResolvedSignalNeed[] {
  const out: ResolvedSignalNeed[] = [];
  for (const need of needs) {
    if (need.kind === 'alerts') {
      out.push({ kind: 'alerts', source: need.source });
      continue;
    }
    if (need.kind === 'json') {
      const path = parseJsonPath(need.path);
      if (typeof path === 'string') continue;
      for (const run of targetRuns(runs, targetKeysOf(path), valuesOf, false).runs) {
        const filled = fillJsonPath(path, run);
        if ('text' in filled) out.push({ kind: 'json', source: need.source, path: filled.text });
      }
      continue;
    }
    let query = memo.get(need.query);
    if (query === undefined) memo.set(need.query, (query = compilePromQuery(need.query)));
    if (typeof query === 'string') continue;
    for (const run of targetRuns(runs, targetKeysOf(query.text), valuesOf, false).runs) {
      const filled = resolvePromQuery(query, run);
      if ('text' in filled) out.push({ kind: 'prometheus', source: need.source, query: filled.text });
    }
  }
  return out;
}
