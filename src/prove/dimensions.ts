import { parseDuration } from '../syntax/duration';
import { runEnvironments } from '../policy/engine/environments';
import type { EnvironmentFacts } from '../policy/facts/environment-facts';
import type { Facts } from '../policy/facts/facts';
import { quietFacts } from '../policy/facts/quiet-facts';
import { scopeKey, serviceScopeKey, type StateFacts } from '../policy/facts/state-facts';
import { actionSteps } from '../policy/engine/action-steps';
import { attackedValues } from '../policy/signals/attacked-values';
import type { TeamFacts } from '../policy/facts/team-facts';
import type { PreflightPayload } from '../policy/core/decision';
import type { SignalFacts } from '../policy/facts/signal-facts';
import type { CompiledException, PolicyBundle } from '../policy/core/compiled';
import type { Doc } from './policy-set';
import type { DimName, Term } from './term-types';
import { MEMBERS, writtenValues } from './terms';
import {
  ATTR,
  type CountValue,
  EMPTY_UNCOUNTED,
  LISTING,
  type Listing,
  sentCount,
  targetDims,
  targetsOfClass,
} from './target-classes';
import { LAYOUT, type Layout, layoutSizes, layoutTargets, layoutsRead } from './group-classes';
import { signalDims, signalFactsOf } from './signal-classes';
import { signalRunValues } from '../policy/signals/run-values';
import { filledTexts, fillsEnvironmentNames, UNNAMED_ID } from './filled-queries';
import type { Execution } from '../payload/types';
import { type StateScope, stateDims, stateFactsOf } from './state-classes';
import { IN_PROGRESS, inProgressOf, type OverlapClass, overlapDims } from './overlap-classes';
import { usesOf, useDims } from './use-classes';
import { timeClasses } from './time-classes';
import { globClasses, nameClasses, numberClasses, OTHER, type ValueClasses } from './value-classes';
import { mutingParameterGlobs, paramDim, parameterClasses } from './muting-classes';
import type { ValueKind } from '../syntax/parameter-value';
import { PREDICATE, predicateChecks, predicateClasses } from './predicate-classes';

/** The run's environments: `execution.environment`, the override, and what the Platform API says they are called (absent: not configured). */
export interface EnvClass {
  environment?: string;
  override?: string;
  names?: EnvironmentFacts;
}

export interface Dim {
  name: DimName;
  values: unknown[];
  complete: boolean;
  why?: string;
}

/** One value per dimension (by position in the dimension list): a class of runs, and the run that represents it. */
export type Assignment = number[];

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

function rulesOf(docs: readonly Doc[], kind: string): Doc[] {
  return docs
    .flatMap((d) => asList(d.rules).map((r) => asObject(asObject(r)[kind])))
    .filter((s) => Object.keys(s).length > 0);
}

/**
 * The environment classes: every value written (names, ids, aliases) and one unwritten, alone or with
 * an override, with and without the Platform API's names (a fresh id named like each written name,
 * one whose name cannot be read). Two combinations are one class when, under every set compared,
 * the engine gives the run the same environments as far as any list written can tell (runEnvironments).
 */
function envClasses(
  docs: readonly Doc[],
  bundles: readonly PolicyBundle[],
  aliases: readonly Record<string, string[]>[],
  fillsNames: boolean,
) {
  const listed = new Set((writtenValues(docs).get('env') ?? []).map((e) => e.toLowerCase()));
  for (const a of aliases) for (const name of Object.keys(a)) listed.add(name.toLowerCase());
  const literals = new Set<string>([...listed]);
  for (const a of aliases) for (const ids of Object.values(a)) for (const id of ids) literals.add(id);
  literals.add(`${OTHER}-environment`);
  // Where a query fills {{environment}}: an id (as Steadybit sends) that no name is known for fills none.
  if (fillsNames) literals.add(UNNAMED_ID);
  const values = [...literals];
  const raw: EnvClass[] = [];
  const second = [undefined, ...values];
  for (const environment of [undefined, ...values])
    for (const override of second) if (override !== environment) raw.push({ environment, override });
  // With the Platform API: each value sent under a name written (or another), or one it cannot name.
  const facts: Array<EnvironmentFacts[string]> = [
    ...values.map((name) => ({ name })),
    { unknown: 'the Steadybit Platform API did not answer (prove)' },
  ];
  const fresh = ['prove-environment-id-1', 'prove-environment-id-2'];
  for (const [i, value] of [...values, fresh[0]].entries())
    for (const f of facts) {
      raw.push({ environment: value, names: { [value]: f } });
      for (const o of [...values.filter((_, j) => j !== i), fresh[1]])
        for (const g of facts) raw.push({ environment: value, override: o, names: { [value]: f, [o]: g } });
    }
  const seen = new Map<string, EnvClass>();
  for (const c of raw) {
    const execution = {
      id: 0,
      environment: c.environment,
      overrides: c.override ? { environment: c.override } : undefined,
    };
    const key = JSON.stringify([
      c.environment === undefined,
      ...bundles.map((b) =>
        runEnvironments(execution, b, c.names)
          .map(
            (e) =>
              `${[...e.keys]
                .filter((k) => listed.has(k))
                .sort()
                .join(',')}${e.unknownName ? '?' : ''}${fillsNames && e.names.length === 0 ? '!' : ''}`,
          )
          .sort(),
      ),
    ]);
    if (!seen.has(key)) seen.set(key, c);
  }
  return [...seen.values()];
}

