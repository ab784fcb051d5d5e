import { parseDuration } from '../syntax/duration';
import {
  END_STATES,
  type EndState,
  type RunRef,
  SERVICE_KEYS,
  type ScopeKind,
  type StateFacts,
} from '../policy/facts/state-facts';
import type { Doc } from './policy-set';
import { ATTR, LISTING } from './target-classes';
import type { DimName, Reading } from './term-types';

/*
 * The state the analysed `concurrency`, `quota` and `cooldown` rules read
 * (docs/decisions/0035-state-as-fact-classes.md): one dimension per part of the state store
 * (`running`, `started`, `ended`), each class the runs recorded under each of the run's own scopes
 * (its environments, its team) or the part not loaded. A rule denies when one of the run's scopes
 * passes its cap (or cools down), and its answer only grows with the runs a scope has, so the same
 * runs under every scope of a kind stand for any runs under each.
 */

export const STATE = 'state:';
type Part = 'running' | 'started' | 'ended';
const PARTS: Readonly<Record<string, Part>> = { concurrency: 'running', quota: 'started', cooldown: 'ended' };
const DEFAULT_PER: Readonly<Record<Part, ScopeKind>> = {
  running: 'environment',
  started: 'team',
  ended: 'environment',
};

/**
 * One scope kind's runs: a count running; the runs started within each window (ms, ascending), as
 * many as `started` says by each; or for each group of end states, the duration band its last run
 * ended in (`ended[g]`: within `durations[band]` and not the shorter one; undefined: none).
 */
export type KindClass =
  | { running: number }
  | { started: number[]; windows: number[] }
  | { ended: Array<number | undefined>; durations: number[]; groups: EndState[] };
/**
 * What a state rule counts runs under: the run's environments, its team, or (a cool-down `per:
 * service`) each service it attacks, named by the values of one attribute key on its targets.
 */
export type StateScope = ScopeKind | `service:${string}`;
/** A class of one part: per scope kind its runs, or the part not loaded (every rule reading it cannot decide). */
export type StateClass = 'not loaded' | Partial<Record<StateScope, KindClass>>;

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
/** The attribute key a cool-down per service names the attacked service by. */
const serviceKeyOf = (spec: Doc): string => (typeof spec.by === 'string' ? spec.by : SERVICE_KEYS[0]);
const perOf = (part: Part, spec: Doc): StateScope => {
  if (spec.per === 'team' || spec.per === 'environment') return spec.per;
  if (part === 'ended' && spec.per === 'service') return `service:${serviceKeyOf(spec)}`;
  return DEFAULT_PER[part];
};

/** Why a state rule is beyond the analysis: a cool-down until recovered. */
function stateOutside(kind: string, spec: Doc): string | undefined {
  if (kind === 'cooldown' && spec.until !== undefined)
    return 'until reads signals about the last run, which are not analysed';
  return undefined;
}

/** Whether a rule reads the run's steps as a target rule does: a cool-down per attacked service (core/targeted-step.ts). */
export const readsAttackedServices = (kind: string, spec: unknown): boolean =>
  kind === 'cooldown' && asObject(spec).per === 'service';

/** What a `concurrency`, `quota` or `cooldown` rule reads (its part of the state, the run's scopes), or why it is beyond the analysis. */
export function stateReads(kind: string, spec: unknown, reads: Map<DimName, Reading>): string | undefined {
  const part = PARTS[kind];
  if (part === undefined) return undefined;
  const s = asObject(spec);
  const outside = stateOutside(kind, s);
  if (outside !== undefined) return outside;
  reads.set(`${STATE}${part}`, 'full');
  const per = perOf(part, s);
  if (per === 'team' || per === 'environment') reads.set(per === 'team' ? 'team' : 'env', 'full');
  else {
    // The services it attacks: its targets' values of the key, and whether every target is listed
    // (whenMissing: a step not listing its targets, a target without the key).
    for (const dim of [`${ATTR}${serviceKeyOf(s)}`, LISTING, 'count', 'actionKind']) reads.set(dim, 'full');
  }
  return undefined;
}

/** The counts a cap splits: none, and each cap (a scope has fewer runs than it, or as many or more). */
const countReps = (caps: readonly number[]) => [0, ...new Set(caps.filter((c) => c > 0))].sort((a, b) => a - b);

/** Every non-decreasing sequence of `length` values of `reps`: the runs started by the end of each window, shortest first. */
function rising(reps: readonly number[], length: number): number[][] {
  if (length === 0) return [[]];
  return rising(reps, length - 1).flatMap((seq) => reps.filter((r) => r >= (seq.at(-1) ?? 0)).map((r) => [...seq, r]));
}

/** Past this many classes of one part the dimension is not complete (never a proof). */
const MAX_STATE_CLASSES = 20_000;

interface KindSpecs {
  running: number[];
  /** Per distinct window (ms, ascending): the caps of the rules with it. */
  windows: number[];
  startedCaps: number[];
  /** Per cool-down: its duration and the end states it counts. */
  cooldowns: Array<{ ms: number; after: EndState[] }>;
}

/** The end states grouped by the cool-downs that count them (one of each group stands for all), those no cool-down counts left out. */
function endGroups(cooldowns: KindSpecs['cooldowns']): EndState[] {
  const seen = new Map<string, EndState>();
  for (const s of END_STATES) {
    const key = cooldowns.map((c) => (c.after.includes(s) ? '1' : '0')).join('');
    if (key.includes('1') && !seen.has(key)) seen.set(key, s);
  }
  return [...seen.values()];
}

