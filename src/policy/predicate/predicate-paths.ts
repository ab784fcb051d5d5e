import { parsePredicate } from './parse-predicate';
import type { Path } from './predicate';
import { toPaths } from './to-paths';
import { memoKey, type Memo } from '../core/memo';

const PREDICATE_PATHS = memoKey<Map<object, Path[]>>('the ways through each radius.predicate object');

/**
 * The ways through a step's radius.predicate, read once per request: every blastRadius policy in
 * scope judges the same steps, and a predicate may expand to hundreds of paths. Keyed by the
 * payload's own predicate object in the request's memo, which dies with the request.
 */
export function predicatePaths(raw: unknown, memo: Memo): Path[] {
  if (typeof raw !== 'object' || raw === null) return toPaths(parsePredicate(raw));
  const byPredicate = memo.get(PREDICATE_PATHS, () => new Map());
  let paths = byPredicate.get(raw);
  if (!paths) byPredicate.set(raw, (paths = toPaths(parsePredicate(raw))));
  return paths;
}
