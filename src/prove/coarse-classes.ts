import { compileGlobs } from '../policy/core/glob-matcher';
import { runEnvironments } from '../policy/engine/environments';
import { type EnvClass, type Space, thresholdsOf } from './dimensions';
import { ATTR, EMPTY_UNCOUNTED, writtenAttributes } from './target-classes';
import { LAYOUT } from './group-classes';
import type { DimName, Term } from './term-types';
import { writtenValues } from './terms';

/*
 * Per-term classes (docs/decisions/0037-per-term-classes.md). The space splits each dimension by
 * every value any document writes; one term compares a dimension only with the values its own
 * documents write (its policy's scope, its one rule, its exceptions). So the space's values of a
 * dimension fall into fewer blocks for that term: two values in one block are told apart by no
 * field the term reads, exactly as two values of one class of the space are told apart by no field
 * of any set. A term's answer is then a function of its blocks, and the search decides it once per
 * block. A dimension without a rule here is split as the space splits it (each value its own block).
 */

/** For each value of a dimension (by index), the block of it one term tells apart. */
export type Blocks = readonly number[];

/** The blocks of signatures: values with one signature share a block. */
function bySignature(values: readonly unknown[], signature: (v: unknown) => string): number[] {
  const ids = new Map<string, number>();
  return values.map((v) => {
    const s = signature(v);
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  });
}

const ABSENT = '\u0000absent';

/** Globs matched case-insensitively by the real matcher: the value's class is which of the term's globs it matches. */
function globSignature(globs: readonly string[]) {
  const matchers = [...new Set(globs)].map((g) => compileGlobs([g]));
  return (v: unknown) => (v === undefined ? ABSENT : matchers.map((m) => (m(String(v)) ? '1' : '0')).join('') || 'any');
}

/** Names compared upper-cased, as the engine reads them (nameClasses): the name when the term writes it, else "another". */
function nameSignature(names: readonly string[]) {
  const written = new Set(names.map((n) => n.toUpperCase()));
  return (v: unknown) =>
    v === undefined ? ABSENT : written.has(String(v).toUpperCase()) ? String(v).toUpperCase() : 'another';
}

/** Attribute values compared exactly (target-attributes.ts): the value when the term writes it, else "another". */
function exactSignature(values: readonly string[]) {
  const written = new Set(values);
  return (v: unknown) => (v === undefined ? ABSENT : written.has(String(v)) ? `=${String(v)}` : 'another');
}

/**
 * Target counts: not sent, not sent with an empty list, and each number by how it compares with
 * the term's own caps and by 0, 1 or more (a target rule lists that many copies of one target, or
 * one of them: each copy alike, so two or more are one class for it).
 */
function countSignature(thresholds: readonly number[]) {
  return (v: unknown) => {
    if (v === undefined) return ABSENT;
    if (v === EMPTY_UNCOUNTED) return 'empty-uncounted';
    const n = v as number;
    return `${Math.min(n, 2)}:${thresholds.map((t) => Math.sign(n - t)).join(',')}`;
  };
}

/**
 * The run's environments as the term's lists see them (the space's classes, dimensions.ts, with
 * only the names the term writes): whether one is sent, and for each environment which of those
 * names it carries and whether its name cannot be known.
 */
function envSignature(term: Term, names: readonly string[]) {
  const listed = new Set(names.map((n) => n.toLowerCase()));
  return (v: unknown) => {
    const c = v as EnvClass;
    const execution = {
      id: 0,
      environment: c.environment,
      overrides: c.override ? { environment: c.override } : undefined,
    };
    const seen = runEnvironments(execution, term.bundle, c.names)
      .map(
        (e) =>
          `${[...e.keys]
            .filter((k) => listed.has(k))
            .sort()
            .join(',')}${e.unknownName ? '?' : ''}`,
      )
      .sort();
    return JSON.stringify([c.environment === undefined, ...seen]);
  };
}

const GLOB_DIMS: ReadonlySet<DimName> = new Set(['actionId', 'key']);
const NAME_DIMS: ReadonlySet<DimName> = new Set(['team', 'via']);

/**
 * The blocks of one dimension for one term: by presence when the term reads only whether it is
 * sent, by the term's own written values for the dimensions listed here, else one block per value.
 */
export function termBlocks(space: Space, term: Term, dim: DimName): Blocks {
  const i = space.index.get(dim) as number;
  const values = space.dims[i].values;
  const reading = term.reads.get(dim);
  if (reading === undefined) return values.map(() => 0);
  if (reading === 'presence') return values.map((v) => (v === undefined ? 0 : 1));
  const docs = term.docs;
  // A signal or state rule reads the run's own environment and team (the scopes its counts are kept under): split as the space splits.
  const facts = new Set([...space.signals, ...space.state].map((d) => d.name));
  if (docs === undefined || [...term.reads.keys()].some((d) => facts.has(d))) return values.map((_, j) => j);
  const written = writtenValues(docs);
  const w = (d: DimName) => written.get(d) ?? [];
  if (dim === 'env') return bySignature(values, envSignature(term, w('env')));
  if (GLOB_DIMS.has(dim)) return bySignature(values, globSignature(w(dim)));
  if (NAME_DIMS.has(dim)) return bySignature(values, nameSignature(w(dim)));
  // ATTACK is the kind the engine itself tells apart (a targeted step, core/targeted-step.ts).
  if (dim === 'actionKind') return bySignature(values, nameSignature(['ATTACK', ...w('actionKind')]));
  // Layouts of several targets (group-classes.ts) are padded to the count and told apart at every
  // layout size, which no term's own caps say: there the count is split as the space splits it.
  if (dim === 'count' && !space.index.has(LAYOUT))
    return bySignature(values, countSignature(thresholdsOf(docs).counts));
  if (dim.startsWith(ATTR))
    return bySignature(values, exactSignature(writtenAttributes(docs).get(dim.slice(ATTR.length)) ?? []));
  return values.map((_, j) => j);
}
