import { compileGlobs } from '../policy/core/glob-matcher';
import { decide } from '../policy/engine/decide';
import type { Assignment, EnvClass, Run, Shown, Space } from './dimensions';
import { mutingParameterGlobs } from './muting-classes';
import type { Doc } from './policy-set';
import { PREDICATE } from './predicate-classes';
import { ATTR, writtenAttributes } from './target-classes';
import type { DimName, Term } from './term-types';
import { writtenValues } from './terms';
import { OTHER } from './value-classes';

/*
 * The simplest witness of a class (docs/decisions/0045-simplest-witnesses-and-empty-glob-combinations.md):
 * a witness the search found is made smaller and plainer, one part at a time, and each change is
 * kept only when the real engine, deciding the changed run with both whole sets (and the rule the
 * class is about), still answers as the witness says. First each dimension is moved to a simpler
 * class (a field not sent, a radius predicate with fewer parts, a target count of one rather than
 * none); then a value no set writes is shown as a realistic text of the same class (checked by the
 * same matchers the classes are split by): a Steadybit action id, an experiment key of the run's
 * team. The witness stays one the engine decides as printed; nothing here is assumed.
 */

/** At most this many changed runs are decided per witness (each is decided by the sets compared). */
export const SIMPLIFY_BUDGET = 300;

/** Action ids and target types as Steadybit's extensions name them: a witness's action looks like a real one. */
const ACTION_IDS = [
  'com.steadybit.extension_container.stress_cpu',
  'com.steadybit.extension_container.stress_mem',
  'com.steadybit.extension_container.network_delay',
  'com.steadybit.extension_kubernetes.rollout_restart',
  'com.steadybit.extension_kubernetes.delete_pod',
  'com.steadybit.extension_host.stress-cpu',
  'com.steadybit.extension_host.shutdown',
  'com.steadybit.extension_container.stop',
  'com.steadybit.extension_http.check.periodically',
];
const TARGET_TYPES = [
  'com.steadybit.extension_container.container',
  'com.steadybit.extension_kubernetes.kubernetes-deployment',
  'com.steadybit.extension_kubernetes.kubernetes-pod',
  'com.steadybit.extension_host.host',
];
const ENVIRONMENTS = ['staging', 'dev', 'test', 'qa', 'sandbox'];
const TEAMS = ['ADM', 'PLATFORM', 'SRE', 'OPS'];
const ORIGINS = ['UI', 'API', 'SCHEDULE'];

/** A glob's stars filled: a leading one with `head`, a trailing one with `tail`, the others with `mid`. */
function filled(glob: string, head: string, mid: string, tail: string): string {
  const parts = glob.split('*');
  if (parts.length === 1) return glob;
  return parts
    .map((p, i) => {
      if (i === 0) return p;
      const star = i === 1 && parts[0] === '' ? head : i === parts.length - 1 && p === '' ? tail : mid;
      return star + p;
    })
    .join('');
}

const fills = (globs: readonly string[], heads: readonly string[], mids: readonly string[], tails: readonly string[]) =>
  globs.flatMap((g) => heads.flatMap((h) => mids.flatMap((m) => tails.map((t) => filled(g, h, m, t)))));

interface Renaming {
  /** Realistic texts to try in place of the class's text, the most realistic first. */
  candidates: (current: string, run: Run) => string[];
  /** Whether a text is in the same class as the current one (the matchers the classes are split by). */
  sameClass: (current: string, text: string) => boolean;
  /** A text the documents write as it is: already the set's own, shown as it is. */
  written: (current: string) => boolean;
}

function globRenaming(globs: readonly string[], candidates: Renaming['candidates']): Renaming {
  const matchers = globs.map((g) => compileGlobs([g]));
  const vector = (t: string) => matchers.map((m) => m(t)).join();
  const literals = new Set(globs.filter((g) => !g.includes('*')).map((g) => g.toLowerCase()));
  return {
    candidates,
    sameClass: (current, text) => text !== '' && vector(text) === vector(current),
    written: (current) => literals.has(current.toLowerCase()),
  };
}

function nameRenaming(written: readonly string[], candidates: readonly string[]): Renaming {
  const names = new Set(written.map((n) => n.toLowerCase()));
  return {
    candidates: () => [...candidates],
    sameClass: (current, text) => !names.has(current.toLowerCase()) && !names.has(text.toLowerCase()),
    written: (current) => names.has(current.toLowerCase()),
  };
}

