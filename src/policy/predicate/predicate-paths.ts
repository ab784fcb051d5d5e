import { parsePredicate } from './parse-predicate';
import type { Path } from './predicate';
import { toPaths } from './to-paths';

/**
 * The ways through a step's radius.predicate, read once per request: every blastRadius policy in
 * scope judges the same steps, and a predicate may expand to hundreds of paths. Keyed by the
 * payload's own predicate object, so the memo lives exactly as long as the request's payload.
 */
const pathsByPredicate = new WeakMap<object, Path[]>();

export function predicatePaths(raw: unknown): Path[] {
  if (typeof raw !== 'object' || raw === null) return toPaths(parsePredicate(raw));
  let paths = pathsByPredicate.get(raw);
  if (!paths) pathsByPredicate.set(raw, (paths = toPaths(parsePredicate(raw))));
  return paths;
}