/** The numbers the documents' targets and parameters rules compare with. */
export function thresholdsOf(docs: readonly Doc[]) {
  const counts: number[] = [];
  const pcts: number[] = [];
  for (const t of rulesOf(docs, 'targets')) {
    for (const caps of [t, ...Object.values(asObject(t.perType)).map(asObject)])
      for (const k of ['maxPerStep', 'maxTotal']) if (typeof caps[k] === 'number') counts.push(caps[k] as number);
    if (t.denyEmpty === true) counts.push(0);
    if (typeof t.maxPercentage === 'number') pcts.push(t.maxPercentage);
  }
  const params = new Map<string, number[]>();
  /** How the limits on each parameter read its value: as a number, as a duration (string bounds), or both ways. */
  const paramKinds = new Map<string, Set<ValueKind>>();
  for (const p of rulesOf(docs, 'parameters'))
    for (const [name, limit] of Object.entries(p)) {
      const list = params.get(name) ?? [];
      const kinds = paramKinds.get(name) ?? new Set<ValueKind>();
      for (const b of [asObject(limit).min, asObject(limit).max]) {
        const n = typeof b === 'number' ? b : typeof b === 'string' ? parseDuration(b) : undefined;
        if (n !== undefined) list.push(n);
        if (b !== undefined) kinds.add(typeof b === 'string' ? 'duration' : 'number');
      }
      params.set(name, list);
      paramKinds.set(name, kinds);
    }
  return { counts, pcts, params, paramKinds };
}

export interface Space {
  dims: Dim[];
  index: ReadonlyMap<DimName, number>;
  /** The dimensions of the signals and of the state the analysed rules read (signal-classes.ts, state-classes.ts). */
  signals: Dim[];
  state: Dim[];
  horizon: { from: string; to: string };
}