/** How each text dimension is shown realistically, from what the documents write. */
function renamings(docs: readonly Doc[], aliases: readonly Record<string, string[]>[]): Map<DimName, Renaming> {
  const w = writtenValues(docs);
  const of = (d: DimName) => w.get(d) ?? [];
  const out = new Map<DimName, Renaming>();
  const keyGlobs = of('key');
  const teamOf = (run: Run) => run.payload.execution.teamKey;
  out.set(
    'team',
    nameRenaming(of('team'), [
      ...keyGlobs.flatMap((g) => (/^[A-Za-z]+-\*$/.test(g) ? [g.slice(0, -2)] : [])),
      ...TEAMS,
    ]),
  );
  out.set(
    'key',
    globRenaming(keyGlobs, (_, run) => {
      const team = teamOf(run);
      return [
        ...(typeof team === 'string' && team !== '' ? [`${team}-1`, `${team}-42`] : []),
        ...fills(keyGlobs, ['EXP-'], ['1'], ['1', '42']),
        'EXP-1',
      ];
    }),
  );
  out.set('via', nameRenaming(of('via'), ORIGINS));
  const actionGlobs = of('actionId');
  out.set(
    'actionId',
    globRenaming(actionGlobs, () => [
      ...ACTION_IDS,
      ...fills(
        actionGlobs,
        ['com.steadybit.extension_host.', 'com.steadybit.extension_container.'],
        ['_'],
        ['rollout_restart', 'stress_cpu', 'x'],
      ),
    ]),
  );
  const typeGlobs = of('targetType');
  out.set(
    'targetType',
    globRenaming(typeGlobs, () => [
      ...TARGET_TYPES,
      ...fills(typeGlobs, ['com.steadybit.extension_container.'], ['-'], ['container', 'x']),
    ]),
  );
  const starters = of('starter');
  out.set(
    'starter',
    globRenaming(starters, () => ['jane.doe', ...fills(starters, ['jane.doe'], ['.'], ['jane.doe', 'bot'])]),
  );
  const emails = of('starterEmail');
  out.set(
    'starterEmail',
    globRenaming(emails, () => ['jane.doe@example.com', ...fills(emails, ['jane.doe'], ['.'], ['example.com', 'x'])]),
  );
  for (const [name, globs] of mutingParameterGlobs(docs))
    out.set(
      `param:${name}`,
      globRenaming(globs, () =>
        fills(globs, ['https://alertmanager.example.com', 'https://example.com', 'x'], ['2', 'x', ''], ['s', '', 'x']),
      ),
    );
  for (const [key, values] of writtenAttributes(docs))
    out.set(`${ATTR}${key}`, nameRenaming(values, ['shop', 'checkout', 'default', 'team-a']));
  const envs = [...of('env')];
  for (const a of aliases) for (const [name, ids] of Object.entries(a)) envs.push(name, ...ids);
  out.set('env', nameRenaming(envs, ENVIRONMENTS));
  return out;
}

/** The indices of a dimension's classes, simplest first. */
function preference(name: DimName, values: readonly unknown[]): number[] {
  const indices = values.map((_, i) => i);
  const rank = (i: number): number => {
    const v = values[i];
    if (name === 'env') {
      const e = v as EnvClass;
      // Sent as the run's environment, no override, no Platform API; one no policy names before one some do.
      const unnamed = typeof e.environment === 'string' && e.environment.startsWith(OTHER);
      return (
        (e.names ? 4 : 0) +
        (e.environment === undefined ? 2 : 0) +
        (e.override !== undefined ? 1 : 0) +
        (unnamed ? 0 : 0.5)
      );
    }
    if (name === 'count')
      // A count of targets that some are: one or more, fewest first; then not sent; none, then none listed, last.
      return typeof v === 'number' && v > 0 ? v : v === undefined ? 1e9 : v === 0 ? 1e9 + 1 : 1e9 + 2;
    if (name === 'via')
      // Started from the UI (the class no set writes, shown as UI, where UI is not written), as most runs are.
      return v === undefined ? 2 : typeof v === 'string' && (v.startsWith(OTHER) || v.toUpperCase() === 'UI') ? 0 : 1;
    if (name === 'team' || name === 'key' || name === 'actionId' || name === 'actionKind') return 0; // sent as Steadybit sends them: the classes' own order (written values first, none last)
    if (v === undefined) return -1;
    if (name === PREDICATE) return JSON.stringify(v).length;
    if (name === 'pct') return v === 0 ? 1 : 0;
    return 0;
  };
  return indices.sort((x, y) => rank(x) - rank(y) || x - y);
}

