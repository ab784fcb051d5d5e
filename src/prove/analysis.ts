import type { PolicyBundle } from '../policy/core/compiled';
import { decide } from '../policy/engine/decide';
import { type Assignment, describeRun, type Run, runOf, type Shown, type Space, spaceOf } from './dimensions';
import type { Property } from './property-file';
import type { Doc, PolicySet } from './policy-set';
import { scopedVariant } from './scoped-variant';
import { simplestWitness, termDenies } from './simplest-witness';
import { Judge, search } from './search';
import { groupedTerms } from './group-terms';
import { searchCopies, searchPairs, severalStepsGaps } from './steps';
import type { DimName, Term } from './term-types';
import { appliesTerm, termsOf } from './terms';

/** What "every run" covers in an answer (docs/prove.md): printed with every proof. */
export const COVERAGE =
  'every run of any number of action steps, each step one the analysis covers in a run of its own (any payload the schema admits in the analysed fields, any radius predicate, any targets it lists with any attributes), every time in the horizon, the emergency stop engaged or not, with or without the Platform API naming its environments and listing the members of the teams scopes name, any answer of the queries and Alertmanager sources the analysed prometheus and alerts rules read, and any runs in progress, started or ended that the analysed concurrency, quota and cooldown rules count and any runs in progress sharing targets or attribute values with the run that the noOverlap rules compare';

export interface Answer {
  allowed: boolean;
  status: number;
  message: string;
}

export interface Witness {
  kind: 'newly-allowed' | 'newly-denied' | 'counterexample';
  /** The class in words: the term that changes the answer and the run's values. */
  class: string;
  payload: Run['payload'];
  now: string;
  facts: Run['given'];
  base?: Answer;
  proposed?: Answer;
  answer?: Answer;
  /** The rule whose answer makes the difference (diff): its policy and its path, e.g. `rules[0].environments`. */
  rule?: RuleRef;
}

const answerOf = (bundle: PolicyBundle, run: Run): Answer => {
  const d = decide(bundle, run.payload, run.facts, run.now, { decisionId: 'prove-witness' });
  return { allowed: d.allowed, status: d.allowed ? 200 : 403, message: d.message };
};

/** Why no answer that reads these dimensions can be a proof (a dimension whose classes are not all found). */
function incompleteDims(space: Space, dims: Iterable<DimName>): string[] {
  const out: string[] = [];
  for (const name of new Set(dims)) {
    const d = space.dims[space.index.get(name) as number];
    if (d && !d.complete) out.push(`${name}: ${d.why}`);
  }
  return out;
}

/** The dimensions the terms read in full: a dimension read only for whether it is sent needs no more than one value sent and none. */
const dimsOf = (terms: readonly Term[]) =>
  terms.flatMap((t) => [...t.reads].flatMap(([d, reading]) => (reading === 'full' ? [d] : [])));

export interface PropertyResult {
  property: string;
  file: string;
  /** The line of the property's document in `file`. */
  line: number;
  status: 'proven' | 'counterexample' | 'unknown';
  reason?: string;
  /** Rules the proof treated as "may allow anything" (beyond the analysis; a proof holds whatever they answer). */
  relaxed: string[];
  witness?: Witness;
  decisions: number;
}

/**
 * Whether any run a property describes is allowed by the set: searched over the classes of the set's
 * fragment terms (rules beyond the analysis relaxed: treated as never denying, so a run found must be
 * allowed by the whole set to count, and none found proves the property whatever they answer).
 */