/** The dimensions of every run for these sets, terms and properties (their documents as written). */
export function spaceOf(
  docs: readonly Doc[],
  bundles: readonly PolicyBundle[],
  aliases: readonly Record<string, string[]>[],
  terms: readonly Term[],
  exceptions: readonly CompiledException[],
  from: Date,
): Space {
  const written = writtenValues(docs);
  const w = (d: string) => written.get(d) ?? [];
  const { counts, pcts, params, paramKinds } = thresholdsOf(docs);
  const muted = mutingParameterGlobs(docs);
  const read = new Set(terms.flatMap((t) => [...t.reads.keys()]));
  const classes = (name: DimName, c: ValueClasses<unknown>): Dim => ({ name, ...c });
  const whole = (name: DimName, values: unknown[]): Dim => ({ name, values, complete: true });
  // Several targets per class where a term counts them together (group-classes.ts), else one.
  const layouts = layoutsRead(docs, terms);
  const targets = targetDims(
    docs,
    layouts !== undefined ||
      terms.some((t) => t.reads.has(LISTING) || [...t.reads.keys()].some((d) => d.startsWith(ATTR))),
  );
  const versions = w('version');
  let fresh = 1;
  while (versions.includes(String(fresh))) fresh++;
  const time = timeClasses(
    docs,
    terms.filter((t) => t.reads.get('time') === 'full'),
    exceptions,
    from,
  );
  // Not sent first: a run no term asks about its starter names none (unread dimensions take their first value).
  const absentFirst = (name: DimName, c: ValueClasses<string | undefined>): Dim => ({
    name,
    ...c,
    values: [undefined, ...c.values.filter((v) => v !== undefined)],
  });
  const dims: Dim[] = [
    whole('env', envClasses(docs, bundles, aliases, fillsEnvironmentNames(docs))),
    classes('team', nameClasses(w('team'))),
    absentFirst('starter', globClasses(w('starter'))),
    absentFirst('starterEmail', globClasses(w('starterEmail'))),
    // Each team a createdByTeams names: its members read with the starter among them, without, the
    // Platform API unable to say, or not read at all (no Platform API).
    ...[...new Set(read)]
      .filter((d) => d.startsWith(MEMBERS))
      .map((d) => whole(d, [undefined, 'member', 'not-member', 'unknown'])),
    classes('key', globClasses(w('key'))),
    classes('via', nameClasses(w('via'))),
    whole('version', [...new Set(versions), String(fresh), undefined]),
    classes('actionId', globClasses(w('actionId'))),
    classes(
      'actionKind',
      nameClasses(w('actionKind').length > 0 || read.has('actionKind') ? ['ATTACK', ...w('actionKind')] : ['ATTACK']),
    ),
    whole('count', [
      // A layout's targets are as many as its run expects, or fewer (partial), in every count class.
      // Where targets are read, also 2 (split at 1): a run expecting more targets than it lists, so
      // a list of one target of several is a class even when no cap is written.
      ...numberClasses([...counts, ...layoutSizes(layouts), ...(targets.listing.length > 1 ? [1] : [])], {
        integer: true,
        lo: 0,
      }),
      undefined,
      ...(targets.listing.length > 1 ? [EMPTY_UNCOUNTED] : []),
    ]),
    whole('pct', [...numberClasses(pcts, { integer: true, lo: 0, hi: 100 }), undefined]),
    whole('maximum', [undefined, 5]),
    // Not sent, then one predicate per class the blastRadius rules tell apart (predicate-classes.ts).
    classes(PREDICATE, predicateClasses(predicateChecks(docs))),
    classes('targetType', globClasses(w('targetType'))),
    whole(LISTING, targets.listing),
    ...(layouts ? [whole(LAYOUT, layouts)] : targets.attributes.map(([name, values]) => whole(name, values))),
    ...[...new Set([...params.keys(), ...muted.keys()])].map((name) =>
      classes(
        paramDim(name),
        parameterClasses(name, params.get(name), muted.get(name), paramKinds.get(name)?.size === 2),
      ),
    ),
    whole('time', time.values),
    whole('estop', [false, true]),
    // The execution id, only where a query fills {{executionId}}: sent, or not (the schema does not require it).
    ...(read.has('executionId') ? [whole('executionId', [1, undefined])] : []),
  ];
  const signals = signalDims(docs, bundles);
  const state = [...stateDims(docs), ...overlapDims(docs), ...useDims(exceptions)];
  dims.push(...signals, ...state);
  return { dims, index: new Map(dims.map((d, i) => [d.name, i])), horizon: time.horizon, signals, state };
}

export interface Run {
  payload: PreflightPayload;
  now: Date;
  facts: Facts;
  /** The facts as `eval --state/--environments/--signals/--teams` read them (absent: the flag is not given). */
  given: {
    state: StateFacts;
    environments?: EnvironmentFacts;
    signals: SignalFacts;
    teams: TeamFacts;
  };
}

/** Values shown in a class's place: another value of the same class (a realistic text, simplest-witness.ts). */
export type Shown = ReadonlyMap<DimName, unknown>;

/**
 * The run representing an assignment (unassigned dimensions take their first value), with the facts
 * every set compared needs; `shown` gives some dimensions another value of their class.
 */
