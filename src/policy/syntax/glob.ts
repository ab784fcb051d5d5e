import picomatch from 'picomatch';
import { GLOB_MATCH_OPTIONS, globProblem } from '../../validation/syntax/glob-syntax';
import { RuleSpecError } from '../core/rule-spec-error';

/** A case-insensitive glob (`*shutdown*`, `com.steadybit.extension_aws.*`) compiled once. */
export type Matcher = (value: string) => boolean;

/** Keys and action ids are not paths: a backslash is never a separator, on any platform. */
const GLOB_OPTIONS = GLOB_MATCH_OPTIONS;

/**
 * One glob as a regular expression, answering what picomatch's own matcher answers for these
 * options (an empty value never matches; the glob's own text always does) without the two result
 * objects that matcher builds on every call.
 */
function globMatcher(pattern: string): Matcher {
  const regex = picomatch.makeRe(pattern, GLOB_OPTIONS);
  return (value) => value !== '' && (value === pattern || regex.test(value));
}

/**
 * One matcher for a list of globs. The policy schema refuses malformed globs (validation/syntax/glob-syntax.ts)
 * before anything is compiled; one reaching here anyway is refused again, never read as a literal.
 */
export function compileGlobs(patterns: readonly string[]): Matcher {
  const exact = new Set<string>();
  const globs: Matcher[] = [];
  for (const p of patterns) {
    const problem = globProblem(p);
    if (problem !== undefined) throw new RuleSpecError(problem);
    // An escaped literal (`google-oauth2\|931455`, `a\[b`) is no glob to picomatch's scan, but its
    // backslashes are escapes, not characters: only a pattern without them is compared as it is.
    if (picomatch.scan(p).isGlob || p.includes('\\')) globs.push(globMatcher(p));
    else exact.add(p.toLowerCase());
  }
  return (value) => exact.has(value.toLowerCase()) || matchesAny(globs, value);
}

function matchesAny(globs: readonly Matcher[], value: string): boolean {
  for (const glob of globs) if (glob(value)) return true;
  return false;
}
