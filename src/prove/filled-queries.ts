import type { PolicyBundle } from '../policy/core/compiled';
import { runEnvironments } from '../policy/engine/environments';
import type { EnvironmentFacts } from '../policy/facts/environment-facts';
import type { Execution } from '../payload/types';
import { parsePlaceholderText, type SignalPlaceholder } from '../policy/signals/placeholder-text';
import { compilePromQuery, resolvePromQuery } from '../policy/signals/prom-query';
import { signalRunValues } from '../policy/signals/run-values';
import type { DimName } from './term-types';

/*
 * Queries that fill placeholders from the run (docs/decisions/0040-filled-queries-as-fact-classes.md).
 * A query's text is a function of the run: `{{environment}}` of its environments' names,
 * `{{team}}`, `{{experimentKey}}` and `{{executionId}}` of the payload's fields. Its dimension is
 * the answer to the run's own text(s): a rule denies when it denies on one of them, so the same
 * answer under each stands for any answers (as for state under each scope, record 0035), provided
 * no other query of the source can ever be the same text (`canCoincide`).
 */

/** The run placeholders the analysis fills, and the dimension each reads. */
export const PLACEHOLDER_DIMS: Readonly<Record<string, DimName>> = {
  environment: 'env',
  team: 'team',
  experimentKey: 'key',
  executionId: 'executionId',
};

/** The placeholders a text fills, or undefined when it does not parse. */
export function placeholdersOf(text: string): readonly SignalPlaceholder[] | undefined {
  const parsed = parsePlaceholderText(text);
  return typeof parsed === 'string' ? undefined : parsed.names;
}

/** The fixed text before the first placeholder and after the last (the whole text when it has none). */
function ends(text: string): { prefix: string; suffix: string; filled: boolean } {
  const parsed = parsePlaceholderText(text);
  if (typeof parsed === 'string' || parsed.names.length === 0) return { prefix: text, suffix: text, filled: false };
  const { parts } = parsed;
  const first = parts[0];
  const last = parts[parts.length - 1];
  return {
    prefix: typeof first === 'string' ? first : '',
    suffix: typeof last === 'string' ? last : '',
    filled: true,
  };
}

/**
 * Whether two query texts could ever be filled to the same text. Sound (never false when they can):
 * two equal texts begin with both texts' fixed beginnings, so one beginning is a prefix of the
 * other, and likewise for their endings. Two texts without placeholders are one query when equal.
 */
export function canCoincide(a: string, b: string): boolean {
  if (a === b) return false;
  const x = ends(a);
  const y = ends(b);
  if (!x.filled && !y.filled) return false;
  const prefixes = x.prefix.startsWith(y.prefix) || y.prefix.startsWith(x.prefix);
  const suffixes = x.suffix.endsWith(y.suffix) || y.suffix.endsWith(x.suffix);
  return prefixes && suffixes;
}

/** Whether every bundle fills `{{environment}}` alike: the same names for every value (PolicyBundle.environmentNames). */
export function sameEnvironmentNames(bundles: readonly PolicyBundle[]): boolean {
  const keyOf = (b: PolicyBundle) => JSON.stringify([...b.environmentNames].sort(([x], [y]) => (x < y ? -1 : 1)));
  return new Set(bundles.map(keyOf)).size <= 1;
}

/**
 * The texts a query is asked as for this run under each bundle (one per name of each environment
 * it touches, as the engine fills them); the query itself when it fills nothing, none when the run
 * lacks a value it needs (the rule then cannot decide, whatever the answer).
 */
export function filledTexts(
  query: string,
  execution: Execution,
  names: EnvironmentFacts | undefined,
  bundles: readonly PolicyBundle[],
): string[] {
  const compiled = compilePromQuery(query);
  if (typeof compiled === 'string' || compiled.text.names.length === 0) return [query];
  const out = new Set<string>();
  for (const bundle of bundles)
    for (const values of signalRunValues(execution, runEnvironments(execution, bundle, names))) {
      const filled = resolvePromQuery(compiled, values);
      if ('text' in filled) out.add(filled.text);
    }
  return [...out];
}

/** An environment id no set names: a UUID, as Steadybit sends, so `{{environment}}` has no name to fill for it. */
export const UNNAMED_ID = '00000000-0000-4000-8000-000000000047';

/** Whether a rule of these documents fills `{{environment}}` (the environment classes then tell named from unnamed). */
export const fillsEnvironmentNames = (docs: ReadonlyArray<{ rules?: unknown }>): boolean =>
  docs.some((d) => /\{\{\s*environment\s*\}\}/.test(JSON.stringify(d.rules ?? [])));