/** Whether the term denies the run as the search asks it (a property's scope alone: whether its policy applies). */
export function termDenies(term: Term, run: Run): boolean {
  const d = decide(term.bundle, run.payload, run.facts, run.now, { decisionId: 'prove', fullScan: term.applies });
  return term.applies ? d.results.some((r) => r.policy === term.policy && r.result !== 'skipped') : !d.allowed;
}

export interface Simplest {
  a: Assignment;
  shown: Shown;
  run: Run;
}

/**
 * The simplest run of the assignment's kind that `keeps` still holds for: `keeps` decides a changed
 * run with the real engine (both whole sets and the rule, as the witness says). `make` turns an
 * assignment into the run tried (runOf, or that run scoped as a blastRadius rule asks).
 */
export function simplestWitness(
  space: Space,
  a: Assignment,
  docs: readonly Doc[],
  aliases: readonly Record<string, string[]>[],
  make: (a: Assignment, shown: Shown) => Run,
  keeps: (run: Run) => boolean,
): Simplest {
  let budget = SIMPLIFY_BUDGET;
  // Unassigned dimensions take their first value, as runOf gives them.
  const current = space.dims.map((_, i) => (a[i] === undefined || a[i] < 0 ? 0 : a[i]));
  const order = space.dims.map((d) => preference(d.name, d.values));
  // The run last seen to keep the answers (the caller decided the first): the one returned.
  let kept = make(current, new Map());
  const tryRun = (run: Run) => {
    if (budget-- <= 0 || !keeps(run)) return false;
    kept = run;
    return true;
  };
  const none: Shown = new Map();
  // Classes: each dimension moved to the simplest class that keeps the answers (passes until none moves).
  for (let changed = true; changed && budget > 0; ) {
    changed = false;
    for (const [i, d] of space.dims.entries()) {
      if (d.name === 'time' || d.values.length < 2) continue;
      const rank = order[i].indexOf(current[i]);
      for (const candidate of order[i].slice(0, rank)) {
        const next = [...current];
        next[i] = candidate;
        if (tryRun(make(next, none))) {
          current[i] = candidate;
          changed = true;
          break;
        }
        if (budget <= 0) break;
      }
    }
  }
  // Texts: a placeholder no set writes shown as a realistic text of its class.
  const shown = new Map<DimName, unknown>();
  const ways = renamings(docs, aliases);
  for (const [i, d] of space.dims.entries()) {
    const way = ways.get(d.name);
    const value = d.values[current[i]];
    if (way === undefined || budget <= 0) continue;
    if (d.name === 'env') {
      const e = value as EnvClass;
      const placeholder = [e.environment, e.override].find((x) => typeof x === 'string' && x.startsWith(OTHER));
      if (placeholder === undefined) continue;
      for (const text of way.candidates(placeholder, make(current, shown))) {
        if (!way.sameClass(placeholder, text)) continue;
        const renamed = renameEnv(e, placeholder, text);
        shown.set('env', renamed);
        if (tryRun(make(current, shown))) break;
        shown.delete('env');
        if (budget <= 0) break;
      }
      continue;
    }
    if (typeof value !== 'string' || way.written(value)) continue;
    const seen = new Set<string>();
    for (const text of way.candidates(value, make(current, shown))) {
      if (seen.has(text) || !way.sameClass(value, text)) continue;
      seen.add(text);
      shown.set(d.name, text);
      if (tryRun(make(current, shown))) break;
      shown.delete(d.name);
      if (budget <= 0) break;
    }
  }
  return { a: current, shown, run: kept };
}

/** The environment class with one of its texts spelled otherwise (as sent, and as the Platform API names it). */
function renameEnv(e: EnvClass, from: string, to: string): EnvClass {
  const swap = (x: string | undefined) => (x === from ? to : x);
  const out: EnvClass = {};
  if (e.environment !== undefined) out.environment = swap(e.environment);
  if (e.override !== undefined) out.override = swap(e.override);
  if (e.names)
    out.names = Object.fromEntries(
      Object.entries(e.names).map(([k, v]) => [
        swap(k) as string,
        'name' in v && v.name === from ? { ...v, name: to } : v,
      ]),
    );
  return out;
}