export function runOf(space: Space, a: Assignment, bundles: readonly PolicyBundle[], shown?: Shown): Run {
  const v = (name: DimName): unknown => {
    if (shown?.has(name)) return shown.get(name);
    const i = space.index.get(name);
    if (i === undefined) return undefined;
    const dim = space.dims[i];
    return dim.values[a[i] === undefined || a[i] < 0 ? 0 : a[i]];
  };
  const env = v('env') as EnvClass;
  const parameters: Record<string, unknown> = {};
  for (const d of space.dims)
    if (d.name.startsWith('param:')) {
      const value = v(d.name);
      if (value !== undefined) parameters[d.name.slice('param:'.length)] = value;
    }
  const radius: Record<string, unknown> = {};
  for (const [field, dim] of [
    ['targetType', 'targetType'],
    ['percentage', 'pct'],
    ['maximum', 'maximum'],
    ['predicate', PREDICATE],
  ] as const) {
    const value = v(dim);
    if (value !== undefined) radius[field] = value;
  }
  const step: Record<string, unknown> = {};
  const put = (target: Record<string, unknown>, field: string, value: unknown) => {
    if (value !== undefined) target[field] = value;
  };
  put(step, 'actionId', v('actionId'));
  put(step, 'actionKind', v('actionKind'));
  if (Object.keys(parameters).length > 0) step.parameters = parameters;
  if (Object.keys(radius).length > 0) step.radius = radius;
  put(step, 'totalTargetCount', sentCount(v('count') as CountValue));
  const attributes = space.dims
    .filter((d) => d.name.startsWith(ATTR))
    .map((d) => [d.name.slice(ATTR.length), v(d.name)] as [string, string | undefined]);
  const type = v('targetType') as string | undefined;
  const layout = v(LAYOUT) as Layout | undefined;
  const listing = v(LISTING) as Listing | undefined;
  put(
    step,
    'targetExecutions',
    layout
      ? layoutTargets(layout, listing, v('count') as CountValue, type)
      : targetsOfClass(listing, attributes, v('count') as CountValue, type),
  );
  const execution: Record<string, unknown> = {};
  put(execution, 'id', space.index.has('executionId') ? v('executionId') : 1);
  put(execution, 'experimentKey', v('key'));
  put(execution, 'teamKey', v('team'));
  put(execution, 'environment', env.environment);
  if (env.override !== undefined) execution.overrides = { environment: env.override };
  put(execution, 'createdVia', v('via'));
  // The schema requires a username when createdBy is sent; an empty one is no username (starter-identity.ts).
  const username = v('starter') as string | undefined;
  const email = v('starterEmail') as string | undefined;
  if (username !== undefined || email !== undefined)
    execution.createdBy = { username: username ?? '', ...(email === undefined ? {} : { email }) };
  put(execution, 'experimentVersion', v('version'));
  execution.steps = [step];
  const now = v('time') as Date;
  const filled = (query: string) => filledTexts(query, execution as unknown as Execution, env.names, bundles);
  // An alert's label a matcher fills from the run carries the run's own value (its team, key, id).
  const [values] = signalRunValues(execution as unknown as Execution, []);
  const { signals, created } = signalFactsOf(space.signals, v, now, filled, values);
  // A silence that began before the run hides an alert only from a run that says when it started.
  put(execution, 'created', created);
  const payload = { event: 'experiment.execution.preflight', execution } as unknown as PreflightPayload;
  const state: StateFacts = {};
  for (const b of bundles) Object.assign(state, quietFacts(b.needs).state ?? {});
  state.emergencyStop = { engaged: v('estop') === true };
  // The runs the state rules count, under each of the run's own scopes; a part not loaded is left out.
  const scopes = (kind: StateScope): string[] => {
    if (kind === 'environment')
      return [env.environment, env.override].flatMap((e) => (e ? [scopeKey('environment', e)] : []));
    if (kind === 'team') return typeof execution.teamKey === 'string' ? [scopeKey('team', execution.teamKey)] : [];
    // The services the run attacks, as a cool-down per service finds them (signals/attacked-values.ts).
    const by = kind.slice('service:'.length);
    const attacked = attackedValues(actionSteps(execution.steps as Execution['steps']), by);
    return attacked.values.map((value) => serviceScopeKey(by, value));
  };
  const recorded = stateFactsOf(
    space.state.filter((d) => d.name.startsWith('state:') && d.name !== IN_PROGRESS),
    v,
    scopes,
    now,
  );
  Object.assign(state, recorded.state);
  for (const part of recorded.absent) state[part] = undefined;
  // How often each exception with maxUses has waived a run.
  const uses = usesOf(space.state, v);
  if (Object.keys(uses).length > 0) state.exceptionUses = uses;
  // The runs in progress noOverlap compares with: made from this run's own targets.
  if (space.index.has(IN_PROGRESS))
    state.inProgress = inProgressOf(v(IN_PROGRESS) as OverlapClass, execution.steps as Execution['steps'], now);
  const teams: TeamFacts = {};
  for (const d of space.dims.filter((x) => x.name.startsWith(MEMBERS))) {
    const team = d.name.slice(MEMBERS.length);
    const read = v(d.name);
    if (read === 'member')
      teams[team] = { members: [{ username: username || 'prove-member', ...(email === undefined ? {} : { email }) }] };
    else if (read === 'not-member') teams[team] = { members: [{ username: `${OTHER}-not-the-starter` }] };
    else if (read === 'unknown') teams[team] = { unknown: 'the Steadybit Platform API did not answer (prove)' };
  }
  const given: Run['given'] = { state, signals, teams, ...(env.names ? { environments: env.names } : {}) };
  return {
    payload,
    now,
    facts: { state, signals, teams, ...(env.names ? { environments: env.names } : {}) },
    given,
  };
}

/** The classes of the run in words, dimension by dimension (only those some term reads). */
export function describeRun(space: Space, a: Assignment, dims: Iterable<DimName>, shown?: Shown): string {
  const parts: string[] = [];
  for (const name of dims) {
    const i = space.index.get(name);
    if (i === undefined) continue;
    const value = shown?.has(name) ? shown.get(name) : space.dims[i].values[Math.max(a[i], 0)];
    parts.push(
      `${name} ${value === undefined ? '(not sent)' : value instanceof Date ? value.toISOString() : JSON.stringify(value)}`,
    );
  }
  return parts.join(', ');
}
