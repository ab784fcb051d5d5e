import type { Doc } from './policy-set';
import type { DimName, Reading } from './term-types';
import { formatDuration, parseDuration } from '../syntax/duration';
import { globClasses, numberClasses, type ValueClasses } from './value-classes';

/*
 * `noMuting` in the analysis (docs/decisions/0038-predicates-by-judgement.md): a mute matches a step
 * by glob on its action id and, where it names parameters, by glob on each parameter's text (a
 * string as sent, anything else as its JSON), a parameter not sent being a case of its own. So
 * its answer is constant on the classes of the `actionId` dimension (its globs join the others
 * written there) and of one `param:<name>` dimension per parameter a mute names, split by the
 * same glob classes as every other glob dimension.
 */

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** A step parameter's dimension. */
export const paramDim = (name: string): DimName => `param:${name}`;

function mutesOf(docs: readonly Doc[]): Doc[] {
  return docs.flatMap((d) =>
    asList(d.rules).flatMap((r) => asList(asObject(asObject(r).noMuting).mutes).map(asObject)),
  );
}

/** Every action id glob a noMuting mute writes. */
export function mutingActionGlobs(docs: readonly Doc[]): string[] {
  return mutesOf(docs).flatMap((m) => asList(m.actions).filter((g): g is string => typeof g === 'string'));
}

/** Each parameter a noMuting mute names, with the globs its value is matched with. */
export function mutingParameterGlobs(docs: readonly Doc[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of mutesOf(docs))
    for (const [name, glob] of Object.entries(asObject(m.parameters)))
      if (typeof glob === 'string') out.set(name, [...(out.get(name) ?? []), glob]);
  return out;
}

/** What a noMuting rule reads: the action id, and each parameter its mutes name. */
export function mutingReads(spec: unknown, reads: Map<DimName, Reading>): void {
  reads.set('actionId', 'full');
  for (const m of asList(asObject(spec).mutes))
    for (const name of Object.keys(asObject(asObject(m).parameters))) reads.set(paramDim(name), 'full');
}

/**
 * The classes of one step parameter: against `parameters` bounds, a number on either side of each,
 * none, and a value that is no number; against noMuting globs, not sent first (a witness sends it
 * only where it matters), then one text per combination of globs. A parameter both compared with
 * bounds and matched by globs gets both kinds of values but is not split exactly (a number's text
 * may match a glob): incomplete, so every answer that reads it is unknown, never proven.
 *
 * A parameter that some limits read as a number and others as a duration (`{max: 300000}` beside
 * `{max: 5m}`) is read two ways (syntax/parameter-value.ts): a number of 0 or more reads the same
 * both ways, a negative one only as a number, a duration with units (`4m`) only as a duration. Each
 * of the three is split by the bounds (`bothKinds`).
 */
export function parameterClasses(
  name: string,
  bounds: readonly number[] | undefined,
  globs: readonly string[] | undefined,
  bothKinds = false,
): ValueClasses<unknown> {
  const numeric =
    bounds === undefined
      ? []
      : [
          ...(bothKinds ? readTwoWays(bounds) : numberClasses(bounds, { integer: false })),
          undefined,
          'prove-not-a-value',
        ];
  if (globs === undefined) return { values: numeric, complete: true };
  const texts = globClasses(globs);
  const values = [undefined, ...numeric.filter((v) => v !== undefined), ...texts.values.filter((v) => v !== undefined)];
  if (bounds !== undefined)
    return {
      values,
      complete: false,
      why: `parameter ${name} is both compared with parameters bounds and matched by noMuting globs (the analysis splits one or the other)`,
    };
  return { values, complete: texts.complete, ...(texts.why === undefined ? {} : { why: texts.why }) };
}

/** Values of a parameter read as a number by some limits and as a duration by others, one per class of both readings. */
function readTwoWays(bounds: readonly number[]): unknown[] {
  const both = numberClasses(bounds, { integer: false, lo: 0 });
  const negative = numberClasses([...bounds.filter((b) => b < 0), 0], { integer: false }).filter((n) => n < 0);
  // Written with units, read back exactly (else in milliseconds: `150000.5ms`).
  const withUnits = (n: number) => (parseDuration(formatDuration(n)) === n ? formatDuration(n) : `${n}ms`);
  return [...both, ...negative, ...both.map(withUnits)];
}