function kindClasses(part: Part, k: KindSpecs): KindClass[] {
  if (part === 'running') return countReps(k.running).map((running) => ({ running }));
  const windows = [...k.windows].sort((a, b) => a - b);
  if (part === 'started')
    return rising(countReps(k.startedCaps), windows.length).map((started) => ({ started, windows }));
  const durations = [...new Set(k.cooldowns.map((c) => c.ms))].sort((a, b) => a - b);
  const groups = endGroups(k.cooldowns);
  let out: Array<Array<number | undefined>> = [[]];
  for (const _ of groups) out = out.flatMap((v) => [undefined, ...durations.keys()].map((band) => [...v, band]));
  return out.map((ended) => ({ ended, durations, groups }));
}

export interface StateDim {
  name: DimName;
  values: StateClass[];
  complete: boolean;
  why?: string;
}

/** The state dimensions of these documents' analysed `concurrency`, `quota` and `cooldown` rules. */
export function stateDims(docs: readonly Doc[]): StateDim[] {
  const byPart = new Map<Part, Map<StateScope, KindSpecs>>();
  for (const doc of docs)
    for (const rule of Array.isArray(doc.rules) ? doc.rules : [])
      for (const [kind, raw] of Object.entries(asObject(rule))) {
        const part = PARTS[kind];
        const spec = asObject(raw);
        if (part === undefined || stateOutside(kind, spec) !== undefined) continue;
        const kinds = byPart.get(part) ?? new Map<StateScope, KindSpecs>();
        byPart.set(part, kinds);
        const per = perOf(part, spec);
        const k = kinds.get(per) ?? { running: [], windows: [], startedCaps: [], cooldowns: [] };
        kinds.set(per, k);
        if (part === 'running' && typeof spec.maxRunning === 'number') k.running.push(spec.maxRunning);
        const text = spec[part === 'started' ? 'window' : 'duration'];
        const duration = typeof text === 'string' ? parseDuration(text) : undefined;
        if (part === 'started' && duration !== undefined && typeof spec.maxRuns === 'number') {
          if (!k.windows.includes(duration)) k.windows.push(duration);
          k.startedCaps.push(spec.maxRuns);
        }
        if (part === 'ended' && duration !== undefined) {
          const after = Array.isArray(spec.after) ? (spec.after as EndState[]) : (['FAILED', 'ERRORED'] as EndState[]);
          k.cooldowns.push({ ms: duration, after });
        }
      }
  const out: StateDim[] = [];
  for (const [part, kinds] of byPart) {
    let values: Array<Partial<Record<StateScope, KindClass>>> = [{}];
    for (const [per, k] of kinds) {
      const classes = kindClasses(part, k);
      values = values.flatMap((v) => classes.map((c) => ({ ...v, [per]: c })));
    }
    const complete = values.length <= MAX_STATE_CLASSES;
    out.push({
      name: `${STATE}${part}`,
      values: complete ? [...values, 'not loaded'] : [values[0], 'not loaded'],
      complete,
      ...(complete ? {} : { why: `more classes of the ${part} runs (${values.length}) than the analysis makes` }),
    });
  }
  return out;
}

/** The runs of one scope kind's class at `now`: ids no payload of the analysis sends. */
function runsOf(c: KindClass, now: number): RunRef[] {
  const runs: RunRef[] = [];
  const add = (count: number, ageMs: number, state?: EndState) => {
    for (let i = 0; i < count; i++)
      runs.push({ id: `prove-run-${runs.length + 1}`, atMs: now - ageMs, ...(state ? { state } : {}) });
  };
  if ('running' in c) add(c.running, 60_000);
  else if ('started' in c)
    // Runs started within each window and not the shorter one before it, oldest first.
    for (let j = c.started.length - 1; j >= 0; j--) {
      const shorter = j === 0 ? 0 : c.windows[j - 1];
      add(c.started[j] - (j === 0 ? 0 : c.started[j - 1]), Math.floor((shorter + c.windows[j]) / 2));
    }
  else
    c.ended.forEach((band, g) => {
      if (band === undefined) return;
      const shorter = band === 0 ? 0 : c.durations[band - 1];
      add(1, Math.floor((shorter + c.durations[band]) / 2), c.groups[g]);
    });
  // The store lists runs in the order they were recorded: oldest first.
  return runs.sort((a, b) => a.atMs - b.atMs);
}

/**
 * The state parts of a run (in the shape `eval --state` reads) from its state dimensions: each part's
 * runs under every one of the run's scope keys of each kind (`environment:<value>` for its
 * environment and override, `team:<key>`, `service:<key>=<value>` for each service it attacks), or
 * the part not loaded (`absent`).
 */
export function stateFactsOf(
  dims: ReadonlyArray<{ name: DimName }>,
  value: (name: DimName) => unknown,
  scopes: (kind: StateScope) => string[],
  now: Date,
): { state: Partial<StateFacts>; absent: Part[] } {
  const state: Partial<StateFacts> = {};
  const absent: Part[] = [];
  for (const dim of dims) {
    const part = dim.name.slice(STATE.length) as Part;
    const cls = value(dim.name) as StateClass;
    if (cls === 'not loaded') {
      absent.push(part);
      continue;
    }
    const byScope: Record<string, RunRef[]> = {};
    for (const [per, c] of Object.entries(cls) as Array<[StateScope, KindClass]>) {
      const runs = runsOf(c, now.getTime());
      for (const key of scopes(per)) byScope[key] = runs;
    }
    state[part] = byScope;
  }
  return { state, absent };
}
