import { parsePredicate } from './parse-predicate';
import type { Path } from './predicate';
import { toPaths } from './to-paths';
import type { ContextMemo } from '../engine/evaluation-context';

/**
 * The ways through a step's radius.predicate, read once per request: every blastRadius policy in
 * scope judges the same steps, and a predicate may expand to hundreds of paths. Keyed by the
 * payload's own predicate object in the request's memo, which dies with the request.
 */
export function predicatePaths(raw: unknown, memo: ContextMemo): Path[] {
  if (typeof raw !== 'object' || raw === null) return toPaths(parsePredicate(raw));
  const byPredicate = (memo.predicatePaths ??= new Map());
  let paths = byPredicate.get(raw);
  if (!paths) byPredicate.set(raw, (paths = toPaths(parsePredicate(raw))));
  return paths;
}