export function proveProperty(set: PolicySet, property: Property, from: Date): PropertyResult {
  const doc: Doc = { ...property.never, name: `property-${property.name}` };
  const docs = [...set.policies.values(), ...set.exceptions, doc];
  // The property speaks of the set's queries: {{environment}} filled with the names the set spells.
  const bundle: PolicyBundle = Object.freeze({ ...property.bundle, environmentNames: set.bundle.environmentNames });
  const propertySet: PolicySet = {
    dir: property.file,
    bundle,
    policies: new Map([[`property-${property.name}`, { ...property.never, name: `property-${property.name}` }]]),
    exceptions: [],
    aliases: set.aliases,
  };
  const [setTerms, bad] = groupedTerms(docs, [
    termsOf(set),
    Array.isArray(property.never.rules) && property.never.rules.length > 0
      ? termsOf(propertySet)
      : [appliesTerm(doc, bundle, `property ${property.name}`)],
  ]);
  const fragment = setTerms.filter((t) => t.outside === undefined);
  const relaxed = setTerms.filter((t) => t.outside !== undefined).map((t) => `${t.label}: ${t.outside}`);
  const base = { property: property.name, file: property.file, line: property.line, relaxed, decisions: 0 };
  const beyond = bad.find((t) => t.outside !== undefined);
  if (beyond) return { ...base, status: 'unknown', reason: `the property's ${beyond.label}: ${beyond.outside}` };
  const space = spaceOf(docs, [set.bundle, bundle], [set.aliases], [...setTerms, ...bad], set.bundle.exceptions, from);
  const judge = new Judge(space, [set.bundle]);
  let unconfirmed = 0;
  let complete = true;
  for (const t of bad) {
    let witness: Witness | undefined;
    const result = search(judge, t, fragment, {
      accept: (a) => {
        const run = runOf(space, a, [set.bundle]);
        if (!answerOf(set.bundle, run).allowed) {
          unconfirmed++;
          return false;
        }
        // The simplest run of the class's kind the set still allows and the property still describes.
        const simplest = simplestWitness(
          space,
          a,
          docs,
          [set.aliases],
          (x, shown) => runOf(space, x, [set.bundle], shown),
          (r) => answerOf(set.bundle, r).allowed && termDenies(t, r),
        );
        const answer = answerOf(set.bundle, simplest.run);
        const cls = `${t.label}: ${describeRun(space, simplest.a, t.reads.keys(), simplest.shown)}`;
        witness = witnessOf('counterexample', cls, simplest.run, { answer });
        return true;
      },
    });
    // A total across steps no one step passes: the step repeated past it, described and allowed (steps.ts).
    if (!witness)
      searchCopies(judge, t, fragment, [set.bundle], (run, a, copies) => {
        const answer = answerOf(set.bundle, run);
        if (!answer.allowed || answerOf(t.bundle, run).allowed) return false;
        const cls = `${t.label}: ${copies} steps, each ${describeRun(space, a, t.reads.keys())}`;
        witness = witnessOf('counterexample', cls, run, { answer });
        return true;
      });
    if (witness) return { ...base, decisions: judge.decisions, status: 'counterexample', witness };
    complete &&= result.complete;
  }
  const gaps = incompleteDims(space, dimsOf([...bad, ...fragment]));
  gaps.push(...severalStepsGaps(bad, "the property's "));
  if (!complete) gaps.push(`more classes than the search decides (${judge.decisions} decisions)`);
  if (unconfirmed > 0)
    return {
      ...base,
      decisions: judge.decisions,
      status: 'unknown',
      reason: `${unconfirmed} class(es) the analysed rules allow are denied by rules beyond the analysis (${relaxed.join('; ')}), which cannot be shown to deny every such run`,
    };
  if (gaps.length > 0) return { ...base, decisions: judge.decisions, status: 'unknown', reason: gaps.join('; ') };
  return { ...base, decisions: judge.decisions, status: 'proven' };
}

function witnessOf(kind: Witness['kind'], cls: string, run: Run, answers: Partial<Witness>): Witness {
  return { kind, class: cls, payload: run.payload, now: run.now.toISOString(), facts: run.given, ...answers };
}

/** A rule of a policy: its policy's name and the rule's path in it (none: the policy's scope or the policy as a whole). */
export interface RuleRef {
  policy: string;
  path?: string;
}

/** The policy and path a term's label names (`<policy> <path>`). */
function ruleRefOf(t: Term): RuleRef {
  const path = t.label.startsWith(`${t.policy} `) ? t.label.slice(t.policy.length + 1) : undefined;
  return { policy: t.policy, ...(path === undefined ? {} : { path }) };
}

export interface DiffResult {
  witnesses: Witness[];
  /** Classes found by the analysed rules that the whole sets decide alike (a rule beyond the analysis answers). */
  unconfirmed: number;
  /** Why "no other run is decided differently" is not proven, when it is not. */
  unknown: string[];
  /** The changed rule an unknown is about, where it is about one: its annotation's place (diff --format github). */
  unknownRules: Map<string, RuleRef>;
  changedRules: { base: string[]; proposed: string[] };
  decisions: number;
  coverage: string;
  horizon: { from: string; to: string };
}

/**
 * Every class of runs the proposed set decides differently from the base: for each rule only one set
 * has (its policy's scope, the rule and its exceptions compared as written), the classes where it
 * denies and the other set allows, each with a witness decided again by both whole sets.
 */
export function diffSets(base: PolicySet, proposed: PolicySet, from: Date): DiffResult {
  const docs = [...base.policies.values(), ...base.exceptions, ...proposed.policies.values(), ...proposed.exceptions];
  const [tb, tp] = groupedTerms(docs, [termsOf(base), termsOf(proposed)]);
  const keysB = new Set(tb.map((t) => t.key));
  const keysP = new Set(tp.map((t) => t.key));
  const onlyB = tb.filter((t) => !keysP.has(t.key));
  const onlyP = tp.filter((t) => !keysB.has(t.key));
  const unknown: string[] = [];
  const unknownRules = new Map<string, RuleRef>();
  for (const t of [...onlyB, ...onlyP]) {
    // A rule changed on both sides is one change: said once.
    const line = t.outside === undefined ? undefined : `${t.label} changed and is beyond the analysis: ${t.outside}`;
    if (line === undefined || unknown.includes(line)) continue;
    unknown.push(line);
    unknownRules.set(line, ruleRefOf(t));
  }
  const bundles = [base.bundle, proposed.bundle];
  const space = spaceOf(
    docs,
    bundles,
    [base.aliases, proposed.aliases],
    [...tb, ...tp],
    [...base.bundle.exceptions, ...proposed.bundle.exceptions],
    from,
  );
  const judge = new Judge(space, bundles);
  const witnesses: Witness[] = [];
  let unconfirmed = 0;
  /** For each changed rule, the policies that denied the classes it found but the whole sets decide alike. */
  const unconfirmedBy = new Map<string, Set<string>>();
  /** The changed rules whose search stopped before it decided every class. */
  const stoppedAt: string[] = [];
  const sides = [
    { kind: 'newly-allowed' as const, changed: onlyB, others: tp },
    { kind: 'newly-denied' as const, changed: onlyP, others: tb },
  ];
  let complete = true;
  for (const side of sides) {
    const mustNot = side.others.filter((t) => t.outside === undefined);
    for (const t of side.changed.filter((c) => c.outside === undefined)) {
      const result = search(judge, t, mustNot, {
        // The first run both whole sets decide as the class says is its witness.
        accept: (a) => {
          const plain = runOf(space, a, bundles);
          // The class's run, then the same run scoped as a blastRadius rule asks (scoped-variant.ts).
          const tries = [plain, scopedVariant(plain, docs)].filter((r): r is Run => r !== undefined);
          const decided = tries.map((r) => ({ run: r, b: answerOf(base.bundle, r), p: answerOf(proposed.bundle, r) }));
          const hit = decided.find(({ b: x, p: y }) =>
            side.kind === 'newly-allowed' ? !x.allowed && y.allowed : x.allowed && !y.allowed,
          );
          if (!hit) {
            const { run } = decided[0];
            // Who keeps the answer: the policies the set that should allow it still denies it with.
            const keeps = decide(
              side.kind === 'newly-allowed' ? proposed.bundle : base.bundle,
              run.payload,
              run.facts,
              run.now,
              {
                decisionId: 'prove-witness',
              },
            );
            const by = unconfirmedBy.get(t.label) ?? new Set<string>();
            for (const r of keeps.results) if (r.result === 'deny') by.add(r.policy);
            unconfirmedBy.set(t.label, by);
            unconfirmed++;
            return false;
          }
          // The simplest run of the class's kind both sets still decide so (and the rule still denies, where it did).
          const scoped = hit.run !== plain;
          const make = (x: Assignment, shown: Shown) => {
            const r = runOf(space, x, bundles, shown);
            return (scoped ? scopedVariant(r, docs) : undefined) ?? r;
          };
          const ruleDenies = termDenies(t, hit.run);
          const differs = (r: Run) => {
            const [x, y] = [answerOf(base.bundle, r).allowed, answerOf(proposed.bundle, r).allowed];
            return (side.kind === 'newly-allowed' ? !x && y : x && !y) && (!ruleDenies || termDenies(t, r));
          };
          const simplest = simplestWitness(space, a, docs, [base.aliases, proposed.aliases], make, differs);
          const { run } = simplest;
          const [b, p] = [answerOf(base.bundle, run), answerOf(proposed.bundle, run)];
          const cls = `${side.kind === 'newly-allowed' ? 'base' : 'proposed'} ${t.label} denies: ${describeRun(space, simplest.a, t.reads.keys(), simplest.shown)}`;
          witnesses.push(witnessOf(side.kind, cls, run, { base: b, proposed: p, rule: ruleRefOf(t) }));
          return true;
        },
      });
      if (!result.stopped && !result.complete) {
        complete = false;
        stoppedAt.push(t.label);
      }
      // Runs of several steps no one step shows: a step repeated past a total, two steps that
      // exceptions scoped to steps each waive alone (steps.ts).
      const found = (cls: string, run: Run) => {
        const w = differingWitness(side.kind, t, cls, run, base.bundle, proposed.bundle);
        if (w) witnesses.push(w);
        return w !== undefined;
      };
      const steps = (a: Assignment) => describeRun(space, a, t.reads.keys());
      if (
        !result.stopped &&
        !searchCopies(judge, t, mustNot, bundles, (run, a, n) => found(`${n} steps, each ${steps(a)}`, run))
      )
        searchPairs(judge, t, mustNot, bundles, (run, x, y) => found(`2 steps: ${steps(x)}; and ${steps(y)}`, run));
    }
  }
  if (unconfirmed > 0)
    unknown.push(
      `${unconfirmed} class(es) differ under the analysed rules but not under the whole sets: a rule beyond the analysis decides them (${[
        ...unconfirmedBy,
      ]
        .map(([rule, by]) => `where ${rule} decides, denied by ${[...by].join(', ') || 'no policy'}`)
        .join('; ')})`,
    );
  if (!complete) unknown.push(`more classes than the search decides (${[...new Set(stoppedAt)].join('; ')})`);
  unknown.push(...severalStepsGaps([...onlyB, ...onlyP]));
  unknown.push(
    ...incompleteDims(space, dimsOf([...onlyB, ...onlyP, ...tb, ...tp].filter((t) => t.outside === undefined))),
  );
  return {
    witnesses: dedupe(witnesses),
    unconfirmed,
    unknown,
    unknownRules,
    changedRules: { base: onlyB.map((t) => t.label), proposed: onlyP.map((t) => t.label) },
    decisions: judge.decisions,
    coverage: COVERAGE,
    horizon: space.horizon,
  };
}

/** The witness of a run of several steps that the whole sets decide as `kind` says, or undefined when they do not. */
function differingWitness(
  kind: 'newly-allowed' | 'newly-denied',
  t: Term,
  steps: string,
  run: Run,
  base: PolicyBundle,
  proposed: PolicyBundle,
): Witness | undefined {
  const b = answerOf(base, run);
  const p = answerOf(proposed, run);
  if (kind === 'newly-allowed' ? b.allowed || !p.allowed : !b.allowed || p.allowed) return undefined;
  const cls = `${kind === 'newly-allowed' ? 'base' : 'proposed'} ${t.label} denies: ${steps}`;
  return witnessOf(kind, cls, run, { base: b, proposed: p, rule: ruleRefOf(t) });
}

/** One witness per run: two changed rules can find the same one. */
function dedupe(ws: Witness[]): Witness[] {
  const seen = new Set<string>();
  return ws.filter((w) => {
    const key = JSON.stringify([w.kind, w.payload, w.now, w.facts]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export type { Assignment };
